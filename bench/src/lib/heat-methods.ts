import { type HeatMethodBody, LOCATION_LEVEL, type StatementRow } from '@rodmenys/contract';
import type { Db } from '@rodmenys/server/db/db.js';
import { writeHeatMethodVersion } from '@rodmenys/server/services/heat-methods/heat-methods.js';
import { summarise, type Timing, timed } from './stats.js';

/*
 * bench:statements' heat-method step (docs/heat-method.md): the figures of every flat before any building
 * has a method and after every other building has one with every part (norm hot water and circulation, a
 * season starting on the month's 15th, common and base shares, position factors, circulation classes and
 * k_min 0.4), the rest a version `none` (the plain rule). The flats of the `none` buildings must have the
 * very figures they had before, else a failure.
 */

const heating = (r: StatementRow) => r.Kinds.find((k) => k.Kind === 'heating');

/**
 * A method with every part, its season from the month's 15th; the flats' own parameters on two of them.
 * The dataset's building meters measure little in October (its heat follows a cosine of the year), far
 * less than 51 kWh per m³ of its hot water: q and the circulation norm are scaled down to keep it split.
 */
export const heatMethodBody = (month: string, flats: number[]): HeatMethodBody => ({
  HotWaterHeat: 'norm',
  KwhPerM3: 0.5,
  CirculationNorm: 1,
  HotWaterTemperature: 60,
  DistrictHeat: true,
  Seasons: [{ From: `${month}-15`, To: null }],
  CommonShare: 0.05,
  BaseShare: 0.3,
  MinimumShare: 0.4,
  Flats: [
    ...(flats[0] ? [{ FlatId: flats[0], PositionFactor: 1.2, CirculationClass: null }] : []),
    ...(flats[1] ? [{ FlatId: flats[1], PositionFactor: 1, CirculationClass: 160 }] : []),
  ],
});
export const NONE_METHOD: HeatMethodBody = { ...heatMethodBody('2000-01', []), HotWaterHeat: null, Seasons: [] };

export interface HeatMethodResult {
  before: Timing;
  after: Timing;
  flats: number;
  withMethod: number;
  buildings: Record<'split' | 'unbalanced' | 'incomplete', number>;
  /** Unbalanced buildings by reason. */
  reasons: Record<string, number>;
  raised: number;
  failures: string[];
}

/**
 * Gives every flat without one a floor area (the common part's key; before the baseline, so that both
 * sides have it), times `url` (the figures of the flats), sets the methods, times it again and compares.
 */
export async function heatMethodStep(
  db: Db,
  month: string,
  get: (url: string) => Promise<string>,
  url: string,
  runs: number,
): Promise<HeatMethodResult> {
  await db.query(
    `UPDATE location SET area_m2 = 40 + (id % 7) * 9.5 WHERE level = ${LOCATION_LEVEL.flat} AND area_m2 IS NULL`,
  );
  const rowsOf = async () => (JSON.parse(await get(url)) as { Rows: StatementRow[] }).Rows;
  const baseline = new Map((await rowsOf()).map((r) => [r.FlatId, JSON.stringify(r)]));
  const before: number[] = [];
  for (let i = 0; i < runs; i++) before.push((await timed(() => get(url))).ms);

  const { rows: buildings } = await db.query<{ id: number; flats: number[] }>(
    `SELECT b.id, array_agg(f.id ORDER BY f.id) AS flats FROM location b
       JOIN location f ON f.parent_id = b.id AND f.level = ${LOCATION_LEVEL.flat}
      WHERE b.level = ${LOCATION_LEVEL.building} GROUP BY b.id ORDER BY b.id`,
  );
  const none = new Set<number>();
  for (const [i, b] of buildings.entries()) {
    if (i % 2) none.add(b.id);
    await writeHeatMethodVersion(
      db,
      null,
      { id: b.id, path: String(b.id) },
      month,
      i % 2 ? NONE_METHOD : heatMethodBody(month, b.flats),
    );
  }
  await db.exec('ANALYZE building_heat_method');
  const rows = await rowsOf();
  const after: number[] = [];
  for (let i = 0; i < runs; i++) after.push((await timed(() => get(url))).ms);

  const failures: string[] = [];
  const counted = { split: 0, unbalanced: 0, incomplete: 0 };
  const reasons: Record<string, number> = {};
  const seen = new Set<number>();
  let raised = 0;
  let withMethod = 0;
  for (const r of rows) {
    if (none.has(r.BuildingId)) {
      if (baseline.get(r.FlatId) !== JSON.stringify(r)) failures.push(`flat ${r.FlatId}: method none, other figures`);
      continue;
    }
    withMethod++;
    const k = heating(r);
    if ((k?.HeatParts?.Assigned ?? 0) > 0) raised++;
    if (k?.HeatBalance && !seen.has(r.BuildingId)) {
      seen.add(r.BuildingId);
      counted[k.HeatBalance.Status as keyof typeof counted]++;
      const why = k.HeatBalance.Reason;
      if (why) reasons[why] = (reasons[why] ?? 0) + 1;
    }
  }
  if (rows.length !== baseline.size) failures.push(`${rows.length} rows after, ${baseline.size} before`);
  return {
    before: summarise(before),
    after: summarise(after),
    flats: rows.length,
    withMethod,
    buildings: counted,
    reasons,
    raised,
    failures,
  };
}

type Add = (step: string, t: Timing, aim: string, detail: string) => void;

/** The step's two rows of the bench's table, its failures added to `failures`. */
export async function heatMethodRows(
  db: Db,
  month: string,
  get: (url: string) => Promise<string>,
  url: string,
  runs: number,
  add: Add,
  failures: string[],
) {
  const h = await heatMethodStep(db, month, get, url, runs);
  failures.push(...h.failures.map((f) => `heat method: ${f}`));
  const b = h.buildings;
  add('the same figures, before any heat method (every flat with an area)', h.before, '1 s', `${h.flats} flats`);
  add(
    'the same, every other building by a heat method, the rest by a version "none"',
    h.after,
    '1 s',
    `${h.withMethod} flats by a method (buildings: ${b.split} split, ${b.unbalanced} unbalanced ` +
      `${JSON.stringify(h.reasons)}, ` +
      `${b.incomplete} incomplete; ${h.raised} flats raised to the minimum); ` +
      (h.failures.length ? `FAILED: ${h.failures.length} "none" flats differ` : 'the "none" flats as before'),
  );
}
