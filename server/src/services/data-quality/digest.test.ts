import type { FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/db.js';
import { buildTestApp, call } from '../../test/app.js';
import { createTestDb, dbKind } from '../../test/db.js';
import { addReadings, address, createDevice, createPath, createUser } from '../../test/fixtures.js';
import { type Delivered, decodeMail as decode, startSmtp } from '../../test/smtp.js';
import { Mailer } from '../mail/index.js';
import { sendDigests } from './digest.js';
import { validate } from './validate.js';

describe(`daily anomaly digest by e-mail (${dbKind()})`, () => {
  let db: Db;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let port: number;
  let delivered: Delivered[];

  beforeAll(async () => {
    db = await createTestDb();
    app = await buildTestApp(db, { smtpUrl: 'smtp://127.0.0.1:1' });
    // A real SMTP server in this process: every message is kept as it arrived.
    smtp = await startSmtp();
    port = smtp.port;
    delivered = smtp.delivered;
  });
  afterAll(async () => {
    await smtp.close();
    await app.close();
    await db.close();
  });

  it('sends each subscriber the new anomalies of their scope, in their language, with links; once', async () => {
    const [a, b] = [
      await createPath(db, address('Klaipėda', 'Tiltų g.', '1', '1'), 1),
      await createPath(db, address('Klaipėda', 'Tiltų g.', '2', '1'), 1),
    ];
    const buildingA = a.at(-2)!;
    const manager = await createUser(app, { groupId: 3, rights: [buildingA] });
    const operator = await createUser(app, { groupId: 1 });
    const quiet = await createUser(app, { groupId: 3, rights: [buildingA] });
    for (const [user, email] of [
      [manager, 'manager@example.lt'],
      [operator, 'operator@example.lt'],
      [quiet, 'quiet@example.lt'],
    ] as const) {
      await db.query('UPDATE app_user SET email = $2 WHERE id = $1', [user.id, email]);
    }
    const noMail = await createUser(app, { groupId: 3, rights: [buildingA] });
    const refused = await call(app, 'PUT', '/api/data-quality/digest', {
      token: noMail.token,
      body: { optIn: true, language: 'en' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('optIn');
    const on = await call(app, 'PUT', '/api/data-quality/digest', {
      token: manager.token,
      body: { optIn: true, language: 'en' },
    });
    expect(on.body).toMatchObject({ OptIn: true, Language: 'en', MailConfigured: true });
    await call(app, 'PUT', '/api/data-quality/digest', {
      token: operator.token,
      body: { optIn: true, language: 'lt' },
    });

    // Two silent water meters, one per building.
    const inA = await createDevice(db, { typeId: 3, locationId: a.at(-1)!, code: 'DIGEST-A' });
    const inB = await createDevice(db, { typeId: 3, locationId: b.at(-1)!, code: 'DIGEST-B' });
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
    const plain = await buildTestApp(db);
    const user = await createUser(plain, { groupId: 3 });
    const res = await call(plain, 'GET', '/api/data-quality/digest', { token: user.token });
    expect(res.body).toMatchObject({ OptIn: false, MailConfigured: false });
    await plain.close();
  });
});
