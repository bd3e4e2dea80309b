import {
  DEVICE_TYPE,
  type FlatOccupancyStatement,
  type FlatStatement,
  LOCATION_LEVEL,
  type MonthEndSource,
  type OccupancyKindFigures,
  type OccupancyStatement,
  type StatementFigure,
  type StatementKindFigures,
  type StatementRow,
} from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { inScope } from '../sql.js';
import { computeRows } from './figures.js';
import { type DeviceBounds, loadDeviceBounds, type Segment, segmentSums, type ValueAt } from './occupancy-devices.js';
import { splitHeatParts } from './occupancy-heat-parts.js';
import { storedStatement } from './snapshots.js';

/*
 * A flat's month split between its occupants (docs/occupancies.md): each occupancy's days of the
 * month, valued from the month ends at the month's bounds and the moving-day values inside it.
 */

const NOT_MEASURED: ReadonlySet<string> = new Set(['interpolated', 'estimated', 'manual']);

/** Ten-thousandths: readings have 4 decimals, so differences add up exactly. */
const units4 = (v: string) => Math.round(Number(v) * 10_000);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The month after `month` (YYYY-MM). */
const nextMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};

/** Splits a total (thousandths) in proportion to weights, the last share taking the remainder. */
function shareOf(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const out = weights.map((w) => (sum === 0 ? 0 : Math.round((total * w) / sum)));
  out[out.length - 1] = total - out.slice(0, -1).reduce((a, b) => a + b, 0);
  return out;
}

/**
 * The statements of a flat's occupants for month M (docs/occupancies.md): one per occupancy that
 * lived there on a day of M, for its days. A device's consumption on an occupant's days is its
 * value at the end of their days minus the one at the start: the month ends at the month's bounds,
 * the moving-day value at a move (before a device's installation or after its removal, its value
 * there). Each kind's figures are rounded so the occupants' add up to the flat's to the
 * thousandth; allocators' kWh are the flat's shared by the occupants' units. The month before and
 * last year's are compared only when the occupancy covered the whole of that month. 404 when the
 * caller may not see the flat.
 */
export async function occupancyStatements(
  db: Queryable,
  month: string,
  flatId: number,
  scope: number[] | null,
): Promise<{ Month: string; FlatId: number; Occupancies: OccupancyStatement[] }> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM location l WHERE l.id = $1 AND l.level = ${LOCATION_LEVEL.flat} AND ${inScope('l', '$2')}`,
    [flatId, scope],
  );
  if (!rowCount) throw notFound('flatNotFound');
  // A published month answers what was published: the frozen split, else the published flat's figures split.
  const { rows: snap } = await db.query<{
    statement: FlatStatement | string;
    occupancies: OccupancyStatement[] | string | null;
  }>(
    `SELECT s.statement - 'History' AS statement, s.occupancies FROM statement_snapshot s
       JOIN statement_publication p ON p.id = s.publication_id
      WHERE s.flat_id = $1 AND p.month = $2::date ORDER BY p.version DESC LIMIT 1`,
    [flatId, `${month}-01`],
  );
  const frozen = snap[0]?.occupancies;
  if (frozen)
    return {
      Month: month,
      FlatId: flatId,
      Occupancies: storedOccupancies(frozen),
    };
  // The split needs the flat's row only: M − 12, M − 1 and M computed, not the 13 months of its history.
  const row = snap[0]
    ? storedStatement(snap[0].statement).Row
    : (await computeRows(db, month, { flatIds: [flatId], scope: null }))[0];
  return { Month: month, FlatId: flatId, Occupancies: row ? await splitOccupancies(db, month, flatId, row) : [] };
}

/** The flat's month (`row`: its statement's row, live or published) split between its occupancies of the month. */
export async function splitOccupancies(
  db: Queryable,
  month: string,
  flatId: number,
  row: Pick<StatementRow, 'Kinds'>,
): Promise<OccupancyStatement[]> {
  return (await splitFlats(db, month, [{ FlatId: flatId, Kinds: row.Kinds }], false)).get(flatId) ?? [];
}

/**
 * The splits of the flats among `rows` (their statements' rows, live or published) that had more than
 * one occupant in month M, by flat: one query for the occupancies of every flat, one for the devices of
 * those with a move, whatever their number (the Statements page of 5,000 flats, publishing).
 */
export function splitMoves(
  db: Queryable,
  month: string,
  rows: readonly Pick<StatementRow, 'FlatId' | 'Kinds'>[],
): Promise<Map<number, OccupancyStatement[]>> {
  return splitFlats(db, month, rows, true);
}

/**
 * The occupants' parts of the flats of a selection's figures (docs/occupancies.md), in the rows' order:
 * a published flat's frozen split, else its row (live or published) split now; only flats with more than
 * one occupant in the month (a frozen split always has more than one). `inputs`: loadSplitInputs(…, true)
 * of these flats or more, started before the rows were known (figures-answer.ts).
 */
export async function figuresOccupancies(
  db: Queryable,
  month: string,
  rows: readonly StatementRow[],
  inputs?: Promise<SplitInputs>,
): Promise<FlatOccupancyStatement[]> {
  const byFlat = await occupanciesOfRows(db, month, rows, {}, inputs);
  return rows.flatMap((r) =>
    (byFlat.get(r.FlatId) ?? []).map((o): FlatOccupancyStatement => ({ FlatId: r.FlatId, ...o })),
  );
}

/**
 * The occupants' parts of `rows`' flats (their statements' rows as shown: live, or the published version),
 * by flat, in at most three queries whatever the number of flats: a published flat's frozen split, else its
 * row split now. Only flats with more than one occupant in the month, unless `everyOccupied` (then a flat
 * with one occupant gets its one part too, as `occupancyStatements` answers it).
 */
export async function occupanciesOfRows(
  db: Queryable,
  month: string,
  rows: readonly StatementRow[],
  { everyOccupied = false }: { everyOccupied?: boolean } = {},
  inputs?: Promise<SplitInputs>,
): Promise<Map<number, OccupancyStatement[]>> {
  if (!rows.length) return new Map();
  const frozen = await frozenOfRows(db, month, rows);
  const splits = await splitFlats(
    db,
    month,
    rows.filter((r) => !frozen.has(r.FlatId)),
    !everyOccupied,
    inputs,
  );
  return new Map([...frozen, ...splits]);
}

/** The splits frozen with the published versions the rows show (`Row.Published`), by flat. */
async function frozenOfRows(
  db: Queryable,
  month: string,
  rows: readonly StatementRow[],
): Promise<Map<number, OccupancyStatement[]>> {
  const published = rows.filter((r) => r.Published);
  if (!published.length) return new Map();
  const { rows: stored } = await db.query<{ flat_id: number; occupancies: OccupancyStatement[] | string }>(
    `SELECT s.flat_id, s.occupancies FROM statement_snapshot s
       JOIN statement_publication p ON p.id = s.publication_id
       JOIN unnest($1::int[], $2::int[], $3::int[]) AS w(flat_id, building_id, version)
         ON w.flat_id = s.flat_id AND w.building_id = p.building_id AND w.version = p.version
      WHERE p.month = $4::date AND s.occupancies IS NOT NULL`,
    [
      published.map((r) => r.FlatId),
      published.map((r) => r.Published!.BuildingId),
      published.map((r) => r.Published!.Version),
      `${month}-01`,
    ],
  );
  return new Map(stored.map((r) => [r.flat_id, storedOccupancies(r.occupancies)]));
}

/**
 * A frozen split as stored (jsonb, parsed or not by the driver). Splits frozen before the overdue
 * devices, the late declarations or the occupants' heat parts existed get none (what was published is shown, nothing added).
 */
function storedOccupancies(stored: OccupancyStatement[] | string): OccupancyStatement[] {
  const os = typeof stored === 'string' ? (JSON.parse(stored) as OccupancyStatement[]) : stored;
  return os.map((o) => ({
    ...o,
    Kinds: o.Kinds.map((k) => ({
      ...k,
      Overdue: k.Overdue ?? [],
      LateDeclarations: k.LateDeclarations ?? [],
      HeatParts: k.HeatParts ?? null,
    })),
  }));
}

/** What splitting flats reads: their occupancies of month M as segments, and the devices of those split. */
export interface SplitInputs {
  segments: Map<number, Segment[]>;
  devices: Map<number, DeviceBounds[]>;
}

/**
 * The occupancies of month M of `flatIds` (every flat with one, or only those with more than one:
 * `onlyMoves`) and the devices of those flats: two queries for all of them.
 */
export async function loadSplitInputs(
  db: Queryable,
  month: string,
  flatIds: readonly number[],
  onlyMoves: boolean,
): Promise<SplitInputs> {
  if (!flatIds.length) return { segments: new Map(), devices: new Map() };
  const { rows: segments } = await db.query<Segment>(
    `WITH p AS (SELECT $2::date AS s, ($2::date + interval '1 month')::date AS e,
                       ($2::date - interval '1 month')::date AS prev, ($2::date - interval '12 months')::date AS ly),
     o AS (SELECT o.*, count(*) OVER (PARTITION BY o.location_id) AS n
             FROM occupancy o, p
            WHERE o.location_id = ANY ($1::int[])
              AND coalesce(o.move_in, '-infinity') < p.e AND coalesce(o.move_out, 'infinity') > p.s)
     SELECT o.location_id AS flat_id, o.id, c.code AS client_code, o.name,
            greatest(coalesce(o.move_in, p.s), p.s)::text AS from, least(coalesce(o.move_out, p.e), p.e)::text AS till,
            coalesce(o.move_in, '-infinity') <= p.prev AND coalesce(o.move_out, 'infinity') >= p.s AS whole_previous,
            coalesce(o.move_in, '-infinity') <= p.ly
              AND coalesce(o.move_out, 'infinity') >= (p.ly + interval '1 month')::date AS whole_last_year
       FROM o JOIN client c ON c.id = o.client_id, p
      WHERE o.n > $3
      ORDER BY o.location_id, o.move_in NULLS FIRST`,
    [flatIds, `${month}-01`, onlyMoves ? 1 : 0],
  );
  const byFlat = groupBy(segments, (s) => s.flat_id);
  const devices = byFlat.size
    ? groupBy(await loadDeviceBounds(db, [...byFlat.keys()], month), (d) => d.location_id)
    : new Map<number, DeviceBounds[]>();
  return { segments: byFlat, devices };
}

/**
 * The splits of `rows`' flats, by flat: every flat with an occupancy in M, or only those with more than
 * one (`onlyMoves`). Two queries for all of them, unless `inputs` (read already for these flats or more,
 * with the same `onlyMoves`).
 */
async function splitFlats(
  db: Queryable,
  month: string,
  rows: readonly Pick<StatementRow, 'FlatId' | 'Kinds'>[],
  onlyMoves: boolean,
  inputs?: Promise<SplitInputs>,
): Promise<Map<number, OccupancyStatement[]>> {
  const out = new Map<number, OccupancyStatement[]>();
  if (!rows.length) return out;
  const { segments, devices } = await (inputs ??
    loadSplitInputs(
      db,
      month,
      rows.map((r) => r.FlatId),
      onlyMoves,
    ));
  for (const r of rows) {
    const segs = segments.get(r.FlatId);
    if (segs) out.set(r.FlatId, splitOf(month, r.Kinds, segs, devices.get(r.FlatId) ?? []));
  }
  return out;
}

function groupBy<T>(items: readonly T[], key: (t: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** One flat's month (its kinds' figures `kinds`) split between its occupancies `segments`. */
function splitOf(
  month: string,
  kinds: readonly StatementKindFigures[],
  segments: readonly Segment[],
  devices: readonly DeviceBounds[],
): OccupancyStatement[] {
  const monthStart = `${month}-01`;
  const nextMonthStart = `${nextMonth(month)}-01`;
  const valueAt = (d: DeviceBounds, day: string): { v: number; source: MonthEndSource | null } | null => {
    const at = dayMs(day);
    const start = d.start_v === null ? null : { v: units4(d.start_v), source: d.start_source };
    const end = d.end_v === null ? null : { v: units4(d.end_v), source: d.end_source };
    if (day === monthStart) return start;
    if (day === nextMonthStart) return end;
    if (d.installed_ms !== null && at <= d.installed_ms) return start;
    if (d.removed_ms !== null && at >= d.removed_ms) return end;
    const m = d.moves?.[day];
    return m ? { v: units4(m.value), source: m.source } : null;
  };
  const hotWater = kinds.some((k) => k.Kind === 'hotWater')
    ? segmentSums([DEVICE_TYPE.hotWaterMeter], devices, segments, valueAt)
    : null;
  const perKind = kinds.map((k) => kindSegments(k, devices, segments, valueAt, hotWater));
  return segments.map((seg, i) => ({
    OccupancyId: seg.id,
    ClientCode: seg.client_code,
    Name: seg.name,
    From: seg.from,
    Till: new Date(dayMs(seg.till) - 86_400_000).toISOString().slice(0, 10),
    Days: segmentDays(seg),
    Kinds: kinds.map((k, j) => {
      const own = perKind[j]![i]!;
      return {
        Kind: k.Kind,
        Unit: k.Unit,
        Current: own.figure,
        Previous: seg.whole_previous ? k.Previous : null,
        PreviousMissing: seg.whole_previous ? null : ('otherOccupancy' as const),
        LastYear: seg.whole_last_year ? k.LastYear : null,
        LastYearMissing: seg.whole_last_year ? null : ('otherOccupancy' as const),
        BuildingAverage: k.BuildingAverage,
        Units: own.units,
        Qrad: own.qrad,
        Overdue: k.Overdue,
        LateDeclarations: k.LateDeclarations,
        HeatParts: own.heatParts,
      } satisfies OccupancyKindFigures;
    }),
  }));
}

/** The device types of a kind as the flat's statement counts them (a flat heat meter before allocators). */
function typesOf(k: StatementKindFigures): number[] {
  if (k.Kind === 'hotWater') return [DEVICE_TYPE.hotWaterMeter];
  if (k.Kind === 'coldWater') return [DEVICE_TYPE.coldWaterMeter];
  return k.KwhMethod === null ? [DEVICE_TYPE.heatMeter] : [DEVICE_TYPE.allocator];
}

/** Thousandths per segment, the last replaced by what the others leave of the total. */
function withRemainder(total: number, values: number[]): number[] {
  const out = [...values];
  out[out.length - 1] = total - out.slice(0, -1).reduce((a, b) => a + b, 0);
  return out;
}

const segmentDays = (seg: Segment) => Math.round((dayMs(seg.till) - dayMs(seg.from)) / 86_400_000);

/**
 * One kind's figures per segment: the flat's figure split so the segments add up to it exactly.
 * Heating by a heat method: its parts split (occupancy-heat-parts.ts), the figure being the space heating.
 */
function kindSegments(
  k: StatementKindFigures,
  devices: readonly DeviceBounds[],
  segments: readonly Segment[],
  valueAt: ValueAt,
  hotWater: ReturnType<typeof segmentSums> | null,
) {
  const types = typesOf(k);
  const isAllocator = types[0] === DEVICE_TYPE.allocator;
  const segs = segmentSums(types, devices, segments, valueAt);
  const heatParts =
    k.Kind === 'heating' && k.HeatParts
      ? splitHeatParts(
          k.HeatParts,
          segs.map((s, i) => ({
            days: segmentDays(segments[i]!),
            heating: s.missing ? null : s.units,
            hotWater: hotWater && !hotWater[i]!.missing ? hotWater[i]!.units : null,
          })),
        )
      : null;
  const flatValue = k.Current.Value;
  const incomplete = flatValue === null || segs.some((s) => s.missing);
  // Each segment's own figure in thousandths; allocators' kWh are the flat's shared by units. The last
  // segment takes what rounding leaves, so the occupants' figures add up to the flat's.
  const total = flatValue === null ? 0 : Math.round(flatValue * 1000);
  const own4 = segs.map((s) => (k.Unit === 'Qrad' ? s.qrad : s.units));
  const shares = incomplete
    ? null
    : isAllocator && k.Unit === 'kWh'
      ? shareOf(total, own4)
      : withRemainder(
          total,
          own4.map((v) => Math.round(v / 10)),
        );
  return segs.map((s, i) => {
    const parts = heatParts?.[i] ?? null;
    const figure: StatementFigure = {
      Value: parts ? parts.Space : shares ? shares[i]! / 1000 : null,
      Partial: s.sources.some((x) => NOT_MEASURED.has(x)),
      Incomplete: parts ? false : incomplete,
      Sources: s.sources,
    };
    return {
      figure,
      heatParts: parts,
      units: isAllocator && !s.missing ? Math.round(s.units / 10) / 1000 : null,
      qrad: isAllocator && !s.missing ? Math.round(s.qrad / 10) / 1000 : null,
    };
  });
}
