import * as contract from '@rodmenys/contract';
import { ANONYMISED, DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDeclarationNotices } from '../services/declarations/office/notices.js';
import type { Mailer } from '../services/mail/index.js';
import { anonymiseOccupancy } from '../services/personal-data/anonymise.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import {
  makeBuilding,
  makeDevice,
  makeFlat,
  makeOccupancy,
  makeReadings,
  makeSignedIn,
  type SignedIn,
} from '../test/factories.js';
import { decodeMail, mailerFor, startSmtp } from '../test/smtp.js';

/*
 * The back office's side of declared readings (docs/declared-readings.md): a declaration
 * entered for an occupant who phoned, and the review (the photo, accept, reject with a reason, the
 * occupant told by e-mail in their language).
 */

const t = useApp();
/** A 1×1 PNG, as a stored photo would be after re-encoding. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe(`declarations in the back office (${dbKind()})`, { timeout: 120_000 }, () => {
  let operator: SignedIn;
  let adminA: SignedIn;
  let adminB: SignedIn;
  let user: SignedIn;
  const id: Record<string, number> = {};
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let mailer: Mailer;

  beforeAll(async () => {
    smtp = await startSmtp();
    mailer = mailerFor(smtp.port);
    const a = await makeBuilding(t.db, { street: 'Deklaracijų g.' });
    const b = await makeBuilding(t.db, { street: 'Kita g.' });
    const flatA = await makeFlat(t.db, a, { name: '7' });
    const flatB = await makeFlat(t.db, b, { name: '1' });
    id.buildingA = a.id;
    id.buildingB = b.id;
    id.flatA = flatA.id;
    id.water = await makeDevice(t.db, flatA, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'W-PHONE' });
    id.hot = await makeDevice(t.db, flatA, { typeId: DEVICE_TYPE.hotWaterMeter, code: 'W-HOT' });
    id.radio = await makeDevice(t.db, flatA, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'W-RADIO' });
    id.other = await makeDevice(t.db, flatB, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'W-OTHER' });
    await t.db.query(`UPDATE device SET read_method = 'manual' WHERE id = ANY ($1::int[])`, [
      [id.water, id.hot, id.other],
    ]);
    await t.db.query(`UPDATE device SET read_method = 'remote' WHERE id = $1`, [id.radio]);
    await makeReadings(t.db, id.water, [['2025-09-30T12:00:00+03:00', 100]]);
    await makeReadings(t.db, id.hot, [['2025-09-30T12:00:00+03:00', 50]]);
    id.occA = await makeOccupancy(t.db, flatA, {
      name: 'Ona Deklaruojanti',
      email: 'ona@example.lt',
      language: 'en',
      consentAt: '2025-01-01',
      consentChannel: 'email',
    });
    id.occB = await makeOccupancy(t.db, flatB, { name: 'Be Sutikimo', email: 'be@example.lt', language: 'lt' });
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    adminA = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [a] });
    adminB = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [b] });
    user = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [a] });
  });
  afterAll(() => smtp.close());

  const phone = (token: string, body: Partial<contract.BodyOf<typeof contract.enterPhoneDeclaration>>) =>
    inject(t.app, contract.enterPhoneDeclaration, {
      token,
      body: { deviceId: id.water!, value: 104.5, day: '2025-10-24', callerName: 'Ona', ...body },
    });
  const monthEnd = async (deviceId: number) =>
    (
      await t.db.query<{ value: string; source: string; set_by: number | null }>(
        `SELECT value::text AS value, source, set_by FROM month_end WHERE device_id = $1 AND month = '2025-10-01'`,
        [deviceId],
      )
    ).rows[0];
  const count = async () =>
    Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM declaration')).rows[0]!.n);

  describe('POST /declarations/phone', () => {
    it('enters a declaration for the caller, audited with the user, and it counts', async () => {
      const res = await phone(adminA.token, { callerName: ' Ona Deklaruojanti ', callerPhone: '+370 600 00000' });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        DeviceId: id.water,
        DeviceCode: 'W-PHONE',
        Value: 104.5,
        Month: '2025-10',
        Channel: 'phone',
        EnteredBy: adminA.username,
        CallerName: 'Ona Deklaruojanti',
        CallerPhone: '+370 600 00000',
        OccupantName: 'Ona Deklaruojanti',
        Status: 'accepted',
        PreviousValue: 100,
        Counts: true,
      });
      expect(res.body.DeclaredAt.slice(0, 10)).toBe('2025-10-24');
      id.first = res.body.Id;
      const { rows } = await t.db.query<{ actor_username: string; after: { CallerName: string; Value: number } }>(
        `SELECT actor_username, after FROM audit_log WHERE kind = 'declaration.phone' AND entity_id = $1`,
        [String(res.body.Id)],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.actor_username).toBe(adminA.username);
      expect(rows[0]!.after).toMatchObject({ CallerName: 'Ona Deklaruojanti', Value: 104.5 });
      // It is the month's end value with source `declared`, entered by the user.
      expect(await monthEnd(id.water!)).toEqual({ value: '104.5', source: 'declared', set_by: adminA.id });
    });

    it('refuses what the occupant would be refused, naming the field, and stores nothing', async () => {
      const before = await count();
      const below = await phone(operator.token, { value: 99.9 });
      expect(below.status).toBe(400);
      expect(below.error.code).toBe('declarationBelowPrevious');
      expect(below.error.errors?.[0]?.field).toBe('value');
      // Above the plausible maximum (the previous value plus the water floor of 10): confirmation needed.
      const high = await phone(operator.token, { deviceId: id.hot!, value: 60.5 });
      expect(high.status).toBe(400);
      expect(high.error.code).toBe('declarationNeedsConfirmation');
      expect(high.error.params?.max).toBe('60');
      const future = await phone(operator.token, { day: '2199-01-01' });
      expect(future.status).toBe(400);
      expect(future.error.errors?.[0]?.field).toBe('day');
      const radio = await phone(operator.token, { deviceId: id.radio! });
      expect(radio.status).toBe(400);
      expect(radio.error.code).toBe('declarationDeviceNotDeclared');
      const noName = await phone(operator.token, { callerName: '   ' });
      expect(noName.status).toBe(400);
      expect(await count()).toBe(before);
    });

    it('a value above the plausible maximum, confirmed, is doubtful and opens an anomaly', async () => {
      const res = await phone(operator.token, { deviceId: id.hot!, value: 75, confirm: true, day: '2025-10-23' });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ Status: 'doubtful', Confirmed: true, PlausibleMax: 60, Counts: true });
      id.doubtful = res.body.Id;
      const { rows } = await t.db.query<{ evidence: Record<string, unknown> }>(
        `SELECT evidence FROM anomaly WHERE rule = 'DECLARED_DOUBTFUL' AND device_id = $1 AND state = 'open'`,
        [id.hot],
      );
      expect(rows).toHaveLength(1);
      // The same evidence as the occupant's own (one function, office/apply.ts).
      expect(Object.keys(rows[0]!.evidence).sort()).toEqual(['declarationId', 'max', 'photoId', 'previous', 'value']);
      expect(rows[0]!.evidence).toMatchObject({ declarationId: res.body.Id, value: 75, max: 60 });
    });

    it('group 3 gets 403, a device outside the scope 404, nothing stored', async () => {
      const before = await count();
      expect((await phone(user.token, {})).status).toBe(403);
      const outside = await phone(adminB.token, {});
      expect(outside.status).toBe(404);
      expect(outside.text).not.toContain('W-PHONE');
      expect(await count()).toBe(before);
    });
  });

  describe('GET /declarations, GET /declarations/:id/photo', () => {
    it('lists the month by building and status, scoped', async () => {
      const all = await inject(t.app, contract.listDeclarations, {
        token: operator.token,
        query: { month: '2025-10' },
      });
      expect(all.status, all.text).toBe(200);
      expect(all.body.Rows.map((r) => r.Id).sort()).toEqual([id.first, id.doubtful].sort());
      const doubtful = await inject(t.app, contract.listDeclarations, {
        token: adminA.token,
        query: { month: '2025-10', status: 'doubtful', buildingId: id.buildingA! },
      });
      expect(doubtful.body.Rows.map((r) => r.Id)).toEqual([id.doubtful]);
      const other = await inject(t.app, contract.listDeclarations, {
        token: adminB.token,
        query: { month: '2025-10' },
      });
      expect(other.status).toBe(200);
      expect(other.body.Rows).toEqual([]);
      expect(
        (await inject(t.app, contract.listDeclarations, { token: user.token, query: { month: '2025-10' } })).status,
      ).toBe(403);
    });

    it('serves the photo to those who see the flat, 404 to anyone else and without a photo', async () => {
      const { rows } = await t.db.query<{ id: number }>(
        `INSERT INTO declaration_photo (occupancy_id, mime, width, height, bytes) VALUES ($1, 'image/png', 1, 1, $2)
         RETURNING id`,
        [id.occA, PNG],
      );
      await t.db.query('UPDATE declaration SET photo_id = $2 WHERE id = $1', [id.doubtful, rows[0]!.id]);
      const ok = await inject(t.app, contract.getDeclarationPhoto, {
        token: adminA.token,
        params: { id: id.doubtful! },
      });
      expect(ok.status).toBe(200);
      expect(ok.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(ok.raw, PNG)).toBe(0);
      const outside = await inject(t.app, contract.getDeclarationPhoto, {
        token: adminB.token,
        params: { id: id.doubtful! },
      });
      expect(outside.status).toBe(404);
      expect(outside.raw.includes(PNG)).toBe(false);
      const none = await inject(t.app, contract.getDeclarationPhoto, {
        token: operator.token,
        params: { id: id.first! },
      });
      expect(none.status).toBe(404);
      expect(
        (await inject(t.app, contract.getDeclarationPhoto, { token: user.token, params: { id: id.doubtful! } })).status,
      ).toBe(403);
    });
  });

  describe('POST /declarations/:id/decision', () => {
    it('a rejection needs a reason', async () => {
      const res = await inject(t.app, contract.decideDeclaration, {
        token: adminA.token,
        params: { id: id.doubtful! },
        body: { accept: false, reason: '  ' },
      });
      expect(res.status).toBe(400);
      expect(res.error.errors?.[0]?.field).toBe('reason');
    });

    it('rejects a doubtful one: it stops counting, the anomaly resolves, the occupant is told in English', async () => {
      // An earlier declaration of the same month: it counts again once the doubtful one is rejected.
      const earlier = await phone(operator.token, { deviceId: id.hot!, value: 55, day: '2025-10-21' });
      expect(earlier.status, earlier.text).toBe(201);
      expect(earlier.body.Counts).toBe(false);
      const res = await inject(t.app, contract.decideDeclaration, {
        token: adminA.token,
        params: { id: id.doubtful! },
        body: { accept: false, reason: 'The photo shows 57.2' },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ Status: 'rejected', Reason: 'The photo shows 57.2', Counts: false });
      expect(res.body.DecidedBy).toBe(adminA.username);
      const list = await inject(t.app, contract.listDeclarations, {
        token: operator.token,
        query: { month: '2025-10', buildingId: id.buildingA! },
      });
      expect(list.body.Rows.find((r) => r.Id === earlier.body.Id)?.Counts).toBe(true);
      // The month end follows the declaration that counts now.
      expect((await monthEnd(id.hot!))?.value).toBe('55');
      const anomaly = await t.db.query(
        `SELECT 1 FROM anomaly WHERE rule = 'DECLARED_DOUBTFUL' AND device_id = $1 AND state <> 'resolved'`,
        [id.hot],
      );
      expect(anomaly.rows).toHaveLength(0);
      const audit = await t.db.query<{ before: { Status: string }; after: { Status: string } }>(
        `SELECT before, after FROM audit_log WHERE kind = 'declaration.decide' AND entity_id = $1`,
        [String(id.doubtful)],
      );
      expect(audit.rows[0]).toMatchObject({ before: { Status: 'doubtful' }, after: { Status: 'rejected' } });
      expect(await sendDeclarationNotices(t.db, mailer)).toEqual({ sent: 1, failed: 0 });
      const mail = decodeMail(smtp.delivered.at(-1)!.raw);
      expect(smtp.delivered.at(-1)!.to).toEqual(['ona@example.lt']);
      expect(mail).toContain('declared reading rejected');
      expect(mail).toContain('The photo shows 57.2');
      expect(mail).toContain('W-HOT');
      expect(mail).toContain('October 2025');
      // Sent once.
      expect(await sendDeclarationNotices(t.db, mailer)).toEqual({ sent: 0, failed: 0 });
    });

    it('an occupant without consent is not written to; a declaration outside the scope is 404', async () => {
      const { rows } = await t.db.query<{ id: number }>(
        `INSERT INTO declaration (device_id, occupancy_id, location_id, value, declared_at, month, channel)
         SELECT $1, $2, d.location_id, 3, '2025-10-25 10:00', '2025-10-01', 'occupant' FROM device d WHERE d.id = $1
         RETURNING id`,
        [id.other, id.occB],
      );
      const outside = await inject(t.app, contract.decideDeclaration, {
        token: adminA.token,
        params: { id: rows[0]!.id },
        body: { accept: true },
      });
      expect(outside.status).toBe(404);
      const ok = await inject(t.app, contract.decideDeclaration, {
        token: adminB.token,
        params: { id: rows[0]!.id },
        body: { accept: true },
      });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.Status).toBe('accepted');
      const sent = smtp.delivered.length;
      expect(await sendDeclarationNotices(t.db, mailer)).toEqual({ sent: 0, failed: 0 });
      expect(smtp.delivered.length).toBe(sent);
    });
  });

  it('anonymising the occupancy removes who called and where its notices went, in the log too', async () => {
    const before = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM declaration WHERE occupancy_id = $1 AND caller_phone IS NOT NULL`,
      [id.occA],
    );
    expect(before.rows[0]!.n).toBeGreaterThan(0);
    await t.db.query(`UPDATE occupancy SET move_out = '2025-11-30' WHERE id = $1`, [id.occA]);
    expect(await anonymiseOccupancy(t.db, id.occA!, new Date('2035-01-01T12:00:00Z'))).not.toBeNull();
    const left = await t.db.query<{ caller_name: string | null; caller_phone: string | null }>(
      'SELECT caller_name, caller_phone FROM declaration WHERE occupancy_id = $1 AND channel = $2',
      [id.occA, 'phone'],
    );
    expect(left.rows.length).toBeGreaterThan(0);
    for (const r of left.rows) expect(r).toEqual({ caller_name: ANONYMISED, caller_phone: null });
    const notices = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM declaration_notice WHERE occupancy_id = $1 AND email IS NOT NULL',
      [id.occA],
    );
    expect(notices.rows[0]!.n).toBe(0);
    const log = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE before::text LIKE '%600 00000%' OR after::text LIKE '%600 00000%'`,
    );
    expect(log.rows[0]!.n).toBe(0);
  });
});
