import * as contract from '@rodmenys/contract';
import { type DeviceTypeId, GROUP } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { inject, useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import {
  type DeviceOverrides,
  makeBuilding,
  makeDevice,
  makeFlat,
  makeReadings,
  makeSignedIn,
} from '../../test/factories.js';
import { validate } from './validate.js';

/** A DST day in Vilnius (clocks went forward at 03:00 that morning), in the heating season. */
const WINTER_NOW = new Date('2026-03-29T12:00:00+03:00');
const SUMMER_NOW = new Date('2026-07-15T12:00:00+03:00');

/** Readings every `hours` hours ending at `end`, one value each. */
const series = (end: Date, hours: number, values: number[]): [string, number][] =>
  values.map((v, i) => [new Date(end.getTime() - (values.length - 1 - i) * hours * 3_600_000).toISOString(), v]);

describe(`validation rules (${dbKind()})`, () => {
  const t = useApp();
  let n = 0;
  let buildingN = 0;
  /** A building of its own with one flat; returns [building, flat]. */
  const place = async () => {
    const b = `${++buildingN}`;
    const building = await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: b });
    return [building.id, (await makeFlat(t.db, building, { name: '1', order: 1 })).id] as const;
  };
  const device = async (
    typeId: DeviceTypeId,
    locationId: number,
    extra: Pick<DeviceOverrides, 'installedAt' | 'removedAt'> = {},
  ) => makeDevice(t.db, locationId, { typeId, code: `V-${++n}`, ...extra });
  const anomalies = async (deviceId: number) =>
    (
      await t.db.query<{ rule: string; state: string; evidence: Record<string, unknown>; month: string }>(
        `SELECT rule, state, evidence, month::text AS month FROM anomaly WHERE device_id = $1 ORDER BY id`,
        [deviceId],
      )
    ).rows;
  /** Month-end tests build devices without readings: their silence is not the point there. */
  const notSilent = async (deviceId: number) => (await anomalies(deviceId)).filter((a) => a.rule !== 'SILENT');
  const rules = async (deviceId: number, state = 'open') =>
    (await anomalies(deviceId)).filter((a) => a.state === state).map((a) => a.rule);

  it('SILENT: no reading for N days per type; allocators exempt outside the heating season', async () => {
    const [, flat] = await place();
    const water = await device(3, flat);
    const fresh = await device(3, flat);
    const hca = await device(1, flat);
    await makeReadings(t.db, water, [['2026-03-25T12:00:00+02:00', 1]]);
    await makeReadings(t.db, fresh, [['2026-03-28T12:00:00+02:00', 1]]);
    await makeReadings(t.db, hca, [['2026-03-10T12:00:00+02:00', 1]]);
    await validate(t.db, null, WINTER_NOW);
    expect(await rules(water)).toEqual(['SILENT']);
    expect((await anomalies(water))[0]!.evidence).toEqual({ lastSeen: '2026-03-25T12:00:00+02:00', limitDays: 3 });
    expect(await rules(fresh)).toEqual([]);
    expect(await rules(hca)).toEqual(['SILENT']);
    // In July an allocator that says nothing is normal: its anomaly resolves itself.
    const hcaSummer = await device(1, flat);
    await makeReadings(t.db, hcaSummer, [['2026-05-01T12:00:00+03:00', 1]]);
    await validate(t.db, null, SUMMER_NOW);
    expect(await rules(hcaSummer)).toEqual([]);
    expect(await rules(hca)).toEqual([]);
    expect(await rules(hca, 'resolved')).toEqual(['SILENT']);
  });

  it('SPIKE, WRONG_READING, COUNTER_RESET, NEGATIVE: each reading against its neighbours', async () => {
    const [, flat] = await place();
    const spike = await device(3, flat);
    const dip = await device(3, flat);
    const reset = await device(2, flat);
    const negative = await device(3, flat);
    await makeReadings(t.db, spike, series(WINTER_NOW, 24, [10, 11, 50, 12, 13]));
    await makeReadings(t.db, dip, series(WINTER_NOW, 24, [10, 11, 3, 12, 13]));
    await makeReadings(t.db, reset, series(WINTER_NOW, 24, [1000, 1001, 2, 3, 4]));
    await makeReadings(t.db, negative, series(WINTER_NOW, 24, [100, 101, 90, 91, 92]));
    await validate(t.db, null, WINTER_NOW);
    // The fall right after the spike is the spike's, not a negative consumption.
    expect(await rules(spike)).toEqual(['SPIKE']);
    expect((await anomalies(spike))[0]!.evidence).toMatchObject({
      reading: { value: 50 },
      previous: { value: 11 },
      next: { value: 12 },
      count: 1,
    });
    expect(await rules(dip)).toEqual(['WRONG_READING']);
    expect(await rules(reset)).toEqual(['COUNTER_RESET']);
    expect(await rules(negative)).toEqual(['NEGATIVE']);
  });

  it('a replacement (final reading of the old device, initial of the new) is no anomaly; nor is a DST night', async () => {
    const [, flat] = await place();
    const at = '2026-03-26T10:00:00+02:00';
    const old = await device(3, flat, { removedAt: at });
    const successor = await device(3, flat, { installedAt: at });
    await makeReadings(t.db, old, [...series(new Date(at), 24, [480, 490, 500])]);
    await makeReadings(t.db, successor, [
      [at, 0],
      ['2026-03-27T10:00:00+02:00', 1],
      // Hourly through the night the clocks went forward (02:00+02:00 is followed by 04:00+03:00).
      ['2026-03-29T01:00:00+02:00', 2],
      ['2026-03-29T02:00:00+02:00', 2.1],
      ['2026-03-29T04:00:00+03:00', 2.2],
      ['2026-03-29T05:00:00+03:00', 2.3],
    ]);
    await validate(t.db, null, WINTER_NOW);
    expect(await rules(old)).toEqual([]);
    expect(await rules(successor)).toEqual([]);
  });

  it('SENTINEL: a "no value" number that slipped through is reported and kept out of the other rules', async () => {
    const [, flat] = await place();
    const d = await device(3, flat);
    await makeReadings(t.db, d, series(WINTER_NOW, 24, [10, 99999.999, 11, 12]));
    await validate(t.db, null, WINTER_NOW);
    expect(await rules(d)).toEqual(['SENTINEL']);
  });

  it('ZERO_CONSUMPTION: the same value for N days while reporting; heat only in the heating season', async () => {
    const [, flat] = await place();
    const water = await device(3, flat);
    const hca = await device(1, flat);
    const hcaSummer = await device(1, flat);
    await makeReadings(t.db, water, series(WINTER_NOW, 24, Array(35).fill(7)));
    await makeReadings(t.db, hca, series(WINTER_NOW, 24, Array(20).fill(3)));
    await makeReadings(t.db, hcaSummer, series(SUMMER_NOW, 24, Array(20).fill(3)));
    await validate(t.db, [water, hca], WINTER_NOW);
    expect(await rules(water)).toEqual(['ZERO_CONSUMPTION']);
    expect(await rules(hca)).toEqual(['ZERO_CONSUMPTION']);
    await validate(t.db, [hcaSummer], SUMMER_NOW);
    expect(await rules(hcaSummer)).toEqual([]);
  });

  it('METER_STATUS: alarm flags of the latest telegram or uplink open it, other status words do not', async () => {
    const [, flat] = await place();
    const leak = await device(3, flat);
    // wmbusmeters' words for the conditions the LoRaWAN decoders raise too (docs/lorawan.md, "Alarms").
    const cases = [
      [leak, ['LEAKAGE_OR_NO_USAGE', 'POWER_LOW']],
      [await device(3, flat), ['DRY']],
      [await device(2, flat), ['ALARM', 'OPEN_C', 'PERMANENT_ERROR', 'SENSOR_BREAK', 'UNEXPECTED_RST']],
      [await device(2, flat), ['ERROR_FLAGS_2000000']],
      [await device(3, flat), ['BACK_FLOW', 'METER_BLOCKED']],
      [await device(3, flat), ['TEMPORARY_ERROR']],
      [await device(3, flat), ['HIGH_TEMPERATURE', 'NO_FLOW_PREV_MONTH']],
      [await device(2, flat), ['SENSOR_T1_BELOW_MEASURING_RANGE', 'V1_COMMUNICATION_ERROR']],
    ] as const;
    for (const [id, flags] of cases) {
      await makeReadings(t.db, id, [['2026-03-29T10:00:00+03:00', 1]]);
      await t.db.query('UPDATE device_status SET flags = $2 WHERE device_id = $1', [id, flags]);
    }
    await validate(
      t.db,
      cases.map(([id]) => id),
      WINTER_NOW,
    );
    expect(await anomalies(leak)).toEqual([
      expect.objectContaining({ rule: 'METER_STATUS', evidence: { flags: ['LEAKAGE_OR_NO_USAGE', 'POWER_LOW'] } }),
    ]);
    const flagged: unknown[] = [];
    for (const [id] of cases)
      flagged.push((await anomalies(id)).filter((a) => a.rule === 'METER_STATUS').map((a) => a.evidence.flags));
    expect(flagged).toEqual([
      [['LEAKAGE_OR_NO_USAGE', 'POWER_LOW']],
      [['DRY']],
      [['PERMANENT_ERROR']],
      [['ERROR_FLAGS_2000000']],
      [['BACK_FLOW']],
      [['TEMPORARY_ERROR']],
      [],
      [],
    ]);
    // The next telegram says OK: resolved.
    await t.db.query("UPDATE device_status SET flags = '{}' WHERE device_id = $1", [leak]);
    await validate(t.db, [leak], WINTER_NOW);
    expect(await rules(leak, 'resolved')).toEqual(['METER_STATUS']);
  });

  const monthEnds = async (deviceId: number, values: [string, number, string?][]) => {
    for (const [month, value, source] of values) {
      await t.db.query(
        `INSERT INTO month_end (device_id, month, value, source) VALUES ($1, $2, $3, $4)
         ON CONFLICT (device_id, month) DO UPDATE SET value = excluded.value, source = excluded.source`,
        [deviceId, `${month}-01`, value, source ?? 'measured'],
      );
    }
  };

  it('HIGH_CONSUMPTION / LOW_CONSUMPTION: the last month against the same month last year', async () => {
    const [, flat] = await place();
    const high = await device(3, flat);
    const low = await device(3, flat);
    const normal = await device(3, flat);
    for (const [id, feb] of [
      [high, 130],
      [low, 101],
      [normal, 112],
    ] as const) {
      await monthEnds(id, [
        ['2025-01', 0],
        ['2025-02', 10],
        ['2026-01', 100],
        ['2026-02', feb],
      ]);
    }
    await validate(t.db, [high, low, normal], WINTER_NOW);
    expect(await notSilent(high)).toEqual([
      expect.objectContaining({
        rule: 'HIGH_CONSUMPTION',
        month: '2026-02-01',
        evidence: expect.objectContaining({ ratio: 3 }),
      }),
    ]);
    expect((await notSilent(low)).map((a) => a.rule)).toEqual(['LOW_CONSUMPTION']);
    expect(await notSilent(normal)).toEqual([]);
  });

  it('BUILDING_BALANCE and ESTIMATED_SHARE: building-wide checks of the last month', async () => {
    const [building, flat] = await place();
    const bhm = await device(11, building);
    const hm1 = await device(2, flat);
    const hm2 = await device(2, flat);
    await monthEnds(bhm, [
      ['2026-01', 1000],
      ['2026-02', 1100],
    ]);
    await monthEnds(hm1, [
      ['2026-01', 500],
      ['2026-02', 530],
    ]);
    await monthEnds(hm2, [
      ['2026-01', 500],
      ['2026-02', 530, 'estimated'],
    ]);
    await validate(t.db, null, WINTER_NOW);
    expect(await notSilent(bhm)).toEqual([
      expect.objectContaining({
        rule: 'BUILDING_BALANCE',
        evidence: { building: 100, flats: 60, flatMeters: 2, share: 0.4 },
      }),
    ]);
    const { rows } = await t.db.query<{ rule: string; evidence: unknown }>(
      'SELECT rule, evidence FROM anomaly WHERE building_id = $1 AND device_id IS NULL',
      [building],
    );
    expect(rows).toEqual([{ rule: 'ESTIMATED_SHARE', evidence: { estimated: 1, total: 3, share: 0.333 } }]);
  });

  it('ESTIMATED_SHARE by floor area when every flat has one: the estimated flats’ area against all', async () => {
    const place = await makeBuilding(t.db, { city: 'Kaunas', street: 'Savanorių pr.', number: '1' });
    const small = (await makeFlat(t.db, place, { name: '1', order: 1 })).id;
    const big = (await makeFlat(t.db, place, { name: '2', order: 2 })).id;
    await t.db.query('UPDATE location SET area_m2 = CASE id WHEN $1 THEN 20 ELSE 100 END WHERE id IN ($1, $2)', [
      small,
      big,
    ]);
    const a = await device(1, small);
    const d = await device(1, big);
    await monthEnds(a, [
      ['2026-01', 10],
      ['2026-02', 20, 'estimated'],
    ]);
    await monthEnds(d, [
      ['2026-01', 10],
      ['2026-02', 20],
    ]);
    const found = async () =>
      (
        await t.db.query<{ evidence: unknown }>(
          "SELECT evidence FROM anomaly WHERE building_id = $1 AND rule = 'ESTIMATED_SHARE' AND resolved_at IS NULL",
          [place.id],
        )
      ).rows.map((r) => r.evidence);
    // One device of two is estimated (50 %), but 20 of 120 m² (16.7 %): by area, below the 25 % setting.
    await validate(t.db, null, WINTER_NOW);
    expect(await found()).toEqual([]);
    // The large flat estimated as well: 120 of 120 m².
    await monthEnds(d, [['2026-02', 20, 'estimated']]);
    await validate(t.db, null, WINTER_NOW);
    expect(await found()).toEqual([{ estimatedArea: 120, totalArea: 120, share: 1 }]);
  });

  describe('POST /api/data-quality/anomalies/:id/acknowledge', () => {
    it('acknowledges with a comment (audited), scoped; the anomaly resolves itself when its condition ends', async () => {
      const [building, flat] = await place();
      const manager = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [building] });
      const [elsewhere] = await place();
      const outsider = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [elsewhere] });
      const d = await device(3, flat);
      await makeReadings(t.db, d, [['2026-03-20T12:00:00+02:00', 1]]);
      await validate(t.db, null, WINTER_NOW);
      const listed = await inject(t.app, contract.listAnomalies, {
        query: { rule: 'SILENT', state: 'open' },
        token: manager.token,
      });
      expect(listed.status).toBe(200);
      expect(listed.body.map((a) => a.DeviceId)).toEqual([d]);
      const id = listed.body[0]!.Id;
      const counts = await inject(t.app, contract.countAnomalies, { token: manager.token });
      expect(counts.body).toEqual([
        expect.objectContaining({ BuildingId: building, Rule: 'SILENT', Open: 1, Acknowledged: 0, Resolved: 0 }),
      ]);
      expect(
        (
          await inject(t.app, contract.acknowledgeAnomaly, {
            params: { id },
            token: outsider.token,
            body: { comment: 'x' },
          })
        ).status,
      ).toBe(404);
      expect((await inject(t.app, contract.listAnomalies, { token: outsider.token })).body).toEqual([]);
      const empty = await inject(t.app, contract.acknowledgeAnomaly, {
        params: { id },
        token: manager.token,
        body: { comment: '' },
      });
      expect(empty.status).toBe(400);
      const ack = await inject(t.app, contract.acknowledgeAnomaly, {
        params: { id },
        token: manager.token,
        body: { comment: 'Flat empty, owner abroad' },
      });
      expect(ack.status).toBe(200);
      expect(ack.body).toMatchObject({
        State: 'acknowledged',
        Comment: 'Flat empty, owner abroad',
        AcknowledgedBy: manager.username,
      });
      expect(
        (
          await inject(t.app, contract.acknowledgeAnomaly, {
            params: { id },
            token: manager.token,
            body: { comment: 'again' },
          })
        ).status,
      ).toBe(409);
      const audit = await t.db.query<{ kind: string }>(
        "SELECT kind FROM audit_log WHERE entity = 'anomaly' AND entity_id = $1",
        [String(id)],
      );
      expect(audit.rows).toEqual([{ kind: 'anomaly.acknowledge' }]);
      // Still silent: stays acknowledged. Then a reading comes: resolved by itself.
      await validate(t.db, [d], WINTER_NOW);
      expect(await rules(d, 'acknowledged')).toEqual(['SILENT']);
      await makeReadings(t.db, d, [['2026-03-29T11:00:00+03:00', 2]]);
      await validate(t.db, [d], WINTER_NOW);
      expect(await rules(d, 'resolved')).toEqual(['SILENT']);
      const bad = await inject(t.app, contract.listAnomalies, { query: { rule: 'NOPE' }, token: manager.token });
      expect(bad.status).toBe(400);
    });
  });
});
