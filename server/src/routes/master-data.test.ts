import type { AuditEntry, DeviceRow, Endpoint, ReadingRow } from '@rodmenys/contract';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import {
  lastSeenMismatches,
  makeBuilding,
  makeDevice,
  makeFlat,
  makeReadings,
  makeSignedIn,
} from '../test/factories.js';

// Editing, replacement and the audit log. Replacement arithmetic is checked
// through GetDevicesData against values worked out by hand. Europe/Vilnius:
// UTC+2 in winter, UTC+3 from 2026-03-29 03:00 local.
describe(`master data editing (${dbKind()})`, () => {
  const t = useApp();
  let operator: { id: number; token: string; username: string };
  let admin: string;
  let user: string;
  let building: number;
  let flat: number;
  let flat2: number;

  beforeAll(async () => {
    const place = await makeBuilding(t.db, { city: 'Vilnius', street: 'Gedimino pr.', number: '12' });
    building = place.id;
    flat = (await makeFlat(t.db, place, { name: '1', order: 1 })).id;
    flat2 = (await makeFlat(t.db, place, { name: '2', order: 2 })).id;
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator, username: 'operatorius' });
    admin = (await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [building] })).token;
    user = (await makeSignedIn(t.app, { groupId: GROUP.user, rights: [building] })).token;
  }, 120_000);

  const readings = async (from: string, till: string, type: number) => {
    const res = await inject(t.app, contract.getDevicesData, {
      query: `dateFrom=${from}&dateTill=${till}&deviceTypeId=${type}`,
      token: operator.token,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return Object.fromEntries((res.body as ReadingRow[]).map((r) => [r.DeviceCode, r]));
  };

  describe('POST /api/masterData/devices/:id/replace', () => {
    let a: number;
    let b: number;
    let c: number;

    beforeAll(async () => {
      a = await makeDevice(t.db, flat, {
        typeId: DEVICE_TYPE.coldWaterMeter,
        code: 'W-A',
        installedAt: '2025-01-01T00:00:00+02:00',
      });
      await makeReadings(t.db, a, [
        ['2026-01-31T12:00:00+02:00', 100],
        ['2026-02-10T08:00:00+02:00', 103],
      ]);
      // First replacement, local time without an offset (the provider zone).
      const first = await inject(t.app, contract.replaceDevice, {
        params: { id: a },
        token: operator.token,
        body: {
          replacedAt: '2026-02-12T10:00',
          finalReading: 104.5,
          newDeviceCode: 'W-B',
          initialReading: 0.2,
        },
      });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      b = (first.body.New as DeviceRow).DeviceId;
      await makeReadings(t.db, b, [['2026-02-20T10:00:00+02:00', 1.2]]);
      // Second replacement in the same month.
      const second = await inject(t.app, contract.replaceDevice, {
        params: { id: b },
        token: operator.token,
        body: {
          replacedAt: '2026-02-22T09:00:00+02:00',
          finalReading: 1.5,
          newDeviceCode: 'W-C',
          initialReading: 0,
        },
      });
      expect(second.status, JSON.stringify(second.body)).toBe(201);
      c = (second.body.New as DeviceRow).DeviceId;
      await makeReadings(t.db, b, [['2026-02-28T20:00:00+02:00', 2.0]]); // a late telegram of the removed W-B
      await makeReadings(t.db, c, [['2026-02-27T12:00:00+02:00', 0.7]]);
    });

    it('links the devices and stores both readings at the replacement time', async () => {
      const rows = await inject(t.app, contract.getLocation, { params: { id: flat }, token: operator.token });
      const devices = Object.fromEntries((rows.body.Devices as DeviceRow[]).map((d) => [d.DeviceCode, d]));
      expect(devices['W-A']).toMatchObject({ RemovedAt: '2026-02-12T10:00:00+02:00', ReplacedBy: b });
      expect(devices['W-B']).toMatchObject({
        InstalledAt: '2026-02-12T10:00:00+02:00',
        RemovedAt: '2026-02-22T09:00:00+02:00',
        Replaces: a,
        ReplacedBy: c,
        DeviceTypeId: DEVICE_TYPE.coldWaterMeter,
        LocationId: flat,
      });
      expect(devices['W-C']).toMatchObject({ Replaces: b, ReplacedBy: null, RemovedAt: null });
      const { rows: stored } = await t.db.query<{ device_id: number; v: number }>(
        `SELECT device_id, value::float8 AS v FROM reading WHERE ts = '2026-02-12T10:00:00+02:00' ORDER BY device_id`,
      );
      expect(stored).toEqual([
        { device_id: a, v: 104.5 },
        { device_id: b, v: 0.2 },
      ]);
    });

    it('a period with two replacements: each device its own difference, the flat the real consumption', async () => {
      const rows = await readings('2026-02-01', '2026-02-28', 3);
      // W-A: 100 (latest at or before Feb 1) → 104.5 (final) = 4.5
      expect(rows['W-A']).toMatchObject({ VolumeFrom: 100, VolumeTill: 104.5, Difference: 4.5, Flags: [] });
      // W-B: 0.2 (initial) → 1.5 (final); the late 2.0 after its removal does not count.
      expect(rows['W-B']!.VolumeFrom).toBe(0.2);
      expect(rows['W-B']!.VolumeTill).toBe(1.5);
      expect(rows['W-B']!.Difference).toBeCloseTo(1.3, 10);
      expect(rows['W-B']!.Flags).toEqual([]);
      // W-C: 0 → 0.7.
      expect(rows['W-C']).toMatchObject({ VolumeFrom: 0, VolumeTill: 0.7, Difference: 0.7, Flags: [] });
      // 4.5 + 1.3 + 0.7
      for (const code of ['W-A', 'W-B', 'W-C']) expect(rows[code]!.FlatDifference).toBeCloseTo(6.5, 10);
    });

    it('a period before the replacements shows only the old device; one after them only the newest', async () => {
      const january = await readings('2026-01-01', '2026-01-31', 3);
      expect(Object.keys(january)).toEqual(['W-A']);
      // No reading at or before Jan 1: the first inside (100) is the start and the end.
      expect(january['W-A']).toMatchObject({ VolumeFrom: 100, VolumeTill: 100, Difference: 0 });
      const march = await readings('2026-03-01', '2026-03-31', 3);
      expect(Object.keys(march)).toEqual(['W-C']);
      expect(march['W-C']).toMatchObject({ VolumeFrom: 0.7, VolumeTill: 0.7, Difference: 0 });
    });

    it('a replacement on the spring DST day (a 23-hour day)', async () => {
      const old = await makeDevice(t.db, flat2, { typeId: DEVICE_TYPE.heatMeter, code: 'E-OLD' });
      await makeReadings(t.db, old, [['2026-03-28T12:00:00+02:00', 500]]);
      // 23:30 local on the 29th is +03:00 (20:30Z).
      const res = await inject(t.app, contract.replaceDevice, {
        params: { id: old },
        token: operator.token,
        body: {
          replacedAt: '2026-03-29T23:30',
          finalReading: 510,
          newDeviceCode: 'E-NEW',
          initialReading: 0,
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.New.InstalledAt).toBe('2026-03-29T23:30:00+03:00');
      await makeReadings(t.db, res.body.New.DeviceId, [['2026-03-29T21:30:00Z', 5]]); // 00:30 on the 30th
      const day = await readings('2026-03-29', '2026-03-29', 2);
      // E-OLD: 500 → 510; E-NEW: 0 → 0 (its 5 is on the next day); the flat 10.
      expect(day['E-OLD']).toMatchObject({ EnergyFrom: 500, EnergyTill: 510, Difference: 10, Flags: [] });
      expect(day['E-NEW']).toMatchObject({ EnergyFrom: 0, EnergyTill: 0, Difference: 0, FlatDifference: 10 });
      const next = await readings('2026-03-30', '2026-03-30', 2);
      expect(Object.keys(next)).toEqual(['E-NEW']);
      expect(next['E-NEW']).toMatchObject({ EnergyFrom: 0, EnergyTill: 5, Difference: 5 });
    });

    it('refuses a used serial (409), a removed device, a time before installation or in the future (400)', async () => {
      const body = { replacedAt: '2026-03-01T10:00', finalReading: 1, initialReading: 0 };
      const used = await inject(t.app, contract.replaceDevice, {
        params: { id: c },
        token: operator.token,
        body: { ...body, newDeviceCode: 'W-A' },
      });
      expect(used.status).toBe(409);
      expect(used.error.message).toContain('W-A');
      const removed = await inject(t.app, contract.replaceDevice, {
        params: { id: a },
        token: operator.token,
        body: { ...body, newDeviceCode: 'W-Z' },
      });
      expect(removed.status).toBe(400);
      expect(removed.error.message).toMatch(/already removed/);
      const early = await inject(t.app, contract.replaceDevice, {
        params: { id: c },
        token: operator.token,
        body: {
          ...body,
          replacedAt: '2026-02-01T00:00',
          newDeviceCode: 'W-Z',
        },
      });
      expect(early.status).toBe(400);
      expect(early.error.errors![0]!.field).toBe('replacedAt');
      const future = await inject(t.app, contract.replaceDevice, {
        params: { id: c },
        token: operator.token,
        body: {
          ...body,
          replacedAt: '2099-01-01T00:00',
          newDeviceCode: 'W-Z',
        },
      });
      expect(future.status).toBe(400);
      const invalid = await inject(t.app, contract.replaceDevice, {
        params: { id: c },
        token: operator.token,
        body: {
          ...body,
          replacedAt: '2026-02-30T10:00',
          newDeviceCode: 'W-Z',
        },
      });
      expect(invalid.status).toBe(400);
      const negative = await inject(t.app, contract.replaceDevice, {
        params: { id: c },
        token: operator.token,
        body: {
          ...body,
          finalReading: -1,
          newDeviceCode: 'W-Z',
        },
      });
      expect(negative.status).toBe(400);
      expect(
        (
          await inject(t.app, contract.replaceDevice, {
            params: { id: 999999 },
            token: operator.token,
            body: { ...body, newDeviceCode: 'W-Z' },
          })
        ).status,
      ).toBe(404);
      // Nothing of the refused attempts stayed.
      const { rowCount } = await t.db.query(`SELECT 1 FROM device WHERE device_code = 'W-Z'`);
      expect(rowCount).toBe(0);
    });
  });

  describe('POST /api/masterData/devices and PUT /api/masterData/devices/:id and /remove', () => {
    it('adds a device with its initial reading, changes it, removes it with its final reading', async () => {
      const added = await inject(t.app, contract.addDevice, {
        token: operator.token,
        body: {
          locationId: flat,
          deviceTypeId: DEVICE_TYPE.allocator,
          deviceCode: 'HCA-NEW',
          description: 'Kambarys 3',
          ratingFactor: 1.2,
          installedAt: '2026-01-15T08:00',
          initialReading: 3,
        },
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      expect(added.body).toMatchObject({
        DeviceCode: 'HCA-NEW',
        RatingFactor: 1.2,
        InstalledAt: '2026-01-15T08:00:00+02:00',
      });
      const id = added.body.DeviceId as number;
      const changed = await inject(t.app, contract.updateDevice, {
        params: { id },
        token: operator.token,
        body: { description: 'Svetainė', ratingFactor: 0.95 },
      });
      expect(changed.body).toMatchObject({ DeviceDescription: 'Svetainė', RatingFactor: 0.95, CounterCode: null });
      const removed = await inject(t.app, contract.removeDevice, {
        params: { id },
        token: operator.token,
        body: {
          removedAt: '2026-02-01T12:00',
          finalReading: 13,
        },
      });
      expect(removed.status).toBe(200);
      expect(removed.body.RemovedAt).toBe('2026-02-01T12:00:00+02:00');
      // January: 3 (initial) → 13 (final) = 10 units, 9.5 Qrad; February 1: until the removal, not flagged.
      const jan = await readings('2026-01-01', '2026-01-31', 1);
      expect(jan['HCA-NEW']).toMatchObject({ UnitsForHCAFrom: 3, UnitsForHCATill: 3, Difference: 0 });
      const feb = await readings('2026-02-01', '2026-02-28', 1);
      expect(feb['HCA-NEW']).toMatchObject({ UnitsForHCAFrom: 3, UnitsForHCATill: 13, Difference: 10, Flags: [] });
      expect(feb['HCA-NEW']!.DifferenceQrad).toBeCloseTo(9.5, 10);
      const again = await inject(t.app, contract.removeDevice, {
        params: { id },
        token: operator.token,
        body: {
          removedAt: '2026-02-02T12:00',
          finalReading: 14,
        },
      });
      expect(again.status).toBe(400);
    });

    it("sets a device's model (trimmed, any text, at most 100 characters), audited, shown on its location", async () => {
      const added = await inject(t.app, contract.addDevice, {
        token: operator.token,
        body: {
          locationId: flat2,
          deviceTypeId: DEVICE_TYPE.allocator,
          deviceCode: 'HCA-MODEL',
          installedAt: '2026-01-15T08:00',
          model: '  Q caloric 5.5 ',
        },
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      expect(added.body.Model).toBe('Q caloric 5.5');
      const id = added.body.DeviceId;
      const created = await t.db.query<{ after: { Model: string } }>(
        "SELECT after FROM audit_log WHERE kind = 'device.create' AND entity_id = $1",
        [String(id)],
      );
      expect(created.rows[0]?.after.Model).toBe('Q caloric 5.5');

      const tooLong = await inject(t.app, contract.updateDevice, {
        params: { id },
        token: operator.token,
        body: { model: 'M'.repeat(contract.DEVICE_MODEL_MAX_LENGTH + 1) },
      });
      expect(tooLong.status).toBe(400);
      expect(JSON.stringify(tooLong.body)).toContain('model');
      const tooLongNew = await inject(t.app, contract.addDevice, {
        token: operator.token,
        body: {
          locationId: flat2,
          deviceTypeId: DEVICE_TYPE.allocator,
          deviceCode: 'HCA-LONG',
          model: 'M'.repeat(101),
        },
      });
      expect(tooLongNew.status).toBe(400);
      expect(JSON.stringify(tooLongNew.body)).toContain('model');

      // Any text is a model (an unknown one picks no driver); other fields left out stay.
      const changed = await inject(t.app, contract.updateDevice, {
        params: { id },
        token: operator.token,
        body: { model: 'Brand new 2000', description: 'Kambarys 9' },
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body).toMatchObject({ Model: 'Brand new 2000', DeviceDescription: 'Kambarys 9' });
      const untouched = await inject(t.app, contract.updateDevice, {
        params: { id },
        token: operator.token,
        body: { description: 'Kambarys 8' },
      });
      expect(untouched.body.Model).toBe('Brand new 2000');
      const log = await t.db.query<{ before: { Model: string }; after: { Model: string } }>(
        "SELECT before, after FROM audit_log WHERE kind = 'device.update' AND entity_id = $1 ORDER BY id",
        [String(id)],
      );
      expect(log.rows.map((r) => [r.before.Model, r.after.Model])).toEqual([
        ['Q caloric 5.5', 'Brand new 2000'],
        ['Brand new 2000', 'Brand new 2000'],
      ]);
      const shown = await inject(t.app, contract.getLocation, { params: { id: flat2 }, token: operator.token });
      expect(shown.body.Devices.find((d) => d.DeviceId === id)?.Model).toBe('Brand new 2000');
    });

    it('keeps a device on a flat (or a building heat meter on a building), and one device per serial', async () => {
      const base = { locationId: flat, deviceTypeId: DEVICE_TYPE.coldWaterMeter, deviceCode: 'W-X' };
      expect(
        (await inject(t.app, contract.addDevice, { token: operator.token, body: { ...base, locationId: building } }))
          .status,
      ).toBe(400);
      expect(
        (
          await inject(t.app, contract.addDevice, {
            token: operator.token,
            body: { ...base, deviceTypeId: DEVICE_TYPE.buildingHeatMeter },
          })
        ).status,
      ).toBe(400);
      expect(
        (await inject(t.app, contract.addDevice, { token: operator.token, body: { ...base, deviceTypeId: 7 } })).status,
      ).toBe(400);
      expect(
        (await inject(t.app, contract.addDevice, { token: operator.token, body: { ...base, locationId: 999999 } }))
          .status,
      ).toBe(400);
      expect(
        (await inject(t.app, contract.addDevice, { token: operator.token, body: { ...base, deviceCode: '   ' } }))
          .status,
      ).toBe(400);
      const dup = await inject(t.app, contract.addDevice, {
        token: operator.token,
        body: { ...base, deviceCode: 'W-A' },
      });
      expect(dup.status).toBe(409);
      expect(dup.error.message).toMatch(/already used/);
      expect(
        (
          await inject(t.app, contract.addDevice, {
            token: operator.token,
            body: {
              ...base,
              locationId: building,
              deviceTypeId: DEVICE_TYPE.buildingHeatMeter,
              deviceCode: 'BHM-1',
            },
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await inject(t.app, contract.updateDevice, {
            params: { id: 1 },
            token: operator.token,
            body: { ratingFactor: -1 },
          })
        ).status,
      ).toBe(400);
      // Zero is refused too, not read as "no factor".
      expect(
        (
          await inject(t.app, contract.updateDevice, {
            params: { id: 1 },
            token: operator.token,
            body: { ratingFactor: 0 },
          })
        ).status,
      ).toBe(400);
    });
  });

  describe('GET /api/audit and /api/audit/export', () => {
    it('records who changed what, before and after, and filters by who, kind and period', async () => {
      const res = await inject(t.app, contract.getAuditLog, { query: 'kind=device.replace', token: operator.token });
      expect(res.status).toBe(200);
      expect(res.body.Total).toBe(3);
      const entry = (res.body.Data as AuditEntry[]).at(-1)!;
      expect(entry).toMatchObject({
        ActorId: operator.id,
        ActorUsername: 'operatorius',
        Kind: 'device.replace',
        Entity: 'device',
      });
      expect(entry.Before).toMatchObject({ DeviceCode: 'W-A', RemovedAt: null });
      // The record by its own name: the serial number and the flat's address.
      expect(entry.EntityName).toMatch(/^W-A, .*Gedimino/);
      expect(entry.After).toMatchObject({
        Old: { DeviceCode: 'W-A', FinalReading: 104.5 },
        New: { DeviceCode: 'W-B', InitialReading: 0.2 },
      });
      // A location change beside the device changes above: the filter finds both kinds and only them.
      const moved = await inject(t.app, contract.updateLocation, {
        params: { id: flat2 },
        token: operator.token,
        body: { flatOrder: 7 },
      });
      expect(moved.status).toBe(200);
      const mine = await inject(t.app, contract.getAuditLog, {
        query: 'actor=OPERAT&kind=location.update,device.update&pageSize=100',
        token: operator.token,
      });
      const { rows: stored } = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_log WHERE actor_id = $1 AND kind IN ('location.update', 'device.update')`,
        [operator.id],
      );
      expect(mine.body.Total).toBe(stored[0]!.n);
      expect(new Set((mine.body.Data as AuditEntry[]).map((e) => e.Kind))).toEqual(
        new Set(['location.update', 'device.update']),
      );
      expect(
        (await inject(t.app, contract.getAuditLog, { query: 'actor=nobody', token: operator.token })).body.Total,
      ).toBe(0);
      expect(
        (
          await inject(t.app, contract.getAuditLog, {
            query: 'dateFrom=2000-01-01&dateTill=2000-01-31',
            token: operator.token,
          })
        ).body.Total,
      ).toBe(0);
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Vilnius' }).format(new Date());
      expect(
        (
          await inject(t.app, contract.getAuditLog, {
            query: `dateFrom=${today}&dateTill=${today}`,
            token: operator.token,
          })
        ).body.Total,
      ).toBeGreaterThan(10);
      expect(
        (await inject(t.app, contract.getAuditLog, { query: 'dateFrom=2026-02-30', token: operator.token })).status,
      ).toBe(400);
    });

    it('records user changes and rights, never a password', async () => {
      const target = await makeSignedIn(t.app, { groupId: GROUP.user, username: 'petras' });
      await inject(t.app, contract.updateUser, {
        params: { id: target.id },
        token: admin,
        body: { firstName: 'Petras', password: 'naujas-slaptazodis' },
      });
      await inject(t.app, contract.setUserRights, {
        params: { id: target.id },
        token: admin,
        body: { locationIds: [building] },
      });
      // Saves that change nothing are no changes: no entries.
      const same = await inject(t.app, contract.updateUser, {
        params: { id: target.id },
        token: admin,
        body: { firstName: 'Petras' },
      });
      expect(same.status).toBe(200);
      const sameRights = await inject(t.app, contract.setUserRights, {
        params: { id: target.id },
        token: admin,
        body: { locationIds: [building] },
      });
      expect(sameRights.status).toBe(200);
      const res = await inject(t.app, contract.getAuditLog, {
        query: 'kind=user.create,user.update,user.rights',
        token: operator.token,
      });
      const forTarget = (res.body.Data as AuditEntry[]).filter((e) => e.EntityId === String(target.id));
      expect(forTarget.map((e) => e.Kind)).toEqual(['user.rights', 'user.update', 'user.create']);
      expect(forTarget.map((e) => e.EntityName)).toEqual(['petras', 'petras', 'petras']);
      expect(forTarget[1]!.After).toMatchObject({ FirstName: 'Petras', PasswordChanged: true });
      expect(forTarget[0]!.After).toMatchObject({ Rights: [expect.stringContaining('Gedimino')] });
      expect(JSON.stringify(res.body)).not.toMatch(/scrypt|naujas-slaptazodis|password_hash/i);
    });

    it('records collector keys created and revoked, never the key itself', async () => {
      const created = await inject(t.app, contract.createCollectorKey, {
        token: operator.token,
        body: { name: 'Koncentratorius 1' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const revoked = await inject(t.app, contract.revokeCollectorKey, {
        params: { id: created.body.Id },
        token: operator.token,
      });
      expect(revoked.status).toBe(200);
      const res = await inject(t.app, contract.getAuditLog, {
        query: 'kind=collectorKey.create,collectorKey.revoke',
        token: operator.token,
      });
      expect((res.body.Data as AuditEntry[]).map((e) => [e.Kind, e.ActorUsername, e.EntityId])).toEqual([
        ['collectorKey.revoke', 'operatorius', String(created.body.Id)],
        ['collectorKey.create', 'operatorius', String(created.body.Id)],
      ]);
      expect(res.body.Data[1]!.After).toMatchObject({ Name: 'Koncentratorius 1', RevokedAt: null });
      expect(JSON.stringify(res.body)).not.toContain(created.body.Key);
    });

    it('exports the filtered log as xlsx with date cells and as CSV', async () => {
      const xlsx = await t.app.inject({
        method: 'GET',
        url: '/api/audit/export?kind=device.replace&lang=en',
        headers: { authorization: `Bearer ${operator.token}` },
      });
      expect(xlsx.statusCode).toBe(200);
      expect(xlsx.headers['content-disposition']).toContain('auditLog.xlsx');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const sheet = wb.worksheets[0]!;
      expect(sheet.rowCount).toBe(4);
      expect(sheet.getRow(1).getCell(2).value).toBe('User');
      expect(sheet.getRow(2).getCell(1).value).toBeInstanceOf(Date);
      expect(sheet.getRow(2).getCell(3).value).toBe('Device replaced');
      const csv = await inject(t.app, contract.exportAuditLog, {
        query: 'kind=device.replace&format=csv&lang=lt',
        token: operator.token,
      });
      const lines = String(csv.body).split('\r\n');
      expect(lines[0]).toBe('\uFEFFLaikas;Naudotojas;Veiksmas;Įrašas;Įrašo id;Pavadinimas;Pakeitimai');
      // The record by its kind and name, the changes field by field with Lithuanian names.
      expect(lines[1]).toContain(';Pakeistas prietaisas kitu;Prietaisas;');
      expect(String(csv.body)).toMatch(/;W-A, [^;]*Gedimino/);
      expect(String(csv.body)).toContain('Senas prietaisas: Galutinis rodmuo: — → 104.5');
      expect(String(csv.body)).not.toMatch(/DeviceCode|FinalReading/);
    });

    it('cannot be edited: the database refuses UPDATE and DELETE', async () => {
      await expect(t.db.query(`UPDATE audit_log SET kind = 'x'`)).rejects.toThrow(/append-only/);
      await expect(t.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    });
  });

  describe('authorisation: only group 1 changes master data or reads the audit log', () => {
    it('answers 403 to groups 2 and 3 and 401 without a token on every endpoint', async () => {
      const calls: [Endpoint, { params?: { id: number }; payload?: object; query?: string }][] = [
        [contract.listLocationChildren, {}],
        [contract.getLocation, { params: { id: flat } }],
        [contract.updateLocation, { params: { id: flat }, payload: { name: 'X' } }],
        [contract.setFlatClient, { params: { id: flat }, payload: { clientCode: null } }],
        [contract.searchClients, {}],
        [contract.searchLocations, { query: 'text=Gedimino' }],
        [
          contract.addDevice,
          { payload: { locationId: flat, deviceTypeId: DEVICE_TYPE.coldWaterMeter, deviceCode: 'NOPE' } },
        ],
        [contract.updateDevice, { params: { id: 1 }, payload: { description: 'x' } }],
        [contract.removeDevice, { params: { id: 1 }, payload: { removedAt: '2026-01-01T00:00', finalReading: 1 } }],
        [
          contract.replaceDevice,
          {
            params: { id: 1 },
            payload: { replacedAt: '2026-01-01T00:00', finalReading: 1, newDeviceCode: 'NOPE', initialReading: 0 },
          },
        ],
        [contract.getAuditLog, {}],
        [contract.exportAuditLog, {}],
      ];
      for (const [endpoint, args] of calls) {
        const what = `${endpoint.method} ${endpoint.path}`;
        for (const token of [admin, user]) {
          const res = await inject(t.app, endpoint, { ...args, token });
          expect(res.status, what).toBe(403);
        }
        expect((await inject(t.app, endpoint, args)).status, what).toBe(401);
      }
      const { rowCount } = await t.db.query(`SELECT 1 FROM device WHERE device_code = 'NOPE'`);
      expect(rowCount).toBe(0);
    });
  });

  // After the audit log's counts of replacements above.
  it("POST /api/masterData/devices/:id/replace: the new device keeps the old one's model unless given another", async () => {
    const old = await inject(t.app, contract.addDevice, {
      token: operator.token,
      body: {
        locationId: flat2,
        deviceTypeId: DEVICE_TYPE.coldWaterMeter,
        deviceCode: 'CW-MODEL',
        installedAt: '2026-01-15T08:00',
        model: 'Hydrus',
      },
    });
    const replace = (id: number, newDeviceCode: string, extra: { newModel?: string | null } = {}) =>
      inject(t.app, contract.replaceDevice, {
        params: { id },
        token: operator.token,
        body: { replacedAt: '2026-02-01T08:00', finalReading: 5, newDeviceCode, initialReading: 0, ...extra },
      });
    const kept = await replace(old.body.DeviceId, 'CW-MODEL-2');
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);
    expect(kept.body.New.Model).toBe('Hydrus');
    const other = await replace(kept.body.New.DeviceId, 'CW-MODEL-3', { newModel: ' iPERL ' });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    expect([other.body.Old.Model, other.body.New.Model]).toEqual(['Hydrus', 'iPERL']);
    const cleared = await inject(t.app, contract.updateDevice, {
      params: { id: other.body.New.DeviceId },
      token: operator.token,
      body: { model: '   ' },
    });
    expect(cleared.body.Model).toBeNull();
  });

  it('kept device_status.last_seen on every insert path: LastSeen is the latest reading or telegram', async () => {
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_status');
    expect(rows[0]!.n).toBeGreaterThan(0);
    expect(await lastSeenMismatches(t.db)).toEqual([]);
  });
});
