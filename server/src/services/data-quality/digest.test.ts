import { DEVICE_TYPE, GROUP, getDigestSubscription, updateDigestSubscription } from '@rodmenys/contract';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, inject, useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import { addReadings, address, createDevice, createPath, createUser } from '../../test/fixtures.js';
import { type Delivered, decodeMail as decode, startSmtp } from '../../test/smtp.js';
import { Mailer } from '../mail/index.js';
import { sendDigests } from './digest.js';
import { validate } from './validate.js';

describe(`daily anomaly digest by e-mail (${dbKind()})`, () => {
  const t = useApp({ smtpUrl: 'smtp://127.0.0.1:1' });
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let port: number;
  let delivered: Delivered[];

  beforeAll(async () => {
    // A real SMTP server in this process: every message is kept as it arrived.
    smtp = await startSmtp();
    port = smtp.port;
    delivered = smtp.delivered;
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('sends each subscriber the new anomalies of their scope, in their language, with links; once', async () => {
    const { app, db } = t;
    const [a, b] = [
      await createPath(db, address('Klaipėda', 'Tiltų g.', '1', '1'), 1),
      await createPath(db, address('Klaipėda', 'Tiltų g.', '2', '1'), 1),
    ];
    const buildingA = a.at(-2)!;
    const manager = await createUser(app, { groupId: GROUP.user, rights: [buildingA] });
    const operator = await createUser(app, { groupId: GROUP.operator });
    const quiet = await createUser(app, { groupId: GROUP.user, rights: [buildingA] });
    for (const [user, email] of [
      [manager, 'manager@example.lt'],
      [operator, 'operator@example.lt'],
      [quiet, 'quiet@example.lt'],
    ] as const) {
      await db.query('UPDATE app_user SET email = $2 WHERE id = $1', [user.id, email]);
    }
    const noMail = await createUser(app, { groupId: GROUP.user, rights: [buildingA] });
    const refused = await inject(app, updateDigestSubscription, {
      token: noMail.token,
      body: { optIn: true, language: 'en' },
    });
    expect(refused.status).toBe(400);
    expect(refused.error.errors?.[0]?.field).toBe('optIn');
    const on = await inject(app, updateDigestSubscription, {
      token: manager.token,
      body: { optIn: true, language: 'en' },
    });
    expect(on.body).toMatchObject({ OptIn: true, Language: 'en', MailConfigured: true });
    await inject(app, updateDigestSubscription, {
      token: operator.token,
      body: { optIn: true, language: 'lt' },
    });

    // Two silent water meters, one per building.
    const inA = await createDevice(db, { typeId: DEVICE_TYPE.coldWaterMeter, locationId: a.at(-1)!, code: 'DIGEST-A' });
    const inB = await createDevice(db, { typeId: DEVICE_TYPE.coldWaterMeter, locationId: b.at(-1)!, code: 'DIGEST-B' });
    const longAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
    await addReadings(db, inA, [[longAgo, 1]]);
    await addReadings(db, inB, [[longAgo, 1]]);
    await validate(db, null, new Date());
    const { rows: ids } = await db.query<{ id: number; device_id: number }>(
      'SELECT id, device_id FROM anomaly ORDER BY id',
    );
    const idOf = (device: number) => ids.find((r) => r.device_id === device)!.id;

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    const mailer = new Mailer(transport, 'rodmenys@example.lt', 'https://rodmenys.example.lt');
    const summary = await sendDigests(db, mailer, new Date());
    expect(summary).toEqual({ sent: 2, subscribers: 2 });
    expect(delivered.map((m) => m.to[0]).sort()).toEqual(['manager@example.lt', 'operator@example.lt']);

    const toManager = decode(delivered.find((m) => m.to[0] === 'manager@example.lt')!.raw);
    expect(toManager).toContain('Subject: Rodmenys: new anomalies (1)');
    expect(toManager).toContain('Silent: ');
    expect(toManager).toContain('device DIGEST-A');
    expect(toManager).toContain(`https://rodmenys.example.lt/anomalies?id=${idOf(inA)}`);
    // A building manager never hears of another building.
    expect(toManager).not.toContain('DIGEST-B');

    const toOperator = decode(delivered.find((m) => m.to[0] === 'operator@example.lt')!.raw);
    expect(toOperator).toContain('Rodmenys: naujos anomalijos (2)');
    expect(toOperator).toContain('Nėra rodmenų');
    expect(toOperator).toContain('prietaisas DIGEST-B');
    expect(toOperator).toContain(`https://rodmenys.example.lt/anomalies?id=${idOf(inB)}`);

    // Nothing new since: no second mail.
    await sendDigests(db, mailer, new Date());
    expect(delivered).toHaveLength(2);
  });

  it('says when the server cannot send mail (no SMTP_URL)', async () => {
    // The same database, an app without SMTP_URL.
    const plain = await buildTestApp(t.db);
    const user = await createUser(plain, { groupId: GROUP.user });
    const res = await inject(plain, getDigestSubscription, { token: user.token });
    expect(res.body).toMatchObject({ OptIn: false, MailConfigured: false });
    await plain.close();
  });
});
