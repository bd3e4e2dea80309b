import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { refreshMonthEnds } from '../services/data-quality/refresh-month-ends.js';
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

// Occupants of a flat and the moving-day values (docs/occupancies.md). Europe/Vilnius: UTC+2 in
// March before the 29th. A move on 2026-03-15: the boundary is 2026-03-15T00:00:00+02:00.
describe(`occupancies (${dbKind()})`, () => {
  const t = useApp();
  let operator: SignedIn;
  let neighbour: SignedIn;
  let user: SignedIn;
  let flat: number;
  let measured: number;
  let interpolated: number;
  let manual: number;

  const move = (flatId: number, body: contract.RecordMoveBody, token = operator.token) =>
    inject(t.app, contract.recordMove, { params: { id: flatId }, body, token });
  const occupancies = (flatId: number, token = operator.token) =>
    inject(t.app, contract.getFlatOccupancies, { params: { id: flatId }, token });

  beforeAll(async () => {
    const building = await makeBuilding(t.db, { city: 'Vilnius', street: 'Pylimo g.', number: '3' });
    const other = await makeBuilding(t.db, { city: 'Vilnius', street: 'Pylimo g.', number: '5' });
    flat = (await makeFlat(t.db, building, { name: '1', order: 1 })).id;
    const { rows } = await t.db.query<{ id: number }>(
      "INSERT INTO client (code, name) VALUES ('A-100', 'Ona Petraitienė') RETURNING id",
    );
    // What a register import without occupancy columns leaves: one open occupancy of the flat's client.
    await t.db.query('UPDATE location SET client_id = $2 WHERE id = $1', [flat, rows[0]!.id]);
    await t.db.query("INSERT INTO occupancy (location_id, client_id, name) VALUES ($1, $2, 'Ona Petraitienė')", [
      flat,
      rows[0]!.id,
    ]);
    measured = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'OC-CW' });
    await makeReadings(t.db, measured, [
      ['2026-03-10T12:00:00+02:00', 100],
      // Exactly at the boundary: the state at 15 March 00:00.
      ['2026-03-15T00:00:00+02:00', 104.5],
      ['2026-03-20T12:00:00+02:00', 109],
    ]);
    interpolated = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.hotWaterMeter, code: 'OC-HW' });
    await makeReadings(t.db, interpolated, [
      ['2026-03-10T00:00:00+02:00', 10],
      ['2026-03-20T00:00:00+02:00', 20],
    ]);
    manual = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.heatMeter, code: 'OC-HM' });
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    user = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [building.id] });
    neighbour = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [other.id] });
  }, 120_000);

  describe('POST /api/occupancies/flats/:id/moves', () => {
    it('ends the occupancy there, starts the new one, moves the flat client and values each device at D 00:00', async () => {
      const res = await move(flat, {
        day: '2026-03-15',
        clientCode: 'B-200',
        name: 'Jonas Naujokas',
        email: 'jonas@example.lt',
        language: 'lt',
        consentAt: '2026-03-01',
        consentChannel: 'email',
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.Occupancies.map((o) => [o.ClientCode, o.Name, o.MoveIn, o.MoveOut])).toEqual([
        ['A-100', 'Ona Petraitienė', null, '2026-03-15'],
        ['B-200', 'Jonas Naujokas', '2026-03-15', null],
      ]);
      expect(res.body.Occupancies[1]).toMatchObject({ ConsentAt: '2026-03-01', ConsentChannel: 'email' });
      const values = Object.fromEntries(res.body.Moves[0]!.Values.map((v) => [v.DeviceId, v]));
      expect(res.body.Moves.map((m) => m.Day)).toEqual(['2026-03-15']);
      expect(values[measured]).toMatchObject({ Source: 'measured', Value: 104.5 });
      expect(values[interpolated]).toMatchObject({ Source: 'interpolated', Value: 15, Method: 'time' });
      // A device with no reading around the move has nothing to start from (set by hand below).
      expect(values[manual]).toBeUndefined();
      const node = await inject(t.app, contract.getLocation, { params: { id: flat }, token: operator.token });
      expect(node.body.Location.ClientCode).toBe('B-200');
    });

    it('audits the change with the record’s name', async () => {
      const res = await inject(t.app, contract.getAuditLog, {
        query: { kind: 'occupancy.create' },
        token: operator.token,
      });
      expect(res.body.Data[0]).toMatchObject({ Entity: 'occupancy', EntityName: 'B-200 Jonas Naujokas' });
      const closed = await inject(t.app, contract.getAuditLog, {
        query: { kind: 'occupancy.update' },
        token: operator.token,
      });
      expect(closed.body.Data[0]?.After).toMatchObject({ MoveOut: '2026-03-15', Name: 'Ona Petraitienė' });
    });

    it('refuses a move before an occupancy that already starts later, a day that is not a day, and the future', async () => {
      const later = await move(flat, { day: '2026-03-01', clientCode: 'C-1', name: 'Kitas' });
      expect(later.status).toBe(409);
      expect(later.error.code).toBe('occupancyAfterMove');
      expect(later.text).not.toContain('Jonas');
      const bad = await move(flat, { day: '2026-02-30', clientCode: 'C-1', name: 'Kitas' });
      expect(bad.status).toBe(400);
      expect(bad.error.errors?.[0]?.field).toBe('day');
      const future = await move(flat, { day: '2199-01-01', clientCode: 'C-1', name: 'Kitas' });
      expect(future.status).toBe(400);
      expect(future.error.errors?.[0]?.field).toBe('day');
    });

    it('is group 1 only', async () => {
      const res = await move(flat, { day: '2026-04-01', clientCode: 'C-1', name: 'Kitas' }, user.token);
      expect(res.status).toBe(403);
    });
  });

  describe('GET /api/occupancies/flats/:id', () => {
    it('shows the occupants to whoever may see the flat, and 404 to anyone else, revealing nothing', async () => {
      expect((await occupancies(flat, user.token)).body.Occupancies).toHaveLength(2);
      const outside = await occupancies(flat, neighbour.token);
      expect(outside.status).toBe(404);
      expect(outside.text).not.toContain('Jonas');
      expect((await occupancies(999_999, operator.token)).status).toBe(404);
      expect((await inject(t.app, contract.getFlatOccupancies, { params: { id: flat } })).status).toBe(401);
    });
  });

  describe('PUT /api/occupancies/:id', () => {
    it('refuses an overlap with the other occupancy’s days, never its occupant', async () => {
      const { body } = await occupancies(flat);
      const newer = body.Occupancies[1]!;
      const res = await inject(t.app, contract.updateOccupancy, {
        params: { id: newer.Id },
        body: { clientCode: 'B-200', name: 'Jonas Naujokas', moveIn: '2026-03-10', moveOut: null },
        token: operator.token,
      });
      expect(res.status).toBe(409);
      expect(res.error).toMatchObject({ code: 'occupancyOverlap', params: { from: '…', till: '2026-03-15' } });
      expect(res.text).not.toContain('Ona');
      const backwards = await inject(t.app, contract.updateOccupancy, {
        params: { id: newer.Id },
        body: { clientCode: 'B-200', name: 'Jonas Naujokas', moveIn: '2026-03-15', moveOut: '2026-03-14' },
        token: operator.token,
      });
      expect(backwards.status).toBe(400);
      expect(backwards.error.errors?.[0]?.field).toBe('moveOut');
    });

    it('changes the contacts (audited), keeping the moving-day values', async () => {
      const { body } = await occupancies(flat);
      const newer = body.Occupancies[1]!;
      const res = await inject(t.app, contract.updateOccupancy, {
        params: { id: newer.Id },
        body: {
          clientCode: 'B-200',
          name: 'Jonas Naujokas',
          phone: '+37060000000',
          moveIn: '2026-03-15',
          moveOut: null,
        },
        token: operator.token,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.Occupancies[1]?.Phone).toBe('+37060000000');
      expect(res.body.Moves[0]?.Values).toHaveLength(2);
    });

    it('the database refuses an overlap written past the service', async () => {
      const { rows } = await t.db.query<{ client_id: number }>(
        'SELECT client_id FROM occupancy WHERE location_id = $1',
        [flat],
      );
      await expect(
        t.db.query("INSERT INTO occupancy (location_id, client_id, name, move_in) VALUES ($1, $2, 'X', '2026-03-20')", [
          flat,
          rows[0]!.client_id,
        ]),
      ).rejects.toThrow(/overlap/);
    });
  });

  describe('moving-day values', () => {
    it('are set by hand with a reason (audited), and cleared again', async () => {
      const put = (deviceId: number, body: { value: number; reason: string }) =>
        inject(t.app, contract.setMoveValue, { params: { deviceId, day: '2026-03-15' }, body, token: operator.token });
      const blank = await put(manual, { value: 1, reason: '  ' });
      expect(blank.status).toBe(400);
      expect(blank.error.errors?.[0]?.field).toBe('reason');
      const res = await put(manual, { value: 1234.5, reason: 'Read on the spot by the caretaker' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ Source: 'manual', Value: 1234.5, SetBy: operator.username });
      const notAMove = await inject(t.app, contract.setMoveValue, {
        params: { deviceId: manual, day: '2026-03-16' },
        body: { value: 1, reason: 'x' },
        token: operator.token,
      });
      expect(notAMove.status).toBe(404);
      const list = await inject(t.app, contract.getDeviceMoveValues, {
        params: { deviceId: manual },
        token: user.token,
      });
      expect(list.body).toMatchObject([{ Day: '2026-03-15', Source: 'manual', Value: 1234.5 }]);
      expect(
        (await inject(t.app, contract.getDeviceMoveValues, { params: { deviceId: manual }, token: neighbour.token }))
          .status,
      ).toBe(404);
      const audit = await inject(t.app, contract.getAuditLog, {
        query: { kind: 'moveValue.set' },
        token: operator.token,
      });
      expect(audit.body.Data[0]?.After).toMatchObject({ Reason: 'Read on the spot by the caretaker' });
      // The hourly run never replaces a manual value.
      await refreshMonthEnds(t.db, new Date('2026-11-26T12:00:00Z'));
      expect((await occupancies(flat)).body.Moves[0]?.Values.find((v) => v.DeviceId === manual)?.Source).toBe('manual');
      const cleared = await inject(t.app, contract.clearMoveValue, {
        params: { deviceId: manual, day: '2026-03-15' },
        token: operator.token,
      });
      expect(cleared.status).toBe(200);
      expect((await occupancies(flat)).body.Moves[0]?.Values.find((v) => v.DeviceId === manual)).toBeUndefined();
    });

    it('a register never falls: a move after a silence starts from the last reading, not the month end before', async () => {
      // An allocator silent since the 17th, the move recorded on the 27th (today then): no reading after D and
      // no month end of D's month yet. The month end before is 5,780; the reading of the 17th 5,988.
      const building = await makeBuilding(t.db, { city: 'Vilnius', street: 'Pylimo g.', number: '7' });
      const silentFlat = (await makeFlat(t.db, building, { name: '2', order: 2 })).id;
      await makeOccupancy(t.db, silentFlat, { clientCode: 'S-1' });
      const allocator = await makeDevice(t.db, silentFlat, { typeId: DEVICE_TYPE.allocator, code: 'OC-SILENT' });
      await makeReadings(t.db, allocator, [
        ['2026-02-20T09:00:00+02:00', 5700],
        ['2026-03-01T00:00:00+02:00', 5780],
        ['2026-03-17T09:00:00+02:00', 5988],
      ]);
      await refreshMonthEnds(t.db, new Date('2026-03-27T10:00:00+02:00'));
      const res = await move(silentFlat, { day: '2026-03-27', clientCode: 'S-2', name: 'Naujas Gyventojas' });
      expect(res.status, res.text).toBe(201);
      const atMove = () =>
        occupancies(silentFlat).then((r) => r.body.Moves[0]?.Values.find((v) => v.DeviceId === allocator));
      expect(res.body.Moves[0]?.Values.find((v) => v.DeviceId === allocator)).toMatchObject({
        Source: 'estimated',
        Method: 'carried_forward',
        Value: 5988,
      });
      // March ends, still silent: its month end is not below the reading of the 17th either, so the newcomer's
      // days count nothing rather than minus 208 units.
      await refreshMonthEnds(t.db, new Date('2026-04-02T10:00:00+03:00'));
      const { rows } = await t.db.query<{ value: number }>(
        "SELECT value::float8 AS value FROM month_end WHERE device_id = $1 AND month = '2026-03-01'",
        [allocator],
      );
      expect(rows[0]?.value).toBe(5988);
      expect(await atMove()).toMatchObject({ Source: 'estimated', Method: 'month_end_prorated', Value: 5988 });
    });

    it('a late reading replaces an interpolated value, and the change is kept', async () => {
      // A reading before the boundary arrives late, queued as every path that stores readings does.
      await makeReadings(t.db, interpolated, [['2026-03-14T22:00:00+02:00', 14.2]]);
      await t.db.query("INSERT INTO dq_pending (device_id, month) VALUES ($1, '2026-03-01') ON CONFLICT DO NOTHING", [
        interpolated,
      ]);
      await refreshMonthEnds(t.db, new Date('2026-11-26T12:00:00Z'), { ensure: false });
      const value = (await occupancies(flat)).body.Moves[0]?.Values.find((v) => v.DeviceId === interpolated);
      expect(value).toMatchObject({
        Source: 'measured',
        Value: 14.2,
        PreviousSource: 'interpolated',
        PreviousValue: 15,
      });
    });
  });
});
