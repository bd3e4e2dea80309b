import {
  DEVICE_TYPE,
  type FlatStatement,
  GROUP,
  getStatementFigures,
  LOCATION_LEVEL,
  type ReadingRow,
} from '@rodmenys/contract';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../demo/generate.js';
import { PUBLICATION_FOLLOWERS } from '../../publication.js';
import { dbKind, useDb } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeUser } from '../../test/factories.js';
import { refreshMonthEnds } from '../data-quality/refresh-month-ends.js';
import { DevicesDataCaches, getDevicesDataJson } from '../devices/devices-data/index.js';
import { statementDifference } from './difference.js';
import { computeRows, computeStatements } from './figures.js';
import { shareByQrad } from './kwh-share.js';
import { statementMonths } from './months.js';
import { publishStatements } from './publish.js';
import { statementFiguresJson } from './rows-json.js';
import { loadStatements, statementRows } from './snapshots.js';

const NOW = new Date('2026-11-20T10:00:00Z');
const MONTH = '2026-10';
const t = useDb();

describe('shareByQrad', () => {
  it('shares to 3 decimals and sums back exactly', () => {
    expect(shareByQrad(100, [1, 1, 1])).toEqual([33.334, 33.333, 33.333]);
    expect(shareByQrad(1234.5678, [10.5, 0, 3.25, 7])).toEqual([624.721, 0, 193.366, 416.481]);
    for (const [e, q] of [
      [987.654, [1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7]],
      [0.001, [1, 1, 1]],
      [5000, [0.3, 0.3, 0.3, 0.1]],
    ] as const) {
      const s = shareByQrad(e, q)!;
      expect(Math.round(s.reduce((a, x) => a + x, 0) * 1000)).toBe(Math.round(e * 1000));
    }
    expect(shareByQrad(10, [0, 0])).toBeNull();
  });
});

describe('statementMonths', () => {
  it('is M − 12 … M across the year boundary', () => {
    expect(statementMonths('2026-01')).toEqual([
      '2025-01',
      '2025-02',
      '2025-03',
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
    ]);
  });
});

describe(`monthly figures over the demo data (${dbKind()})`, () => {
  let statements: FlatStatement[];
  beforeAll(async () => {
    await seedDemo(t.db, {
      size: { buildings: 3, flatsPerBuilding: [6, 7], months: 14, intervalHours: 12 },
      seed: 11,
      now: NOW,
    });
    await refreshMonthEnds(t.db, NOW);
    statements = await computeStatements(t.db, MONTH, { scope: null, parents: null });
  }, 180_000);

  it('gives every flat, and each figure is the difference of its devices’ month ends', async () => {
    const { rows: flats } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM location WHERE level = ${LOCATION_LEVEL.flat}`,
    );
    expect(statements.length).toBe(flats[0]!.n);
    // Independently: per flat and type, month end of M minus month end of M − 1, for devices in service all month.
    const { rows } = await t.db.query<{ flat: number; type: number; diff: number | null; q: number | null }>(
      `SELECT d.location_id AS flat, d.device_type_id AS type,
              sum(e.value - s.value)::float8 AS diff, sum((e.value - s.value) * d.rating_factor)::float8 AS q
         FROM device d JOIN location l ON l.id = d.location_id AND l.level = ${LOCATION_LEVEL.flat}
         LEFT JOIN month_end s ON s.device_id = d.id AND s.month = '2026-09-01'
         LEFT JOIN month_end e ON e.device_id = d.id AND e.month = '2026-10-01'
        WHERE d.device_type_id IN (${DEVICE_TYPE.allocator}, ${DEVICE_TYPE.heatMeter}, ${DEVICE_TYPE.coldWaterMeter}, ${DEVICE_TYPE.hotWaterMeter})
        GROUP BY 1, 2
       HAVING bool_and(s.value IS NOT NULL AND e.value IS NOT NULL)`,
    );
    let checked = 0;
    for (const r of rows) {
      const st = statements.find((s) => s.Row.FlatId === r.flat)!;
      const kind =
        r.type === DEVICE_TYPE.allocator || r.type === DEVICE_TYPE.heatMeter
          ? 'heating'
          : r.type === DEVICE_TYPE.hotWaterMeter
            ? 'hotWater'
            : 'coldWater';
      const k = st.Row.Kinds.find((x) => x.Kind === kind)!;
      if (r.type === DEVICE_TYPE.allocator && k.Unit === 'Qrad') expect(k.Current.Value).toBeCloseTo(r.q!, 3);
      else if (r.type === DEVICE_TYPE.allocator) expect(k.Units).toBeCloseTo(r.diff!, 3);
      else expect(k.Current.Value).toBeCloseTo(r.diff!, 3);
      checked++;
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('where every month end is measured, equals the flat totals GetDevicesData gives for the month', async () => {
    const { rows: measured } = await t.db.query<{ id: number }>(
      `SELECT d.id FROM device d WHERE (SELECT count(*) FROM month_end m WHERE m.device_id = d.id
          AND m.month IN ('2026-09-01', '2026-10-01') AND m.source = 'measured') = 2`,
    );
    const ok = new Set(measured.map((m) => m.id));
    let compared = 0;
    for (const deviceTypeId of [1, 2, 3, 4]) {
      const { json } = await getDevicesDataJson(
        t.db,
        {
          deviceTypeId,
          range: { from: '2026-10-01', till: '2026-10-31' },
          scope: null,
          parents: null,
          timeZone: 'Europe/Vilnius',
          now: NOW,
        },
        new DevicesDataCaches(),
      );
      const rows = JSON.parse(json.toString()) as ReadingRow[];
      const byFlat = new Map<number, ReadingRow[]>();
      for (const r of rows) byFlat.set(r.LocationId, [...(byFlat.get(r.LocationId) ?? []), r]);
      for (const [flat, devs] of byFlat) {
        if (!devs.every((d) => ok.has(d.DeviceId))) continue;
        const st = statements.find((s) => s.Row.FlatId === flat);
        if (!st) continue;
        const kind = deviceTypeId <= 2 ? 'heating' : deviceTypeId === 4 ? 'hotWater' : 'coldWater';
        const k = st.Row.Kinds.find((x) => x.Kind === kind)!;
        if (deviceTypeId === 1) {
          expect(k.Units).toBeCloseTo(
            devs.reduce((a, d) => a + (d.Difference ?? 0), 0),
            3,
          );
          expect(k.Qrad).toBeCloseTo(devs[0]!.FlatDifferenceQrad ?? 0, 3);
        } else {
          expect(k.Current.Value).toBeCloseTo(devs[0]!.FlatDifference!, 3);
        }
        expect(k.Current.Partial).toBe(false);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(30);
  });

  it('computes the figures alone (three months, not thirteen) exactly as the statements’ rows, every flat', async () => {
    const rows = await computeRows(t.db, MONTH, { scope: null, parents: null });
    expect(rows.length).toBe(statements.length);
    expect(rows).toEqual(statements.map((s) => s.Row));
    expect(await statementRows(t.db, MONTH, { scope: null, parents: null })).toEqual(rows);
  });

  it('writes the figures’ answer as JSON text with exactly the contract’s members, in its order', async () => {
    const rows = await computeRows(t.db, MONTH, { scope: null, parents: null });
    const { json } = statementFiguresJson(MONTH, rows, []);
    // The rows are built member by member in the contract's order: the text is what serialising them gives.
    expect(json).toBe(JSON.stringify({ Month: MONTH, Rows: rows, Occupancies: [] }));
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/);
    const valid = ajv.compile(getStatementFigures.response);
    expect(valid(JSON.parse(json.toString()))).toBe(true);
    // A member the contract does not declare never leaves, and an object's member order does not matter.
    const row = rows.find((r) => r.Kinds.length === 3)!;
    const extra = {
      ...row,
      Secret: 'x',
      Published: {
        PublishedBy: null,
        Version: 2,
        BuildingId: row.BuildingId,
        PublishedAt: '2026-11-01T10:00:00+02:00',
      },
    };
    const parsed = JSON.parse(statementFiguresJson(MONTH, [extra], []).json.toString()) as { Rows: object[] };
    expect(Object.keys(parsed.Rows[0]!)).toEqual(Object.keys(row));
    expect(parsed.Rows[0]).toEqual({ ...row, Published: extra.Published });
  });

  it('gives M − 1 and the same month last year as the statement’s history', () => {
    const s = statements.find((x) => x.Row.Kinds.length === 3)!;
    for (const k of s.Row.Kinds) {
      const h = s.History.find((x) => x.Kind === k.Kind)!;
      expect(h.Months.map((m) => m.Month)).toEqual(statementMonths(MONTH));
      expect(h.Months[12]!.Value).toBe(k.Current.Value);
      expect(h.Months[11]!.Value).toBe(k.Previous.Value);
      expect(h.Months[0]!.Value).toBe(k.LastYear.Value);
    }
  });
});

describe(`kWh sharing, estimates, degree-days and publishing on a hand-built building (${dbKind()})`, () => {
  let flats: { id: number; alloc: number[] }[];
  let buildingId: number;
  let meter: number;
  let water: number;
  beforeAll(async () => {
    const building = await makeBuilding(t.db, { city: 'Šiauliai', street: 'Vilniaus g.', number: '7' });
    buildingId = building.id;
    await t.db.query('INSERT INTO degree_days (city_id, month, value) VALUES ($1, $2, 400), ($1, $3, 500)', [
      building.path[LOCATION_LEVEL.city - 1],
      '2026-10-01',
      '2025-10-01',
    ]);
    meter = await makeDevice(t.db, building, { typeId: DEVICE_TYPE.buildingHeatMeter });
    flats = [];
    // Three flats: rating factors and consumptions chosen so Qrad are 100, 250 and 650 (sum 1,000).
    const spec = [
      {
        area: 50,
        alloc: [
          [1, 40],
          [2, 30],
        ],
      }, // Qrad 1×40 + 2×30 = 100
      { area: 70, alloc: [[2.5, 100]] }, // 250
      { area: null, alloc: [[1.3, 500]] }, // 650
    ] as const;
    for (const [i, f] of spec.entries()) {
      const flat = await makeFlat(t.db, building, { name: `${i + 1}`, order: i + 1 });
      if (f.area) await t.db.query('UPDATE location SET area_m2 = $2 WHERE id = $1', [flat.id, f.area]);
      const alloc: number[] = [];
      for (const [factor, units] of f.alloc) {
        const id = await makeDevice(t.db, flat, {
          typeId: DEVICE_TYPE.allocator,
          ratingFactor: factor,
          installedAt: '2025-01-01T00:00:00+02:00',
        });
        await makeReadings(t.db, id, [
          ['2025-09-30T23:00:00+03:00', 0],
          ['2025-10-31T22:00:00+02:00', units * 2],
          ['2026-09-30T23:00:00+03:00', 1000],
          ['2026-10-31T22:00:00+02:00', 1000 + units],
        ]);
        alloc.push(id);
      }
      flats.push({ id: flat.id, alloc });
    }
    await makeReadings(t.db, meter, [
      ['2025-09-30T23:00:00+03:00', 0],
      ['2025-10-31T22:00:00+02:00', 3000],
      ['2026-09-30T23:00:00+03:00', 50_000],
      ['2026-10-31T22:00:00+02:00', 52_345.678],
    ]);
    water = await makeDevice(t.db, flats[0]!.id, {
      typeId: DEVICE_TYPE.coldWaterMeter,
      installedAt: '2025-01-01T00:00:00+02:00',
    });
    // Cold water read on 2026-09-30, then nothing until 2026-11-05: October's end is interpolated.
    await makeReadings(t.db, water, [
      ['2025-09-30T23:00:00+03:00', 1],
      ['2025-10-31T22:00:00+02:00', 4],
      ['2026-09-30T23:00:00+03:00', 100],
      ['2026-11-05T12:00:00+02:00', 110],
    ]);
    await refreshMonthEnds(t.db, NOW);
  }, 120_000);

  const load = () => computeStatements(t.db, MONTH, { scope: null, parents: [buildingId] });

  it('shares the building meter’s energy by Qrad, summing back to it to 3 decimals', async () => {
    const st = await load();
    const heating = st.map((s) => s.Row.Kinds.find((k) => k.Kind === 'heating')!);
    expect(heating.map((k) => k.Qrad)).toEqual([100, 250, 650]);
    expect(heating.map((k) => k.Unit)).toEqual(['kWh', 'kWh', 'kWh']);
    expect(heating.map((k) => k.KwhMethod)).toEqual([
      'buildingMeterByQrad',
      'buildingMeterByQrad',
      'buildingMeterByQrad',
    ]);
    // 2,345.678 kWh × 0.1 / 0.25 / 0.65.
    expect(heating.map((k) => k.Current.Value)).toEqual([234.568, 586.419, 1524.691]);
    expect(heating.reduce((a, k) => a + k.Current.Value!, 0)).toBeCloseTo(2345.678, 9);
    expect(heating[0]!.BuildingKwh).toBe(2345.678);
    // Last year: 3,000 kWh shared by Qrad 200 / 500 / 1,300; corrected by degree-days 400 / 500.
    expect(heating.map((k) => k.LastYear.Value)).toEqual([300, 750, 1950]);
    expect(heating.map((k) => k.LastYearCorrected)).toEqual([240, 600, 1560]);
    expect(st[0]!.DegreeDays).toEqual({ Current: 400, LastYear: 500 });
    // Building average per flat and per m² (flats 1 and 2 have an area: (234.568 + 586.419) / 120).
    expect(heating[0]!.BuildingAverage).toBeCloseTo(2345.678 / 3, 3);
    expect(heating[0]!.BuildingAveragePerM2).toBeCloseTo((234.568 + 586.419) / 120, 4);
  });

  it('marks a figure with an interpolated month end as partial, and the flat as estimated', async () => {
    const [first] = await load();
    const cold = first!.Row.Kinds.find((k) => k.Kind === 'coldWater')!;
    expect(cold.Current.Partial).toBe(true);
    expect(cold.Current.Sources).toContain('interpolated');
    expect(cold.Markers).toContain('estimated');
    expect(cold.LastYear).toMatchObject({ Value: 3, Partial: false });
  });

  it('publishing freezes the figures; a late reading changes the live ones; republishing shows the difference', async () => {
    const operator = await makeUser(t.db, { groupId: GROUP.operator });
    const caller = { id: operator.id, username: operator.username } as Parameters<typeof publishStatements>[1];
    const first = await publishStatements(t.db, caller, MONTH, [buildingId], false, PUBLICATION_FOLLOWERS);
    expect(first).toMatchObject({ Buildings: 1, Flats: 3, Republished: 0, Changes: [] });
    const before = await loadStatements(t.db, MONTH, { scope: null, parents: [buildingId] });
    expect(before[0]!.Row.Published).toMatchObject({ Version: 1, BuildingId: buildingId });

    // A late reading at the month end: October's cold water becomes measured.
    await makeReadings(t.db, water, [['2026-10-31T20:00:00+02:00', 107]]);
    await t.db.query("INSERT INTO dq_pending VALUES ($1, '2026-10-01') ON CONFLICT DO NOTHING", [water]);
    await refreshMonthEnds(t.db, NOW);
    const live = (await load())[0]!.Row.Kinds.find((k) => k.Kind === 'coldWater')!;
    expect(live.Current).toMatchObject({ Value: 7, Partial: false });
    const shown = (await loadStatements(t.db, MONTH, { scope: null, parents: [buildingId] }))[0]!;
    const frozen = shown.Row.Kinds.find((k) => k.Kind === 'coldWater')!;
    expect(frozen.Current.Value).not.toBe(7);
    expect(frozen.Current.Partial).toBe(true);

    const diff = await statementDifference(t.db, MONTH, { scope: null, parents: [buildingId] });
    expect(diff.Published).toBe(1);
    expect(diff.Changes).toEqual([
      expect.objectContaining({
        FlatId: flats[0]!.id,
        Kind: 'coldWater',
        Field: 'Current',
        Published: frozen.Current.Value,
        Live: 7,
      }),
    ]);

    const again = await publishStatements(t.db, caller, MONTH, [buildingId], false, PUBLICATION_FOLLOWERS);
    expect(again).toMatchObject({ Buildings: 1, Republished: 1 });
    expect(again.Changes).toHaveLength(1);
    const after = (await loadStatements(t.db, MONTH, { scope: null, parents: [buildingId] }))[0]!;
    expect(after.Row.Published?.Version).toBe(2);
    expect(after.Row.Kinds.find((k) => k.Kind === 'coldWater')!.Current.Value).toBe(7);

    const { rows: audit } = await t.db.query<{ after: { Version: number; ChangedFigures?: number } }>(
      "SELECT after FROM audit_log WHERE kind = 'statement.publish' AND entity_id = $1 ORDER BY id",
      [String(buildingId)],
    );
    expect(audit.map((a) => a.after.Version)).toEqual([1, 2]);
    expect(audit[1]!.after.ChangedFigures).toBe(1);
  });

  it('gives the figures alone as the statements’ rows, published or not, and a kind seen only mid-year', async () => {
    // Hot water in flat 3 only from 2025-12 to 2026-03: none of M − 12, M − 1 and M, yet the statement shows the kind.
    const hot = await makeDevice(t.db, flats[2]!.id, {
      typeId: DEVICE_TYPE.hotWaterMeter,
      installedAt: '2025-12-01T00:00:00+02:00',
      removedAt: '2026-03-15T00:00:00+02:00',
    });
    await makeReadings(t.db, hot, [
      ['2025-12-01T10:00:00+02:00', 1],
      ['2026-03-14T10:00:00+02:00', 9],
    ]);
    const live = await computeStatements(t.db, MONTH, { scope: null, parents: [buildingId] });
    const third = live.find((s) => s.Row.FlatId === flats[2]!.id)!;
    expect(third.Row.Kinds.find((k) => k.Kind === 'hotWater')).toMatchObject({ Devices: 0, Current: { Value: null } });
    expect(await computeRows(t.db, MONTH, { scope: null, parents: [buildingId] })).toEqual(live.map((s) => s.Row));
    // Published (by the test before): the frozen rows, read without their history.
    const shown = await loadStatements(t.db, MONTH, { scope: null, parents: [buildingId] });
    expect(shown[0]!.Row.Published).not.toBeNull();
    expect(await statementRows(t.db, MONTH, { scope: null, parents: [buildingId] })).toEqual(shown.map((s) => s.Row));
  });

  it('shows Qrad, never invented kWh, in a building without a building heat meter', async () => {
    const building = await makeBuilding(t.db, { city: 'Šiauliai', street: 'Vilniaus g.', number: '9' });
    const flat = await makeFlat(t.db, building, { name: '1' });
    const id = await makeDevice(t.db, flat, {
      typeId: DEVICE_TYPE.allocator,
      ratingFactor: 2,
      installedAt: '2025-01-01T00:00:00+02:00',
    });
    await makeReadings(t.db, id, [
      ['2026-09-30T23:00:00+03:00', 10],
      ['2026-10-31T22:00:00+02:00', 25],
    ]);
    await refreshMonthEnds(t.db, NOW);
    const [st] = await computeStatements(t.db, MONTH, { scope: null, parents: [building.id] });
    const k = st!.Row.Kinds[0]!;
    expect(k).toMatchObject({
      Kind: 'heating',
      Unit: 'Qrad',
      Units: 15,
      Qrad: 30,
      KwhMethod: 'noBuildingMeter',
      BuildingKwh: null,
    });
    expect(k.Current.Value).toBe(30);
  });
});
