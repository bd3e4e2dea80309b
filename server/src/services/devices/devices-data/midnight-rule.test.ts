import { DEVICE_TYPE, type ReadingRow } from '@rodmenys/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dbKind, TEST_TIME_ZONE, useDb } from '../../../test/db.js';
import { makeBuilding, makeDevice, makeFlat } from '../../../test/factories.js';
import { computeMonthEnds } from '../../data-quality/month-ends.js';
import { DevicesDataCaches, getDevicesDataJson } from './index.js';

// The midnight rule (docs/domain.md §5): a reading stamped exactly at a day's 00:00 in the provider's zone
// ends the day before and starts that day, so periods chain. Checked on random reading series with
// readings exactly at midnight (and a second either side), across the DST changes of Europe/Vilnius
// (last Sunday of March: a 23-hour day; of October: a 25-hour day), month boundaries, a replacement and
// a removal, each possibly exactly at midnight.

/** A window of days around a DST change, holding one whole month (`month`) and its two month ends. */
const WINDOWS = [
  { first: '2026-02-26', days: 37, month: '2026-03-01', before: '2026-02-01' },
  { first: '2026-09-28', days: 37, month: '2026-10-01', before: '2026-09-01' },
] as const;

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** The last day of the month starting on `month` (YYYY-MM-01). */
const lastDay = (month: string) => addDays(`${addDays(month, 32).slice(0, 8)}01`, -1);

/** A reading: the day (offset in the window) and seconds after its local 00:00 (0: exactly midnight). */
const readingAt = fc.record({
  day: fc.integer({ min: 0, max: 36 }),
  at: fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.constantFrom(1, 86_399, 82_800, 90_000 - 1) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 89_999 }) },
  ),
  // Mostly rising, now and then a reset or a wrong reading.
  step: fc.oneof(
    { weight: 9, arbitrary: fc.integer({ min: 0, max: 40 }) },
    { weight: 1, arbitrary: fc.integer({ min: -500, max: -1 }) },
  ),
});
const series = fc.array(readingAt, { minLength: 0, maxLength: 14 });
/** A moment in the window as (day, seconds): a removal or a replacement. */
const moment = fc.record({
  day: fc.integer({ min: 0, max: 36 }),
  at: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 86_399 })),
});

const world = fc.record({
  window: fc.constantFrom(...WINDOWS),
  plain: series,
  other: series,
  replaced: fc.record({ before: series, after: series, at: moment }),
  removed: fc.record({ readings: series, at: moment }),
  // Days a <= b < c of the window.
  days: fc
    .uniqueArray(fc.integer({ min: 0, max: 36 }), { minLength: 2, maxLength: 3 })
    .map((xs) => [...xs].sort((x, y) => x - y))
    .map((xs) => (xs.length === 2 ? [xs[0]!, xs[0]!, xs[1]!] : [xs[0]!, xs[1]!, xs[2]!]) as [number, number, number]),
});
type World = typeof world extends fc.Arbitrary<infer W> ? W : never;

describe(`The midnight rule: periods chain, and month ends equal GetDevicesData (${dbKind()})`, () => {
  const t = useDb();
  let runs = 0;

  /** `day` 00:00 in the provider's zone plus `at` seconds, as timestamptz text (DST-correct). */
  const instant = async (first: string, m: { day: number; at: number }) =>
    (
      await t.db.query<{ ts: string }>(
        `SELECT iso(($1::date::timestamp AT TIME ZONE $2) + make_interval(secs => $3)) AS ts`,
        [addDays(first, m.day), TEST_TIME_ZONE, m.at],
      )
    ).rows[0]!.ts;

  /** Stores a series as readings of the device (cumulative values; a later duplicate time is dropped). */
  const store = async (id: number, first: string, xs: World['plain'], extra: Array<[string, number]> = []) => {
    let value = 1000;
    const rows: Array<[string, number]> = [...extra];
    for (const x of xs) {
      value += x.step;
      rows.push([await instant(first, x), value]);
    }
    await t.db.query(
      `INSERT INTO reading (device_id, ts, value)
       SELECT $1, u.ts, u.value FROM unnest($2::timestamptz[], $3::numeric[]) AS u(ts, value) ON CONFLICT DO NOTHING`,
      [id, rows.map((r) => r[0]), rows.map((r) => r[1])],
    );
  };

  /** Builds the world: one flat with four allocators (one replaced by a fifth, one removed); returns the flat. */
  const build = async (w: World) => {
    runs += 1;
    const building = await makeBuilding(t.db, { street: `Chain ${runs}` });
    const flat = await makeFlat(t.db, building, { name: '1' });
    const first = w.window.first;
    const typeId = DEVICE_TYPE.allocator;
    const plain = await makeDevice(t.db, flat, { typeId, ratingFactor: 1 });
    await store(plain, first, w.plain);
    const other = await makeDevice(t.db, flat, { typeId, ratingFactor: 1 });
    await store(other, first, w.other);
    // A replacement: the old device's final reading and the new one's initial reading at the same instant.
    const at = await instant(first, w.replaced.at);
    const newer = await makeDevice(t.db, flat, { typeId, ratingFactor: 1, installedAt: at });
    const old = await makeDevice(t.db, flat, { typeId, ratingFactor: 1, removedAt: at });
    await t.db.query('UPDATE device SET replaced_by = $2 WHERE id = $1', [old, newer]);
    await store(old, first, w.replaced.before, [[at, 5000]]);
    await store(newer, first, w.replaced.after, [[at, 3]]);
    const removedAt = await instant(first, w.removed.at);
    const removed = await makeDevice(t.db, flat, { typeId, ratingFactor: 1, removedAt });
    await store(removed, first, w.removed.readings, [[removedAt, 7000]]);
    return { flat: flat.id, devices: [plain, other, old, newer, removed] };
  };

  /** GetDevicesData for the flat and days `from`..`till`: each device's Difference and the flat's total (absent or null: 0). */
  const period = async (flat: number, from: string, till: string) => {
    const { json } = await getDevicesDataJson(
      t.db,
      {
        deviceTypeId: DEVICE_TYPE.allocator,
        range: { from, till },
        scope: null,
        parents: [flat],
        timeZone: TEST_TIME_ZONE,
      },
      new DevicesDataCaches(),
    );
    const rows = JSON.parse(json.toString()) as ReadingRow[];
    return {
      device: new Map(rows.map((r) => [r.DeviceId, r.Difference ?? 0])),
      flat: rows[0]?.FlatDifference ?? 0,
    };
  };
  const close = (x: number, y: number) => Math.abs(x - y) < 1e-9;

  it('consumption(a..b) + consumption(b+1..c) = consumption(a..c), per device and for the flat', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const { flat, devices } = await build(w);
        const [a, b, c] = w.days.map((d) => addDays(w.window.first, d)) as [string, string, string];
        const ab = await period(flat, a, b);
        const bc = await period(flat, addDays(b, 1), c);
        const ac = await period(flat, a, c);
        for (const id of devices) {
          const sum = (ab.device.get(id) ?? 0) + (bc.device.get(id) ?? 0);
          if (!close(sum, ac.device.get(id) ?? 0)) {
            throw new Error(`device ${id}: ${a}..${b} + ..${c} = ${sum}, ${a}..${c} = ${ac.device.get(id)}`);
          }
        }
        expect(ab.flat + bc.flat).toBeCloseTo(ac.flat, 9);
      }),
      { seed: 20261126, numRuns: 40, endOnFailure: true },
    );
  });

  it("a month's consumption from its measured month ends equals GetDevicesData for that month", async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const { flat, devices } = await build(w);
        // A wide tolerance: every month end with a reading at or before it is measured.
        const settings = { 'monthEnd.toleranceDays': 60 };
        await computeMonthEnds(t.db, w.window.before, devices, settings);
        await computeMonthEnds(t.db, w.window.month, devices, settings);
        const { rows } = await t.db.query<{ device_id: number; cons: number }>(
          `SELECT e.device_id, (e.value - s.value)::float8 AS cons
             FROM month_end e JOIN month_end s ON s.device_id = e.device_id AND s.month = $2::date
            WHERE e.device_id = ANY ($1::int[]) AND e.month = $3::date AND e.source = 'measured' AND s.source = 'measured'`,
          [devices, w.window.before, w.window.month],
        );
        const days = await period(flat, w.window.month, lastDay(w.window.month));
        for (const r of rows) {
          compared += 1;
          if (!close(r.cons, days.device.get(r.device_id) ?? Number.NaN)) {
            throw new Error(
              `device ${r.device_id}: month ends ${r.cons}, GetDevicesData ${days.device.get(r.device_id)}`,
            );
          }
        }
      }),
      { seed: 20261127, numRuns: 30, endOnFailure: true },
    );
    // Not vacuous: most worlds have devices measured at both month ends.
    expect(compared).toBeGreaterThan(30);
  });
});
