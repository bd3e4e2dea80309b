import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../services/auth/password.js';
import { refreshMonthEnds } from '../services/data-quality/refresh-month-ends.js';
import { MAX_ATTEMPTS, retryDelayMs, sendOccupantNotices } from '../services/deliveries/send.js';
import { Mailer } from '../services/mail/index.js';
import { hashToken } from '../services/occupant-access/secrets.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn, type SignedIn } from '../test/factories.js';
import { decodeMail, startSmtp } from '../test/smtp.js';

const NOW = new Date('2026-11-20T10:00:00Z');
/**
 * When the job runs in these tests: a little after the real clock, since a publication queues its
 * notices due at the database's now().
 */
const T0 = new Date(Math.ceil(Date.now() / 1000) * 1000 + 10 * 60_000);
const MONTH = '2026-10';
const BASE = 'https://rodmenys.example.lt';
const t = useApp();
const dir = mkdtempSync(path.join(tmpdir(), 'deliveries-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The text of a PDF as poppler's pdftotext extracts it. */
function pdfText(bytes: Uint8Array, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** A mailer that talks to a (real, test) SMTP server on `port`. */
const mailerOn = (port: number) =>
  new Mailer(
    nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, connectionTimeout: 5_000 }),
    'rodmenys@example.lt',
    BASE,
  );

interface Occupant {
  name: string;
  email?: string;
  consent?: boolean;
  language?: 'lt' | 'en';
  moveIn?: string;
  moveOut?: string;
}

// Letter codes are hashed with scrypt and PDFs drawn: slow on a busy machine.
describe(`occupant delivery on publication: notices, log, print list (${dbKind()})`, { timeout: 120_000 }, () => {
  let operator: SignedIn;
  let admin: SignedIn;
  let user: SignedIn;
  let buildingA: number;
  let buildingB: number;
  const occ: Record<string, number> = {};
  const flatIdOf: Record<string, number> = {};

  /** A flat with a hot-water meter counting in October 2026 and its occupants. */
  async function flatWith(building: Awaited<ReturnType<typeof makeBuilding>>, flat: string, occupants: Occupant[]) {
    const f = await makeFlat(t.db, building, { name: flat, order: Number(flat) });
    const meter = await makeDevice(t.db, f, {
      typeId: DEVICE_TYPE.hotWaterMeter,
      installedAt: '2025-01-01T00:00:00+02:00',
    });
    await makeReadings(t.db, meter, [
      ['2026-09-30T23:00:00+03:00', 40],
      ['2026-10-31T22:00:00+02:00', 43.125],
    ]);
    for (const o of occupants) {
      const { rows } = await t.db.query<{ id: number }>(
        `WITH c AS (INSERT INTO client (code, name) VALUES ($1, $2) RETURNING id)
         INSERT INTO occupancy (location_id, client_id, name, email, language, move_in, move_out, consent_at, consent_channel)
         SELECT $3, c.id, $2, $4, $5, $6::date, $7::date, $8::date, $9 FROM c RETURNING id`,
        [
          `ACC-${o.name}`,
          o.name,
          f.id,
          o.email ?? null,
          o.language ?? null,
          o.moveIn ?? null,
          o.moveOut ?? null,
          o.consent ? '2026-01-05' : null,
          o.consent ? 'paper' : null,
        ],
      );
      occ[o.name] = rows[0]!.id;
      flatIdOf[o.name] = f.id;
    }
  }

  beforeAll(async () => {
    const a = await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: '7' });
    const b = await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: '9' });
    buildingA = a.id;
    buildingB = b.id;
    await flatWith(a, '1', [{ name: 'Ona Onaitė', email: 'ona@example.lt', consent: true, language: 'lt' }]);
    await flatWith(a, '2', [{ name: 'John Smith', email: 'john@example.com', consent: true, language: 'en' }]);
    // An address but no consent: a letter.
    await flatWith(a, '3', [{ name: 'Petras Petraitis', email: 'petras@example.lt', language: 'lt' }]);
    // A move on 15 October: the leaver has no address (a letter), the newcomer consents (an e-mail).
    await flatWith(a, '4', [
      { name: 'Senas Gyventojas', moveOut: '2026-10-15', language: 'lt' },
      { name: 'Jane New', email: 'jane@example.com', consent: true, language: 'en', moveIn: '2026-10-15' },
    ]);
    await flatWith(b, '1', [{ name: 'Bob Other', email: 'bob@example.com', consent: true, language: 'en' }]);
    await refreshMonthEnds(t.db, NOW);
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    admin = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [a] });
    user = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [a] });
    const published = await inject(t.app, contract.publishStatements, {
      body: { month: MONTH, locationIds: [buildingA, buildingB] },
      token: operator.token,
    });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ Buildings: 2, Flats: 5 });
  }, 120_000);

  it('queues an e-mail for each occupant with an address and consent, a letter for every other', async () => {
    const { rows } = await t.db.query<{ occupancy_id: number; channel: string; status: string; email: string | null }>(
      'SELECT occupancy_id, channel, status, email FROM occupant_delivery ORDER BY occupancy_id',
    );
    const byName = (name: string) => rows.find((r) => r.occupancy_id === occ[name]);
    expect(rows).toHaveLength(6);
    for (const name of ['Ona Onaitė', 'John Smith', 'Jane New', 'Bob Other'])
      expect(byName(name)).toMatchObject({ channel: 'email', status: 'queued' });
    for (const name of ['Petras Petraitis', 'Senas Gyventojas'])
      expect(byName(name)).toMatchObject({ channel: 'print', status: 'queued', email: null });
  });

  it('sends exactly one notice per consenting occupant, in their language, with their link and no attachment', async () => {
    const smtp = await startSmtp();
    try {
      const result = await sendOccupantNotices(t.db, T0, mailerOn(smtp.port));
      expect(result).toEqual({ sent: 4, failed: 0, gaveUp: 0 });
      expect(smtp.delivered.map((d) => d.to[0]).sort()).toEqual([
        'bob@example.com',
        'jane@example.com',
        'john@example.com',
        'ona@example.lt',
      ]);
      const mailTo = (to: string) => decodeMail(smtp.delivered.find((d) => d.to[0] === to)!.raw);
      const ona = mailTo('ona@example.lt');
      expect(ona).toContain('Rodmenys: jūsų 2026 m. spalio mėn. suvartojimo informacija');
      expect(ona).toContain('Kaunas, Laisvės al. 7, 1');
      expect(ona).toMatch(new RegExp(`${BASE}/occupant/open#[A-Za-z0-9_-]{43}`));
      const john = mailTo('john@example.com');
      expect(john).toContain('Rodmenys: your consumption information for October 2026');
      expect(john).toContain('you agreed to electronic delivery');
      // Each notice has its own freshly issued link.
      const links = smtp.delivered.map((d) => decodeMail(d.raw).match(/\/occupant\/open#([A-Za-z0-9_-]+)/)?.[1]);
      expect(new Set(links).size).toBe(4);
      // Each link is its recipient's occupancy's (stored hashed only).
      for (const [i, d] of smtp.delivered.entries()) {
        const { rows } = await t.db.query<{ occupancy_id: number }>(
          'SELECT occupancy_id FROM occupant_link WHERE token_hash = $1',
          [hashToken(links[i]!)],
        );
        const owner = {
          'ona@example.lt': 'Ona Onaitė',
          'john@example.com': 'John Smith',
          'jane@example.com': 'Jane New',
          'bob@example.com': 'Bob Other',
        }[d.to[0]!]!;
        expect(rows).toEqual([{ occupancy_id: occ[owner] }]);
      }
      // The link works: exchanged on the occupant's sign-in, it opens their own occupancy.
      const session = await inject(t.app, contract.signInOccupantByLink, { body: { token: links[0]! } });
      expect(session.status).toBe(201);
      const profile = await t.app.inject({
        method: 'GET',
        url: '/api/occupant/profile',
        headers: { authorization: `Bearer ${session.body.Token}` },
      });
      expect(profile.statusCode).toBe(200);
      expect(profile.json().Name).toBe(
        {
          'ona@example.lt': 'Ona Onaitė',
          'john@example.com': 'John Smith',
          'jane@example.com': 'Jane New',
          'bob@example.com': 'Bob Other',
        }[smtp.delivered[0]!.to[0]!],
      );
      const months = await t.app.inject({
        method: 'GET',
        url: '/api/occupant/months',
        headers: { authorization: `Bearer ${session.body.Token}` },
      });
      expect(months.json().map((m: { Month: string }) => m.Month)).toEqual([MONTH]);
      // No attachment: a single text part.
      for (const d of smtp.delivered) {
        expect(d.raw).not.toMatch(/Content-Disposition: attachment/i);
        expect(d.raw).not.toMatch(/application\/pdf/i);
      }
      // Nothing is due any more: a second run sends nothing.
      expect(await sendOccupantNotices(t.db, new Date(T0.getTime() + 3_600_000), mailerOn(smtp.port))).toEqual({
        sent: 0,
        failed: 0,
        gaveUp: 0,
      });
      expect(smtp.delivered).toHaveLength(4);
    } finally {
      await smtp.close();
    }
  });

  it('logs every delivery: group 1 all buildings, group 2 its own, group 3 nothing', async () => {
    const all = await inject(t.app, contract.listOccupantDeliveries, {
      query: { month: MONTH },
      token: operator.token,
    });
    expect(all.status).toBe(200);
    expect(all.body.Buildings.map((b) => b.BuildingId)).toEqual([buildingA, buildingB]);
    const a = all.body.Buildings[0]!;
    expect(a).toMatchObject({ Address: 'Kaunas Laisvės al. 7', Sent: 3, Queued: 2, Failed: 0, Printed: 0, Letters: 2 });
    expect(a.Deliveries.map((d) => [d.Flat, d.Name, d.Channel, d.Status])).toEqual([
      ['1', 'Ona Onaitė', 'email', 'sent'],
      ['2', 'John Smith', 'email', 'sent'],
      ['3', 'Petras Petraitis', 'print', 'queued'],
      ['4', 'Senas Gyventojas', 'print', 'queued'],
      ['4', 'Jane New', 'email', 'sent'],
    ]);
    expect(a.Deliveries[0]).toMatchObject({ Attempts: 1, Error: null, NextAttemptAt: null, Language: 'lt' });
    expect(a.Deliveries[0]!.SentAt).not.toBeNull();

    const mine = await inject(t.app, contract.listOccupantDeliveries, { query: { month: MONTH }, token: admin.token });
    expect(mine.status).toBe(200);
    expect(mine.body.Buildings.map((b) => b.BuildingId)).toEqual([buildingA]);
    // Narrowing to building B leaves group 2 nothing: B is outside its scope.
    const narrowed = await inject(t.app, contract.listOccupantDeliveries, {
      query: { month: MONTH, locationParentId: String(buildingB) },
      token: admin.token,
    });
    expect(narrowed.body.Buildings).toEqual([]);
    const denied = await inject(t.app, contract.listOccupantDeliveries, { query: { month: MONTH }, token: user.token });
    expect(denied.status).toBe(403);
    expect(denied.error?.code).toBe('deliveriesAdminsOnly');
    const bad = await inject(t.app, contract.listOccupantDeliveries, {
      query: { month: '2026-13' },
      token: operator.token,
    });
    expect(bad.status).toBe(400);
  });

  it('logs a failure with the reason when the SMTP server is down, and a later retry sends it', async () => {
    // A new version of building B: Bob is told again ("corrected").
    const again = await inject(t.app, contract.publishStatements, {
      body: { month: MONTH, locationIds: [buildingB], force: true },
      token: operator.token,
    });
    expect(again.body).toMatchObject({ Buildings: 1, Republished: 1 });
    const down = await startSmtp();
    await down.close();
    expect(await sendOccupantNotices(t.db, T0, mailerOn(down.port))).toEqual({ sent: 0, failed: 1, gaveUp: 0 });
    const log = await inject(t.app, contract.listOccupantDeliveries, {
      query: { month: MONTH, locationParentId: String(buildingB) },
      token: operator.token,
    });
    const failed = log.body.Buildings[0]!.Deliveries[0]!;
    expect(failed).toMatchObject({ Version: 2, Name: 'Bob Other', Status: 'failed', Attempts: 1, GivenUp: false });
    expect(failed.Error).toMatch(/ECONNREFUSED/);
    expect(Date.parse(failed.NextAttemptAt!)).toBe(T0.getTime() + retryDelayMs(1));

    const smtp = await startSmtp();
    try {
      // Not due yet: the backoff holds it back.
      expect(await sendOccupantNotices(t.db, new Date(T0.getTime() + 30_000), mailerOn(smtp.port))).toEqual({
        sent: 0,
        failed: 0,
        gaveUp: 0,
      });
      const later = new Date(T0.getTime() + retryDelayMs(1));
      expect(await sendOccupantNotices(t.db, later, mailerOn(smtp.port))).toEqual({ sent: 1, failed: 0, gaveUp: 0 });
      expect(smtp.delivered.map((d) => d.to)).toEqual([['bob@example.com']]);
      expect(decodeMail(smtp.delivered[0]!.raw)).toContain(
        'Rodmenys: corrected consumption information for October 2026',
      );
    } finally {
      await smtp.close();
    }
    const after = await inject(t.app, contract.listOccupantDeliveries, {
      query: { month: MONTH, locationParentId: String(buildingB) },
      token: operator.token,
    });
    expect(after.body.Buildings[0]!.Deliveries[0]).toMatchObject({ Status: 'sent', Attempts: 2, Error: null });
  });

  it('gives up after the last attempt, and says so without a mail server', async () => {
    const again = await inject(t.app, contract.publishStatements, {
      body: { month: MONTH, locationIds: [buildingB], force: true },
      token: operator.token,
    });
    expect(again.body).toMatchObject({ Buildings: 1 });
    expect(await sendOccupantNotices(t.db, T0, undefined)).toEqual({ sent: 0, failed: 1, gaveUp: 0 });
    await t.db.query(`UPDATE occupant_delivery SET attempts = $1 WHERE version = 3 AND building_id = $2`, [
      MAX_ATTEMPTS - 1,
      buildingB,
    ]);
    const late = new Date(T0.getTime() + 24 * 3_600_000);
    expect(await sendOccupantNotices(t.db, late, undefined)).toEqual({ sent: 0, failed: 0, gaveUp: 1 });
    const log = await inject(t.app, contract.listOccupantDeliveries, {
      query: { month: MONTH, locationParentId: String(buildingB) },
      token: operator.token,
    });
    expect(log.body.MailConfigured).toBe(false);
    expect(log.body.Buildings[0]!.Deliveries[0]).toMatchObject({
      Version: 3,
      Status: 'failed',
      Attempts: MAX_ATTEMPTS,
      GivenUp: true,
      NextAttemptAt: null,
      Error: 'SMTP_URL is not set',
    });
    // Given up: the print list takes it, a letter in the occupant's language.
    expect(log.body.Buildings[0]).toMatchObject({ Letters: 1 });
    const letter = await t.app.inject({
      method: 'GET',
      url: `/api/deliveries/print/${buildingB}?month=${MONTH}&lang=lt`,
      headers: { authorization: `Bearer ${operator.token}` },
    });
    expect(letter.statusCode).toBe(200);
    const text = pdfText(letter.rawPayload, 'given-up.pdf');
    expect(text).toContain('Bob Other');
    expect(text).toContain('Your monthly consumption information');
    expect(text).toMatch(/http:\/\/127\.0\.0\.1:0\/occupant\?lang=en\s/);
    expect(text.match(/This code replaces any code sent to you before/g)).toHaveLength(1);
    // Given up: never tried again.
    expect(await sendOccupantNotices(t.db, new Date(late.getTime() + 86_400_000), undefined)).toEqual({
      sent: 0,
      failed: 0,
      gaveUp: 0,
    });
  });

  it('prints one letter per occupant without e-mail or consent, with a new code each time, and marks them printed', async () => {
    const url = `/api/deliveries/print/${buildingA}?month=${MONTH}&lang=en`;
    for (const token of [admin.token, user.token]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(403);
    }
    const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${operator.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="letters-2026-10-Kaunas-Laisves-al-7.pdf"');
    const text = pdfText(res.rawPayload, 'letters.pdf');
    // Both letters are in Lithuanian (the occupants' language), one each.
    expect(text.match(/Jūsų mėnesio suvartojimo informacija/g)).toHaveLength(2);
    expect(text.match(/Šis kodas pakeičia anksčiau jums siųstą kodą/g)).toHaveLength(2);
    expect(text).toContain('Petras Petraitis');
    expect(text).toContain('Senas Gyventojas');
    // The code page at the server's own address (no PUBLIC_URL in the test configuration), opening in the
    // occupancy's language.
    expect(text.match(/http:\/\/127\.0\.0\.1:0\/occupant\?lang=lt\s/g)).toHaveLength(2);
    expect(text).not.toContain('Ona Onaitė');
    expect(text).not.toContain('John Smith');
    expect(text).not.toContain('Jane New');
    // The leaver's page is their own part of the month, never the flat's whole history.
    expect(text).toContain('Gyventojas: Senas Gyventojas');
    expect(text).not.toContain('Preliminari');
    expect(text.match(/Paskelbta \(versija 1\)/g)).toHaveLength(2);
    // Petras's statement is the flat's page (he lived there all along).
    expect(text).toContain('Mėnesio suvartojimo ataskaita');
    const codes = (t: string) =>
      [...t.matchAll(/šį kodą:\s*\n\s*([0-9A-Z]{5})\s*-\s*([0-9A-Z]{5})/g)].map((m) => `${m[1]}${m[2]}`);
    const first = codes(text);
    expect(first).toHaveLength(2);

    const log = await inject(t.app, contract.listOccupantDeliveries, {
      query: { month: MONTH, locationParentId: String(buildingA) },
      token: operator.token,
    });
    const letters = log.body.Buildings[0]!.Deliveries.filter((d) => d.Channel === 'print');
    expect(letters.map((d) => d.Status)).toEqual(['printed', 'printed']);
    expect(log.body.Buildings[0]!.Printed).toBe(2);

    // A reprint: new codes that replace the old ones.
    const lt = await t.app.inject({
      method: 'GET',
      url: `/api/deliveries/print/${buildingA}?month=${MONTH}&lang=lt`,
      headers: { authorization: `Bearer ${operator.token}` },
    });
    expect(lt.headers['content-disposition']).toBe('attachment; filename="laiskai-2026-10-Kaunas-Laisves-al-7.pdf"');
    const second = codes(pdfText(lt.rawPayload, 'again.pdf'));
    expect(second).toHaveLength(2);
    expect(second).not.toEqual(first);
    // The reprint's code is the one that works now; the first letter's code is revoked.
    const { rows: stored } = await t.db.query<{ code_hash: string; revoked: boolean }>(
      'SELECT code_hash, revoked_at IS NOT NULL AS revoked FROM occupant_letter_code WHERE occupancy_id = $1 ORDER BY id',
      [occ['Petras Petraitis']],
    );
    expect(stored.map((r) => r.revoked)).toEqual([true, false]);
    expect(await verifyPassword(second[0]!, stored[1]!.code_hash)).toBe(true);
    expect(await verifyPassword(first[0]!, stored[1]!.code_hash)).toBe(false);
    // On the code page: the reprint's code opens Petras's pages, the first letter's no longer does.
    const byCode = (code: string) =>
      inject(t.app, contract.signInOccupantByCode, { body: { flat: flatIdOf['Petras Petraitis']!, code } });
    expect((await byCode(first[0]!)).status).toBe(401);
    expect((await byCode(second[0]!)).status).toBe(201);
    // The letter names the number the code page asks for: the flat's id.
    expect(text).toContain(`numerį ${flatIdOf['Petras Petraitis']} (jūsų buto numeris mūsų sistemoje)`);
    const { rows: audit } = await t.db.query<{ after: { Letters: number } }>(
      "SELECT after FROM audit_log WHERE kind = 'printList.download' AND entity_id = $1",
      [String(buildingA)],
    );
    expect(audit.map((r) => r.after.Letters)).toEqual([2, 2]);
  });

  it('answers 404 for a building without letters and 400 for a bad month', async () => {
    const unpublished = await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: '11' });
    const none = await inject(t.app, contract.getPrintList, {
      params: { buildingId: unpublished.id },
      query: { month: MONTH },
      token: operator.token,
    });
    expect(none.status).toBe(404);
    expect(none.error?.code).toBe('printListEmpty');
    const bad = await inject(t.app, contract.getPrintList, {
      params: { buildingId: buildingA },
      query: { month: 'x' },
      token: operator.token,
    });
    expect(bad.status).toBe(400);
  });
});
