import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as contract from '@rodmenys/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffMs, deliverBillingNotices } from '../services/billing/deliver.js';
import { refreshMonthEnds } from '../services/data-quality/refresh-month-ends.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import {
  makeBuilding,
  makeDevice,
  makeFlat,
  makeReadings,
  makeSignedIn,
  type Place,
  type SignedIn,
} from '../test/factories.js';
import { dayFromToday } from '../test/months.js';

const { DEVICE_TYPE, GROUP } = contract;
const NOW = new Date('2026-11-20T10:00:00Z');
const MONTH = '2026-10';
// The test's webhook receiver listens on 127.0.0.1: allowed as an operator's internal network (services/outgoing.ts).
const t = useApp({ outgoingAllowedNetworks: ['127.0.0.0/8'] });
const outgoing = { allowedNetworks: ['127.0.0.0/8'] };

type Rows = contract.BillingRow[];

describe(`integration keys and the billing export (${dbKind()})`, () => {
  let operator: SignedIn;
  let admin: SignedIn;
  let plainUser: SignedIn;
  let a: Place;
  let b: Place;
  let flatA: Place;
  let flatB: Place;
  let hcaA: number;
  let key: string;
  let keyId: number;
  beforeAll(async () => {
    a = await makeBuilding(t.db, { city: 'Šiauliai', street: 'Vilniaus g.', number: '7' });
    b = await makeBuilding(t.db, { city: 'Šiauliai', street: 'Vilniaus g.', number: '9' });
    await t.db.query("INSERT INTO client (code, name) VALUES ('ACC-001', 'Jonas Jonaitis'), ('ACC-002', 'Ona Onaitė')");
    for (const building of [a, b]) {
      const flat = await makeFlat(t.db, building, { name: '3', order: 1 });
      await t.db.query('UPDATE location SET client_id = (SELECT id FROM client WHERE code = $2) WHERE id = $1', [
        flat.id,
        building === a ? 'ACC-001' : 'ACC-002',
      ]);
      const hca = await makeDevice(t.db, flat, {
        typeId: DEVICE_TYPE.allocator,
        ratingFactor: 1.25,
        code: building === a ? 'HCA-A' : 'HCA-B',
        installedAt: '2025-01-01T00:00:00+02:00',
      });
      await makeReadings(t.db, hca, [
        ['2026-09-30T23:00:00+03:00', 500],
        ['2026-10-31T22:00:00+02:00', 620],
      ]);
      const meter = await makeDevice(t.db, building, {
        typeId: DEVICE_TYPE.buildingHeatMeter,
        installedAt: '2025-01-01T00:00:00+02:00',
      });
      await makeReadings(t.db, meter, [
        ['2026-09-30T23:00:00+03:00', 10_000],
        ['2026-10-31T22:00:00+02:00', 11_234.567],
      ]);
      if (building === a) {
        flatA = flat;
        hcaA = hca;
      } else flatB = flat;
    }
    // Flat A's occupant: told of each version whose statements read differently (a letter: no e-mail).
    await t.db.query(
      "INSERT INTO occupancy (location_id, client_id, name) SELECT $1, id, name FROM client WHERE code = 'ACC-001'",
      [flatA.id],
    );
    await refreshMonthEnds(t.db, NOW);
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    admin = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [a] });
    plainUser = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [a] });
  }, 120_000);

  describe('POST /integrations/keys', () => {
    it('creates a key shown once, prefixed, listed without its secret, audited', async () => {
      const res = await inject(t.app, contract.createIntegrationKey, {
        token: admin.token,
        body: { name: 'Billing A', locationIds: [a.id], expiresOn: dayFromToday(365) },
      });
      expect(res.status).toBe(201);
      key = res.body.Key;
      keyId = res.body.Created.Id;
      expect(key.startsWith(contract.INTEGRATION_KEY_PREFIX)).toBe(true);
      expect(key.length).toBeGreaterThan(40);
      expect(res.body.Created).toMatchObject({ Name: 'Billing A', ReadOnly: true, RevokedAt: null });
      expect(res.body.Created.Locations.map((l) => l.Id)).toEqual([a.id]);
      const list = await inject(t.app, contract.listIntegrationKeys, { token: operator.token });
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(key);
      expect(list.body.Keys.map((k) => k.Id)).toContain(keyId);
    });

    it('refuses group 2 a location outside its scope (400 naming the field) and group 3 altogether', async () => {
      const outside = await inject(t.app, contract.createIntegrationKey, {
        token: admin.token,
        body: { name: 'B', locationIds: [b.id], expiresOn: dayFromToday(365) },
      });
      expect(outside.status).toBe(400);
      expect(outside.error.errors?.[0]?.field).toBe('locationIds');
      const user = await inject(t.app, contract.createIntegrationKey, {
        token: plainUser.token,
        body: { name: 'U', locationIds: [a.id], expiresOn: dayFromToday(365) },
      });
      expect(user.status).toBe(403);
      const expiry = await inject(t.app, contract.createIntegrationKey, {
        token: operator.token,
        body: { name: 'Old', locationIds: [a.id], expiresOn: '2020-01-01' },
      });
      expect(expiry.status).toBe(400);
      expect(expiry.error.errors?.[0]?.field).toBe('expiresOn');
      const noSuchDay = await inject(t.app, contract.createIntegrationKey, {
        token: operator.token,
        body: { name: 'Feb', locationIds: [a.id], expiresOn: `${Number(dayFromToday(0).slice(0, 4)) + 1}-02-30` },
      });
      expect(noSuchDay.status).toBe(400);
      expect(noSuchDay.error.errors?.[0]?.field).toBe('expiresOn');
    });

    it('is nowhere in the database in clear (every column of every table searched)', async () => {
      const { rows: tables } = await t.db.query<{ name: string }>(
        `SELECT quote_ident(table_name) AS name FROM information_schema.tables
          WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
      );
      expect(tables.length).toBeGreaterThan(20);
      const secret = key.slice(contract.INTEGRATION_KEY_PREFIX.length + 8);
      for (const { name } of tables) {
        const { rows } = await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${name} x WHERE strpos(x::text, $1) > 0 OR strpos(x::text, $2) > 0`,
          [key, secret],
        );
        expect(rows[0]!.n, name).toBe(0);
      }
      // The stored hash is the key's (so the search above looked at the right table).
      const { rows } = await t.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM integration_key WHERE key_hash = sha256(convert_to($1, 'UTF8'))",
        [key],
      );
      expect(rows[0]!.n).toBe(1);
    });
  });

  describe('a key as a caller', () => {
    it('reads its subtree: statement figures and its flat; another building is out of sight (404, no rows)', async () => {
      const figures = await inject(t.app, contract.getStatementFigures, { token: key, query: { month: MONTH } });
      expect(figures.status).toBe(200);
      expect(figures.body.Rows.map((r) => r.FlatId)).toEqual([flatA.id]);
      const mine = await inject(t.app, contract.getFlatStatement, {
        token: key,
        params: { flatId: flatA.id },
        query: { month: MONTH },
      });
      expect(mine.status).toBe(200);
      const theirs = await inject(t.app, contract.getFlatStatement, {
        token: key,
        params: { flatId: flatB.id },
        query: { month: MONTH },
      });
      expect(theirs.status).toBe(404);
      const other = await inject(t.app, contract.getBillingExport, {
        token: key,
        query: { month: MONTH, locationParentId: String(b.id) },
      });
      expect(other.status).toBe(200);
      expect(other.body.Rows).toEqual([]);
      expect(other.text).not.toContain('HCA-B');
      const readings = await inject(t.app, contract.getDevicesData, {
        token: key,
        query: { dateFrom: '2026-10-01', dateTill: '2026-10-31', deviceTypeId: DEVICE_TYPE.allocator },
      });
      expect(readings.status).toBe(200);
      expect(readings.text).toContain('HCA-A');
      expect(readings.text).not.toContain('HCA-B');
    });

    it('is refused every write and every other endpoint (403)', async () => {
      const publish = await inject(t.app, contract.publishStatements, { token: key, body: { month: MONTH } });
      expect(publish.status).toBe(403);
      expect(publish.error.code).toBe('integrationKeyNotAllowed');
      const notify = await inject(t.app, contract.updateStatementNotification, {
        token: key,
        body: { optIn: false, language: 'lt' },
      });
      expect(notify.status).toBe(403);
      const newKey = await inject(t.app, contract.createIntegrationKey, {
        token: key,
        body: { name: 'x', locationIds: [a.id], expiresOn: dayFromToday(30) },
      });
      expect(newKey.status).toBe(403);
      const users = await inject(t.app, contract.getAllUsers, { token: key });
      expect(users.status).toBe(403);
    });

    it('records its last use and audits every use under its name', async () => {
      const { rows } = await t.db.query<{ n: number; used: boolean }>(
        `SELECT (SELECT count(*)::int FROM audit_log WHERE kind = 'integrationKey.use' AND actor_username = 'Billing A') AS n,
                (SELECT last_used_at IS NOT NULL FROM integration_key WHERE id = $1) AS used`,
        [keyId],
      );
      expect(rows[0]!.used).toBe(true);
      expect(rows[0]!.n).toBeGreaterThanOrEqual(4);
    });

    it('fails at once when expired or revoked (401)', async () => {
      const created = await inject(t.app, contract.createIntegrationKey, {
        token: operator.token,
        body: { name: 'Short', locationIds: [a.id], expiresOn: dayFromToday(30) },
      });
      const short = created.body.Key;
      expect((await inject(t.app, contract.getBillingExport, { token: short, query: { month: MONTH } })).status).toBe(
        200,
      );
      await t.db.query("UPDATE integration_key SET expires_at = now() - interval '1 second' WHERE id = $1", [
        created.body.Created.Id,
      ]);
      const expired = await inject(t.app, contract.getBillingExport, { token: short, query: { month: MONTH } });
      expect(expired.status).toBe(401);
      expect(expired.error.code).toBe('integrationKeyUnknown');

      const other = await inject(t.app, contract.createIntegrationKey, {
        token: operator.token,
        body: { name: 'Revoked', locationIds: [a.id], expiresOn: dayFromToday(30) },
      });
      expect(
        (await inject(t.app, contract.getBillingExport, { token: other.body.Key, query: { month: MONTH } })).status,
      ).toBe(200);
      // Group 2 cannot revoke a key outside its reach (404), group 1 can.
      const bKey = await inject(t.app, contract.createIntegrationKey, {
        token: operator.token,
        body: { name: 'B key', locationIds: [b.id], expiresOn: dayFromToday(30) },
      });
      expect(
        (
          await inject(t.app, contract.revokeIntegrationKey, {
            token: admin.token,
            params: { id: bKey.body.Created.Id },
          })
        ).status,
      ).toBe(404);
      const revoked = await inject(t.app, contract.revokeIntegrationKey, {
        token: operator.token,
        params: { id: other.body.Created.Id },
      });
      expect(revoked.status).toBe(200);
      expect(revoked.body.RevokedAt).not.toBeNull();
      expect(
        (await inject(t.app, contract.getBillingExport, { token: other.body.Key, query: { month: MONTH } })).status,
      ).toBe(401);
      const forged = `${contract.INTEGRATION_KEY_PREFIX}${'x'.repeat(43)}`;
      expect((await inject(t.app, contract.getBillingExport, { token: forged, query: { month: MONTH } })).status).toBe(
        401,
      );
    });
  });

  describe('GET /billing/export', () => {
    let receiverUrl: string;
    const received: { body: string; valid: boolean }[] = [];
    const attemptsOf = new Map<string, number>();
    let secret: string;
    const server = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      const ts = String(req.headers['x-rodmenys-timestamp']);
      const sig = String(req.headers['x-rodmenys-signature']);
      const expected = `sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`;
      const valid = sig.length === expected.length && timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
      received.push({ body, valid });
      // Each notice is answered 500 twice, then 200.
      const delivery = String(req.headers['x-rodmenys-delivery']);
      const n = (attemptsOf.get(delivery) ?? 0) + 1;
      attemptsOf.set(delivery, n);
      res.statusCode = n <= 2 ? 500 : 200;
      res.end(n <= 2 ? 'busy' : 'ok');
    });
    beforeAll(async () => {
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const exportJson = (query: Record<string, string | number | boolean>) =>
      inject(t.app, contract.getBillingExport, { token: key, query: { month: MONTH, ...query } });
    const exportFile = (format: 'csv' | 'xlsx', query: Record<string, string | number | boolean> = {}) =>
      inject(t.app, contract.getBillingExportFile, { token: key, query: { month: MONTH, format, ...query } });

    it('answers a live month with every row marked live: devices, flat figures, the building line', async () => {
      const res = await exportJson({});
      expect(res.status).toBe(200);
      const rows: Rows = res.body.Rows;
      expect(rows.every((r) => r.Status === 'live' && r.Version === null)).toBe(true);
      const hca = rows.find((r) => r.Line === 'device' && r.DeviceCode === 'HCA-A')!;
      expect(hca).toMatchObject({
        FlatId: flatA.id,
        AccountCode: 'ACC-001',
        StartValue: 500,
        StartSource: 'measured',
        EndValue: 620,
        EndSource: 'measured',
        Consumption: 120,
        Units: 120,
        RatingFactor: 1.25,
        Qrad: 150,
        Partial: false,
      });
      expect(hca.StartTime).toBe('2026-09-30T23:00:00+03:00');
      const flat = rows.find((r) => r.Line === 'flat' && r.Kind === 'heating')!;
      expect(flat).toMatchObject({ Unit: 'kWh', Qrad: 150, KwhShare: 1234.567, KwhMethod: 'buildingMeterByQrad' });
      const building = rows.find((r) => r.Line === 'building')!;
      expect(building).toMatchObject({ BuildingMeterKwh: 1234.567, SubtractedKwh: 0, SharedKwh: 1234.567 });
      expect(rows.some((r) => r.BuildingId === b.id)).toBe(false);
      // The operator's export holds both buildings, each computed in one batch, in address order.
      const all = await inject(t.app, contract.getBillingExport, { token: operator.token, query: { month: MONTH } });
      const buildings = (all.body.Rows as Rows).map((r) => r.BuildingId);
      expect([...new Set(buildings)]).toEqual([a.id, b.id]);
      expect((all.body.Rows as Rows).find((r) => r.DeviceCode === 'HCA-B')).toMatchObject({
        AccountCode: 'ACC-002',
        Consumption: 120,
      });
    });

    it('freezes a published month: the same bytes every time, in JSON, CSV and XLSX; a late reading changes live only', async () => {
      const created = await inject(t.app, contract.createBillingReceiver, {
        token: operator.token,
        body: { name: 'ERP', kind: 'webhook', url: receiverUrl },
      });
      expect(created.status).toBe(201);
      secret = created.body.Secret!;
      const pub = await inject(t.app, contract.publishStatements, { token: operator.token, body: { month: MONTH } });
      expect(pub.status).toBe(200);
      const first = await exportJson({});
      expect((first.body.Rows as Rows).every((r) => r.Status === 'published' && r.Version === 1)).toBe(true);
      const csv1 = await exportFile('csv');
      const xlsx1 = await exportFile('xlsx');
      expect(csv1.status).toBe(200);
      expect(csv1.text.split('\r\n')[0]).toBe(`\uFEFF${contract.BILLING_COLUMNS.join(';')}`);
      expect(xlsx1.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(xlsx1.raw as unknown as ArrayBuffer);
      const sheet = wb.worksheets[0]!;
      expect(sheet.rowCount).toBe(first.body.Rows.length + 1);
      expect(sheet.getRow(1).values).toEqual([undefined, ...contract.BILLING_COLUMNS]);

      // A late reading: October's end value moves, the published export does not.
      await makeReadings(t.db, hcaA, [['2026-10-31T23:30:00+02:00', 640]]);
      await t.db.query("INSERT INTO dq_pending (device_id, month) VALUES ($1, '2026-10-01') ON CONFLICT DO NOTHING", [
        hcaA,
      ]);
      await refreshMonthEnds(t.db, NOW);
      await new Promise((r) => setTimeout(r, 1100)); // a second later: a time written now would differ
      const again = await exportJson({});
      expect(again.raw.equals(first.raw)).toBe(true);
      expect((await exportFile('csv')).raw.equals(csv1.raw)).toBe(true);
      expect((await exportFile('xlsx')).raw.equals(xlsx1.raw)).toBe(true);
      const live = await exportJson({ live: true });
      const liveHca = (live.body.Rows as Rows).find((r) => r.DeviceCode === 'HCA-A')!;
      expect(liveHca).toMatchObject({ Status: 'live', Version: null, EndValue: 640, Consumption: 140 });
      const frozenHca = (first.body.Rows as Rows).find((r) => r.DeviceCode === 'HCA-A')!;
      expect(frozenHca).toMatchObject({ EndValue: 620, Consumption: 120 });
    });

    it('republishes as version 2 and answers its differences to version 1', async () => {
      // The late reading moved a device's values but not the flat's kWh (the only allocator flat
      // gets all of E): the statements' figures are the same, the billing export's are not, so
      // publishing again without force is a new version of building a only.
      const pub = await inject(t.app, contract.publishStatements, {
        token: operator.token,
        body: { month: MONTH },
      });
      expect(pub.status).toBe(200);
      expect(pub.body).toMatchObject({ Republished: 1, Unchanged: 1, Changes: [] });
      const { rows: audit } = await t.db.query<{ after: Record<string, unknown> }>(
        "SELECT after FROM audit_log WHERE kind = 'statement.publish' AND entity_id = $1 ORDER BY id DESC LIMIT 1",
        [a.id],
      );
      expect(audit[0]!.after).toMatchObject({ Version: 2, ChangedFigures: 0, ChangedExport: true });
      // The occupant's statement reads as before: no second letter for version 2.
      const { rows: letters } = await t.db.query<{ version: number }>(
        'SELECT version FROM occupant_delivery WHERE building_id = $1 ORDER BY version',
        [a.id],
      );
      expect(letters.map((l) => l.version)).toEqual([1]);
      const v2 = await exportJson({});
      expect((v2.body.Rows as Rows).every((r) => r.Version === 2)).toBe(true);
      const v1 = await exportJson({ version: 1 });
      expect((v1.body.Rows as Rows).every((r) => r.Version === 1)).toBe(true);
      const diff = await exportJson({ since: 1 });
      const changed: Rows = diff.body.Rows;
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.every((r) => r.Change === 'changed' && r.Version === 2)).toBe(true);
      expect(changed.find((r) => r.Line === 'device')).toMatchObject({
        DeviceCode: 'HCA-A',
        EndValue: 640,
        Consumption: 140,
      });
      expect(changed.some((r) => r.Line === 'flat' && r.Kind === 'heating' && r.Units === 140)).toBe(true);
      // The building meter did not change, so it is not in the difference.
      expect(changed.some((r) => r.Line === 'device' && r.DeviceTypeId === DEVICE_TYPE.buildingHeatMeter)).toBe(false);
      expect((await exportJson({ version: 3 })).status).toBe(404);
    });

    it('tells the webhook receiver, signed, retrying after 500 twice: three attempts logged, one delivery', async () => {
      let now = new Date();
      for (let i = 0; i < 3; i++) {
        await deliverBillingNotices(t.db, now, { outgoing });
        now = new Date(now.getTime() + backoffMs(i + 1));
      }
      // Both publications queued a notice; the first three attempts went to the first one.
      const log = await inject(t.app, contract.listBillingDeliveries, { token: operator.token });
      expect(log.status).toBe(200);
      const first = log.body.Deliveries.find((d) => d.Version === 1)!;
      expect(first.Attempts.map((x) => x.Status)).toEqual([500, 500, 200]);
      expect(first.State).toBe('delivered');
      // The status and its reason phrase are kept, never the answer's body.
      expect(first.Attempts[0]).toMatchObject({ Reason: 'httpStatus', Response: 'Internal Server Error' });
      expect(received.length).toBeGreaterThanOrEqual(3);
      expect(received.every((r) => r.valid)).toBe(true);
      const notice = JSON.parse(received[0]!.body);
      expect(notice).toMatchObject({ event: 'statements.published', month: MONTH, version: 1 });
      expect(notice.buildings).toEqual(expect.arrayContaining([a.id, b.id]));
      // Delivered once: later runs do not send it again.
      const before = received.length;
      await deliverBillingNotices(t.db, new Date(now.getTime() + 3600_000), { outgoing });
      const after = await inject(t.app, contract.listBillingDeliveries, { token: operator.token });
      expect(after.body.Deliveries.find((d) => d.Version === 1)!.Attempts).toHaveLength(3);
      expect(received.slice(before).every((r) => JSON.parse(r.body).version === 2)).toBe(true);
    });

    it('refuses a receiver that is not http(s), naming the field; a key may not list receivers', async () => {
      const bad = await inject(t.app, contract.createBillingReceiver, {
        token: operator.token,
        body: { name: 'x', kind: 'webhook', url: 'ftp://example.com/' },
      });
      expect(bad.status).toBe(400);
      expect(bad.error.errors?.[0]?.field).toBe('url');
      expect((await inject(t.app, contract.listBillingReceivers, { token: key })).status).toBe(403);
      expect((await inject(t.app, contract.listBillingReceivers, { token: admin.token })).status).toBe(403);
    });
  });

  // Last: it adds buildings that the exports above would otherwise list.
  describe('POST /integrations/keys, a building ticked alone', () => {
    it("covers exactly the building ticked: one added to its street later is out of the key's sight", async () => {
      // A street with one building; the key ticks that building (not the street).
      const only = await makeBuilding(t.db, { city: 'Panevėžys', street: 'Architektų g.', number: '3' });
      const flat = await makeFlat(t.db, only, { name: '1', order: 1 });
      const res = await inject(t.app, contract.createIntegrationKey, {
        token: operator.token,
        body: { name: 'One building', locationIds: [only.id], expiresOn: dayFromToday(365) },
      });
      expect(res.status).toBe(201);
      expect(res.body.Created.Locations).toEqual([{ Id: only.id, Name: 'Panevėžys, Architektų g., 3' }]);
      const street = (
        await t.db.query<{ parent_id: number }>('SELECT parent_id FROM location WHERE id = $1', [only.id])
      ).rows[0]!.parent_id;
      // Built later on the same street: the same street node, a flat with an occupant-like device.
      const later = await makeBuilding(t.db, { city: 'Panevėžys', street: 'Architektų g.', number: '5' });
      expect((await t.db.query('SELECT parent_id FROM location WHERE id = $1', [later.id])).rows[0]).toEqual({
        parent_id: street,
      });
      const laterFlat = await makeFlat(t.db, later, { name: '1', order: 1 });
      await makeDevice(t.db, laterFlat, { typeId: DEVICE_TYPE.allocator, code: 'HCA-LATER' });
      await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.allocator, code: 'HCA-ONLY' });
      const figures = await inject(t.app, contract.getStatementFigures, {
        token: res.body.Key,
        query: { month: MONTH },
      });
      expect(figures.status).toBe(200);
      expect(figures.body.Rows.map((r) => r.FlatId)).toEqual([flat.id]);
      const theirs = await inject(t.app, contract.getFlatStatement, {
        token: res.body.Key,
        params: { flatId: laterFlat.id },
        query: { month: MONTH },
      });
      expect(theirs.status).toBe(404);
      const list = await inject(t.app, contract.listIntegrationKeys, { token: operator.token });
      expect(list.body.Keys.find((k) => k.Id === res.body.Created.Id)?.Locations.map((l) => l.Id)).toEqual([only.id]);
    });
  });
});
