import { DEVICE_TYPE } from '@rodmenys/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeOccupancy, makeReadings } from '../../test/factories.js';
import { computeMonthEnds, computeMonthEndsBackward } from '../data-quality/month-ends.js';
import { loadSettings } from '../settings.js';
import { computeMoveValues } from './move-values.js';

// The moving-day value (docs/occupancies.md): a cumulative register never falls, so whatever the source,
// the value at D 00:00 lies between the readings around D (never below the latest reading at or before D,
// never above the earliest after it) and between the month ends around D. Checked on random rising reading
// series (sparse, so most values are estimated), with the month ends computed up to a random month (D's
// month end present or not yet), and a neighbour of the same type whose consumption the month-end
// estimates may borrow (docs/data-quality.md).

const MONTHS = ['2025-12-01', '2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01'] as const;
const FIRST = Date.parse('2025-12-10T00:00:00Z');
const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const world = fc.record({
  // Reading times: seconds after FIRST, over about four and a half months.
  readings: fc.array(
    fc.record({ at: fc.integer({ min: 0, max: 140 * 86_400 }), step: fc.integer({ min: 0, max: 300 }) }),
    { minLength: 1, maxLength: 8 },
  ),
  start: fc.integer({ min: 0, max: 10_000 }),
  // The moving day: a day of February or March.
  move: fc.integer({ min: 0, max: 58 }).map((n) => dayOf(Date.parse('2026-02-01T00:00:00Z') + n * DAY)),
  // The month ends computed so far: up to the month before D's, D's, or every one.
  computedUpTo: fc.constantFrom('before', 'same', 'all'),
  neighbourSteps: fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 6, maxLength: 6 }),
});
type World = typeof world extends fc.Arbitrary<infer W> ? W : never;

describe(`moving-day values (${dbKind()})`, () => {
  const t = useDb();

  async function build(w: World) {
    const building = await makeBuilding(t.db);
    const flat = await makeFlat(t.db, building);
    const device = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter });
    const times = [...new Set(w.readings.map((r) => r.at))].sort((a, b) => a - b);
    let value = w.start;
    const readings = times.map((at, i) => {
      value += w.readings[i]!.step;
      return [new Date(FIRST + at * 1000).toISOString(), value] as const;
    });
    await makeReadings(t.db, device, readings);
    // A neighbour read at every month end: the building's average consumption of the type.
    const neighbourFlat = await makeFlat(t.db, building);
    const neighbour = await makeDevice(t.db, neighbourFlat, { typeId: DEVICE_TYPE.coldWaterMeter });
    const neighbourValues = w.neighbourSteps.map((_, i) => w.neighbourSteps.slice(0, i + 1).reduce((a, b) => a + b));
    await makeReadings(
      t.db,
      neighbour,
      [...MONTHS, '2026-05-01'].map((m, i) => [`${m}T00:00:00+02:00`, neighbourValues[i]!] as const),
    );
    const dMonth = `${w.move.slice(0, 7)}-01`;
    const last = MONTHS.indexOf(dMonth as (typeof MONTHS)[number]) + (w.computedUpTo === 'before' ? -1 : 0);
    const months = w.computedUpTo === 'all' ? [...MONTHS] : MONTHS.slice(0, last + 1);
    const settings = await loadSettings(t.db);
    for (const m of months) await computeMonthEnds(t.db, m, [device, neighbour], settings);
    for (const m of [...months].reverse()) await computeMonthEndsBackward(t.db, m, [device, neighbour]);
    await makeOccupancy(t.db, flat, { moveOut: w.move });
    await makeOccupancy(t.db, flat, { moveIn: w.move });
    await computeMoveValues(t.db, { flatIds: [flat.id] });
    return { device, readings, dMonth };
  }

  it('lies between the readings and the month ends around D, whatever the source', async () => {
    const sources = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const { device, readings, dMonth } = await build(w);
        const { rows } = await t.db.query<{ value: number; source: string; method: string | null; e: string }>(
          `SELECT value::float8 AS value, source, method, (day::timestamp::timestamptz)::text AS e
             FROM move_value WHERE device_id = $1 AND day = $2::date`,
          [device, w.move],
        );
        const { rows: ends } = await t.db.query<{ month: string; value: number }>(
          `SELECT month::text AS month, value::float8 AS value FROM month_end
            WHERE device_id = $1 AND month IN (($2::date - interval '1 month')::date, $2::date)`,
          [device, dMonth],
        );
        const mv = rows[0];
        if (!mv) return;
        const key = `${mv.source}/${mv.method ?? ''}`;
        sources.set(key, (sources.get(key) ?? 0) + 1);
        const e = Date.parse(mv.e);
        const before = readings.filter(([ts]) => Date.parse(ts) <= e).at(-1)?.[1] ?? -Infinity;
        const after = readings.find(([ts]) => Date.parse(ts) > e)?.[1] ?? Infinity;
        const pme = ends.find((x) => x.month !== dMonth)?.value ?? -Infinity;
        const nme = ends.find((x) => x.month === dMonth)?.value ?? Infinity;
        const low = Math.max(before, pme);
        const high = Math.min(after, nme);
        if (mv.value < low - 1e-9 || mv.value > high + 1e-9) {
          throw new Error(
            `${key} value ${mv.value} at ${w.move} outside [${low}, ${high}] ` +
              `(reading before ${before}, after ${after}; month end before ${pme}, of D's month ${nme})`,
          );
        }
      }),
      { seed: 20261127, numRuns: 60, endOnFailure: true },
    );
    // The estimates, the point of the property, were among the values checked.
    expect(sources.get('estimated/carried_forward')).toBeGreaterThan(3);
    expect(sources.get('estimated/month_end_prorated')).toBeGreaterThan(3);
  }, 240_000);
});
