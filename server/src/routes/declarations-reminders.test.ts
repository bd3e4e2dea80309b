import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueReminders, sendDeclarationNotices } from '../services/declarations/office/notices.js';
import type { Mailer } from '../services/mail/index.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeOccupancy, makeSignedIn, type SignedIn } from '../test/factories.js';
import { decodeMail, mailerFor, startSmtp } from '../test/smtp.js';

/*
 * The devices not declared in a window, the reminders (e-mail with consent at the window's start and
 * two days before its end, once each) and the print list for the rest (docs/declared-readings.md).
 */

const t = useApp();
const dir = mkdtempSync(path.join(tmpdir(), 'declarations-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pdfText(bytes: Uint8Array, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** An instant in the provider's zone (Vilnius: +02:00 in November). */
const at = (day: string, time = '09:00') => new Date(`${day}T${time}:00+02:00`);

describe(`not declared, reminders and the print list (${dbKind()})`, { timeout: 120_000 }, () => {
  let operator: SignedIn;
  let adminB: SignedIn;
  const id: Record<string, number> = {};
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let mailer: Mailer;

  beforeAll(async () => {
    smtp = await startSmtp();
    mailer = mailerFor(smtp.port);
    // Two buildings; flats out of order by name, so the print list's order is the address's and the flat's.
    const b2 = await makeBuilding(t.db, { street: 'Žalioji g.' });
    const b1 = await makeBuilding(t.db, { street: 'Aušros g.' });
    id.b1 = b1.id;
    id.b2 = b2.id;
    const flats = {
      a12: await makeFlat(t.db, b1, { name: '12', order: 12 }),
      a3: await makeFlat(t.db, b1, { name: '3', order: 3 }),
      z1: await makeFlat(t.db, b2, { name: '1', order: 1 }),
      mail: await makeFlat(t.db, b1, { name: '5', order: 5 }),
    };
    for (const [k, f] of Object.entries(flats)) {
      id[k] = await makeDevice(t.db, f, { typeId: DEVICE_TYPE.coldWaterMeter, code: `CW-${k.toUpperCase()}` });
    }
    id.radio = await makeDevice(t.db, flats.a3, { typeId: DEVICE_TYPE.hotWaterMeter, code: 'HW-RADIO' });
    await t.db.query(`UPDATE device SET read_method = 'manual' WHERE device_code LIKE 'CW-%'`);
    // Read by radio: never declared.
    await t.db.query(`UPDATE device SET read_method = 'remote' WHERE id = $1`, [id.radio]);
    await makeOccupancy(t.db, flats.a12, { name: 'Jonas Dvyl' });
    await makeOccupancy(t.db, flats.a3, { name: 'Trečia Tr' });
    await makeOccupancy(t.db, flats.z1, { name: 'Žana Žal' });
    id.occMail = await makeOccupancy(t.db, flats.mail, {
      name: 'Ela Elekt',
      email: 'el@example.lt',
      language: 'lt',
      consentAt: '2025-01-01',
      consentChannel: 'email',
    });
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    adminB = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [b2] });
  });
  afterAll(() => smtp.close());

  it('GET /declarations/devices: the declared devices without a declaration, by address and flat, scoped', async () => {
    const res = await inject(t.app, contract.listDeclarationDevices, {
      token: operator.token,
      query: { month: '2025-11', undeclared: true },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ Month: '2025-11', Opens: '2025-11-21', Closes: '2025-11-30' });
    expect(res.body.Rows.map((r) => r.DeviceCode)).toEqual(['CW-A3', 'CW-MAIL', 'CW-A12', 'CW-Z1']);
    expect(res.body.Rows.find((r) => r.DeviceCode === 'CW-MAIL')?.Email).toBe(true);
    const b = await inject(t.app, contract.listDeclarationDevices, {
      token: adminB.token,
      query: { month: '2025-11' },
    });
    expect(b.body.Rows.map((r) => r.DeviceCode)).toEqual(['CW-Z1']);
    // A declaration that counts takes the device off the list; a rejected one does not.
    await t.db.query(
      `INSERT INTO declaration (device_id, occupancy_id, location_id, value, declared_at, month, channel, status, reason)
       SELECT d.id, o.id, d.location_id, 5, '2025-11-22 10:00', '2025-11-01', 'occupant', s.status, s.reason
         FROM device d JOIN occupancy o ON o.location_id = d.location_id,
              (VALUES ('rejected', 'unreadable')) s (status, reason)
        WHERE d.device_code = 'CW-A12'`,
    );
    await t.db.query(
      `INSERT INTO declaration (device_id, occupancy_id, location_id, value, declared_at, month, channel)
       SELECT d.id, o.id, d.location_id, 7, '2025-11-22 10:00', '2025-11-01', 'occupant'
         FROM device d JOIN occupancy o ON o.location_id = d.location_id WHERE d.device_code = 'CW-A3'`,
    );
    const after = await inject(t.app, contract.listDeclarationDevices, {
      token: operator.token,
      query: { month: '2025-11', undeclared: true },
    });
    expect(after.body.Rows.map((r) => r.DeviceCode)).toEqual(['CW-MAIL', 'CW-A12', 'CW-Z1']);
  });

  it('reminders: at the window start, then two days before its end, each once, by e-mail with consent', async () => {
    // Before the window: nothing.
    expect(await queueReminders(t.db, at('2025-11-20', '23:59'))).toEqual({ queued: 0 });
    // The window's first day: one per undeclared device (3), e-mail for the consenting flat, print for the rest.
    expect(await queueReminders(t.db, at('2025-11-21', '00:00'))).toEqual({ queued: 3 });
    expect(await queueReminders(t.db, at('2025-11-22'))).toEqual({ queued: 0 });
    const { rows } = await t.db.query<{ kind: string; channel: string; n: number }>(
      `SELECT kind, channel, count(*)::int AS n FROM declaration_notice GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    expect(rows).toEqual([
      { kind: 'reminderStart', channel: 'email', n: 1 },
      { kind: 'reminderStart', channel: 'print', n: 2 },
    ]);
    expect(await sendDeclarationNotices(t.db, mailer)).toEqual({ sent: 1, failed: 0 });
    const start = decodeMail(smtp.delivered.at(-1)!.raw);
    expect(start).toContain('laikas deklaruoti 2025 m. lapkričio mėn. rodmenis');
    expect(start).toContain('CW-MAIL');
    expect(start).toContain('2025-11-30');
    // The consenting occupant declares; two days before the end only the others are reminded.
    await t.db.query(
      `INSERT INTO declaration (device_id, occupancy_id, location_id, value, declared_at, month, channel)
       VALUES ($1, $2, (SELECT location_id FROM device WHERE id = $1), 4, '2025-11-25 10:00', '2025-11-01', 'occupant')`,
      [id.mail, id.occMail],
    );
    expect(await queueReminders(t.db, at('2025-11-27', '23:59'))).toEqual({ queued: 0 });
    expect(await queueReminders(t.db, at('2025-11-28', '00:00'))).toEqual({ queued: 2 });
    expect(await queueReminders(t.db, at('2025-11-30', '23:59'))).toEqual({ queued: 0 });
    expect(await queueReminders(t.db, at('2025-12-01', '00:00'))).toEqual({ queued: 0 });
    expect(await sendDeclarationNotices(t.db, mailer)).toEqual({ sent: 0, failed: 0 });
    const listed = await inject(t.app, contract.listDeclarationDevices, {
      token: operator.token,
      query: { month: '2025-11', undeclared: true },
    });
    expect(listed.body.Rows.find((r) => r.DeviceCode === 'CW-Z1')?.Reminders).toEqual(['reminderEnd', 'reminderStart']);
  });

  it('GET /declarations/devices/print-list: the rest on paper, sorted by address and flat', async () => {
    for (const lang of ['lt', 'en'] as const) {
      const res = await inject(t.app, contract.getUndeclaredPrintList, {
        token: operator.token,
        query: { month: '2025-11', lang },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const text = pdfText(res.raw, `${lang}.pdf`);
      expect(text).toContain(lang === 'lt' ? 'Priminimai paštu' : 'Reminders by post');
      expect(text).toContain(lang === 'lt' ? '2025 m. lapkričio mėn.' : 'November 2025');
      const order = ['Jonas Dvyl', 'Žana Žal'].map((n) => text.indexOf(n));
      expect(order.every((i) => i >= 0)).toBe(true);
      expect(order).toEqual([...order].sort((a, b) => a - b));
      // Declared and e-mailed flats are not on it.
      expect(text).not.toContain('Trečia Tr');
      expect(text).not.toContain('Ela Elekt');
    }
    const scoped = await inject(t.app, contract.getUndeclaredPrintList, {
      token: adminB.token,
      query: { month: '2025-11', lang: 'en' },
    });
    expect(scoped.status).toBe(200);
    const text = pdfText(scoped.raw, 'scoped.pdf');
    expect(text).toContain('Žana Žal');
    expect(text).not.toContain('Jonas Dvyl');
    const empty = await inject(t.app, contract.getUndeclaredPrintList, {
      token: adminB.token,
      query: { month: '2025-11', buildingId: id.b1! },
    });
    expect(empty.status).toBe(404);
  });
});
