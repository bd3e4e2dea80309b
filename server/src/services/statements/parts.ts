import {
  DEVICE_ROLES,
  DEVICE_TYPE,
  DEVICE_TYPES,
  type DeviceRole,
  MONTH_END_SOURCES,
  type MonthEndSource,
  type StatementKind,
} from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { buildingIdOf } from '../sql.js';

/*
 * The parts behind every figure: per location (a flat, or a building for its heat meter), device
 * type group and month, the consumption read from the month-end values (docs/statements.md).
 */

/**
 * 'building': the building heat meter (the input); 'hotWaterInput' and 'hotWaterHeat': the
 * building-level devices of those roles (docs/heat-method.md, "Devices").
 */
export type PartKind = StatementKind | 'building' | DeviceRole;
export type PartProc = 'allocator' | 'energy' | 'volume';

/** One location's consumption of one device type group in one month. */
export interface Part {
  location_id: number;
  kind: PartKind;
  proc: PartProc;
  month: string;
  devices: number;
  value: number | null;
  qrad: number | null;
  /** The sources of the values behind it, sorted. */
  sources: MonthEndSource[];
  /** Some value behind it is interpolated, estimated or manual. */
  partial: boolean;
}

const NOT_MEASURED: ReadonlySet<string> = new Set(['interpolated', 'estimated', 'manual']);

const PROCS: readonly PartProc[] = ['allocator', 'energy', 'volume'];
/** Source bits below this (MONTH_END_SOURCES' bits) in a row's `n`. */
const BITS = 1 << MONTH_END_SOURCES.length;

/**
 * SQL: a group's month, type, role and proc as one integer `g` (docs/statements.md, "Figures of many flats":
 * two integers a row for the driver to parse, not seven values, two of them texts):
 * i·1024 + type·16 + role·4 + proc, the role its place in DEVICE_ROLES + 1 (0 none), the proc in PROCS.
 */
const GROUP_CODE = (i: string, type: string, role: string, proc: string) =>
  `${i} * 1024 + ${type} * 16 + CASE ${role} ${DEVICE_ROLES.map((r, k) => `WHEN '${r}' THEN ${(k + 1) * 4}`).join(' ')} ELSE 0 END` +
  ` + CASE ${proc} ${PROCS.map((p, k) => `WHEN '${p}' THEN ${k}`).join(' ')} END`;

// GROUP_CODE's fields must fit their bits, or two groups would share a code and their parts be added up:
// a device type below 64 (6 bits), at most 3 roles and 4 procs (2 bits each). A new type or role past that
// stops the server at start-up instead.
if (DEVICE_TYPES.some((t) => t >= 64) || DEVICE_ROLES.length > 3 || PROCS.length > 4)
  throw new Error('parts.ts GROUP_CODE: a device type, role or proc no longer fits its bits');

/** SQL: the bit of a month-end source in MONTH_END_SOURCES order, 0 for none. */
const SOURCE_BIT = (column: string) =>
  `CASE ${column} ${MONTH_END_SOURCES.map((source, i) => `WHEN '${source}' THEN ${1 << i}`).join(' ')} ELSE 0 END`;

/**
 * SQL: a device installed inside the month starts at its first reading, one removed inside it ends at its
 * last reading up to its removal; looked up only for those few (a subquery in CASE runs only when chosen).
 * `x`: the device-month's alias (id, installed_at, removed_at, e, from_start, to_end).
 */
const edgeReadings = (x: string) => `           CASE WHEN NOT ${x}.from_start THEN
             (SELECT r.value FROM reading r
               WHERE r.device_id = ${x}.id AND r.ts >= ${x}.installed_at AND r.ts <= ${x}.e
                 AND r.ts <= coalesce(${x}.removed_at, 'infinity')
               ORDER BY r.ts LIMIT 1) END AS ini_v,
           CASE WHEN NOT ${x}.to_end THEN
             (SELECT r.value FROM reading r
               WHERE r.device_id = ${x}.id AND r.ts <= ${x}.removed_at AND r.ts >= coalesce(${x}.installed_at, '-infinity')
               ORDER BY r.ts DESC LIMIT 1) END AS fin_v`;

/**
 * w (below) for `split`: the device-months in service with a pair, from the pairs; then those without
 * one (the anti-join); then the first or last reading of a device installed or removed inside the month.
 */
const SPLIT_W = `  ), wp AS (
    SELECT dev.location_id, dev.type, dev.role, dev.proc, m.i, dev.rating_factor, dev.id, dev.installed_at,
           dev.removed_at, m.e, coalesce(dev.installed_at, '-infinity') < m.s AS from_start,
           coalesce(dev.removed_at, 'infinity') >= m.e AS to_end,
           pair.start_value AS ms_v, pair.start_bit AS ms_bit, pair.end_value AS me_v, pair.end_bit AS me_bit
      FROM pair JOIN m ON m.month = pair.month JOIN dev ON dev.id = pair.device_id
     WHERE coalesce(dev.installed_at, '-infinity') < m.e AND coalesce(dev.removed_at, 'infinity') >= m.s
    UNION ALL
    SELECT dm.location_id, dm.type, dm.role, dm.proc, dm.i, dm.rating_factor, dm.id, dm.installed_at,
           dm.removed_at, dm.e, dm.from_start, dm.to_end, NULL, NULL, NULL, NULL
      FROM dm WHERE NOT EXISTS (SELECT FROM pair WHERE pair.device_id = dm.id AND pair.month = dm.month)
  ), w AS (
    SELECT wp.location_id, wp.type, wp.role, wp.proc, wp.i, wp.rating_factor, wp.from_start, wp.to_end,
           wp.ms_v, wp.ms_bit, wp.me_v, wp.me_bit,
${edgeReadings('wp')}
      FROM wp
`;

/** w (below) otherwise: every device-month in service, joined to its pair (materialised: see PARTS_BY_MONTH_MANY). */
const joinW = (materialized: boolean) => `  ), w AS ${materialized ? 'MATERIALIZED ' : ''}(
    -- A device in service the whole month: its two month ends. Installed or removed inside it: its
    -- first or last reading, looked up only for those few (a subquery in CASE runs only when chosen).
    SELECT dm.location_id, dm.type, dm.role, dm.proc, dm.i, dm.rating_factor, dm.from_start, dm.to_end,
           pair.start_value AS ms_v, pair.start_bit AS ms_bit, pair.end_value AS me_v, pair.end_bit AS me_bit,
${edgeReadings('dm')}
      FROM dm
      LEFT JOIN pair ON pair.device_id = dm.id AND pair.month = dm.month
`;

/**
 * Per device and month computed, the consumption: the month end of the month minus the one
 * before; a device installed inside the month starts at its first reading, one removed inside it
 * ends at its last reading up to its removal (as a readings period does, docs/domain.md §8).
 * Summed per location, kind and month. Every device of the buildings that hold a selected flat:
 * the building averages and the kWh sharing need the whole building.
 *
 * One row per location, device type and month computed (`i`, 1-based in $2); and, with `i` 0,
 * the location's device types in service in some month of M − 12 … M ($3 … $4) but in none of the
 * months computed (those have their rows): the kinds a statement shows need not compute every month. `byMonth` reads
 * the month ends month by month and joins them by hash (many buildings: a few pages a month),
 * else by key per device (a few buildings).
 *
 * `split` (many flats, a few months): the device-months with a pair are found from the pairs, joined by
 * hash to the devices and the months (a table of the buildings' devices, a few MB); those without one by an
 * anti-join on the pairs' keys (docs/statements.md, "Figures of many flats"). Else every device-month is
 * joined to its pair, which the planner does by hashing the device-months (wide rows, about 9 MB for every
 * flat) and probing them with every pair.
 */
const partsSql = (byMonth: boolean, materialized: boolean, split = false) => `WITH b AS (
    SELECT DISTINCT ${buildingIdOf('l')} AS id FROM location l WHERE l.id = ANY ($1::int[])
  ), m AS MATERIALIZED (
    -- Three or thirteen rows: their bounds computed once, not per device (a zone's conversion each).
    SELECT g.month, g.i::int AS i,
           g.month::timestamp::timestamptz AS s, (g.month + interval '1 month')::timestamp::timestamptz AS e
      FROM unnest($2::date[]) WITH ORDINALITY AS g(month, i)
  ), y AS MATERIALIZED (
    -- The months of M − 12 … M, their bounds computed once, not per device.
    SELECT g::timestamp::timestamptz AS s, (g + interval '1 month')::timestamp::timestamptz AS e
      FROM generate_series($3::date, $4::date, interval '1 month') g
  ), dev AS MATERIALIZED (
    -- The buildings' devices, planned on their own: a few hundred rows, found through the location index.
    SELECT d.id, d.device_type_id AS type, d.role, d.rating_factor, d.installed_at, d.removed_at, t.data_load_proc AS proc,
           l.id AS location_id
      FROM b JOIN location l ON ${buildingIdOf('l')} = b.id AND l.path @> ARRAY[b.id]
      JOIN device d ON d.location_id = l.id
      JOIN device_type t ON t.id = d.device_type_id
     WHERE d.device_type_id IN (${DEVICE_TYPES.join(', ')})
  ), dm AS (
    SELECT dev.*, m.i, m.month, m.s, m.e,
           coalesce(dev.installed_at, '-infinity') < m.s AS from_start,
           coalesce(dev.removed_at, 'infinity') >= m.e AS to_end
      FROM dev JOIN m ON coalesce(dev.installed_at, '-infinity') < m.e AND coalesce(dev.removed_at, 'infinity') >= m.s
  ), pair AS MATERIALIZED (
    -- The month ends' pairs of those devices in the months computed (docs/statements.md, "The month
    -- ends' pairs": one narrow row per device-month, not month_end joined twice); the sources as bits in
    -- MONTH_END_SOURCES order.
    SELECT x.device_id, x.month, x.start_value, ${SOURCE_BIT('x.start_source')} AS start_bit,
           x.end_value, ${SOURCE_BIT('x.end_source')} AS end_bit
      FROM ${byMonth ? 'month_end_pair x JOIN dev ON dev.id = x.device_id + 0 -- "+ 0": not by key per device' : 'dev JOIN month_end_pair x ON x.device_id = dev.id'}
     WHERE x.month = ANY ($2::date[])
${split ? SPLIT_W : joinW(materialized)}  ), v AS (
    -- g: grouped by two integers, not five keys two of them texts (a quarter less sorting).
    SELECT w.location_id, ${GROUP_CODE('w.i', 'w.type', 'w.role', 'w.proc')} AS g, w.rating_factor,
           CASE WHEN w.from_start THEN w.ms_v ELSE w.ini_v END AS start_v,
           CASE WHEN w.from_start THEN w.ms_bit WHEN w.ini_v IS NOT NULL THEN 1 END AS start_bit,
           CASE WHEN w.to_end THEN w.me_v ELSE w.fin_v END AS end_v,
           CASE WHEN w.to_end THEN w.me_bit WHEN w.fin_v IS NOT NULL THEN 1 END AS end_bit
      FROM w
  )
  SELECT v.location_id, v.g,
         -- The devices and the sources used, as bits (cheaper than distinct arrays per group): devices·BITS + bits.
         count(*)::int * ${BITS} + bit_or(coalesce(v.start_bit, 0) | coalesce(v.end_bit, 0)) AS n,
         CASE WHEN bool_and(v.end_v IS NOT NULL AND v.start_v IS NOT NULL)
              THEN sum(v.end_v - v.start_v)::float8 END AS value,
         CASE WHEN bool_and(v.end_v IS NOT NULL AND v.start_v IS NOT NULL AND v.rating_factor IS NOT NULL)
              THEN sum((v.end_v - v.start_v) * v.rating_factor)::float8 END AS qrad
    FROM v
   GROUP BY v.location_id, v.g
  UNION ALL
  -- The groups of the devices in service in some month of M − 12 … M but in none computed. A group with
  -- another device in service in a month computed has its rows above as well (Parts.has looks at those first).
  SELECT DISTINCT dev.location_id, ${GROUP_CODE('0', 'dev.type', 'dev.role', 'dev.proc')}, 0, NULL::float8, NULL::float8
    FROM dev
   WHERE EXISTS (SELECT FROM y WHERE coalesce(dev.installed_at, '-infinity') < y.e
                                   AND coalesce(dev.removed_at, 'infinity') >= y.s)
     AND NOT EXISTS (SELECT FROM m WHERE coalesce(dev.installed_at, '-infinity') < m.e
                                     AND coalesce(dev.removed_at, 'infinity') >= m.s)`;
/** The parts' statement's three shapes: by key per device (a few buildings), by month (many), by month for many months. */
export type PartsShape = 'byKey' | 'byMonth' | 'byMonthMany';
const PARTS_BY_KEY = partsSql(false, false);
const PARTS_BY_MONTH = partsSql(true, false, true);
/**
 * Many flats and months (publishing: a statement's 13), w materialised: 20 % less database time there
 * (every flat: 1.6 against 2.0 s), 15 % more for the figures' 3 months.
 */
const PARTS_BY_MONTH_MANY = partsSql(true, true);
const PARTS_STATEMENTS: Record<PartsShape, string> = {
  byKey: PARTS_BY_KEY,
  byMonth: PARTS_BY_MONTH,
  byMonthMany: PARTS_BY_MONTH_MANY,
};
const MANY_MONTHS = 6;
/** From this many flats (the selection's buildings' flats) on, month ends are read month by month. */
const BY_MONTH_FROM_FLATS = 1000;

/** A row of the parts' statement: `g` and `n` as GROUP_CODE and its `n` pack them. */
interface PartRow {
  location_id: number;
  g: number;
  n: number;
  value: number | null;
  qrad: number | null;
}

/** The statement kind of a device type ('building': the building heat meter) or its role. */
const kindOf = (type: number, role: DeviceRole | null): PartKind =>
  role !== null
    ? role
    : type === DEVICE_TYPE.buildingHeatMeter
      ? 'building'
      : type === DEVICE_TYPE.allocator || type === DEVICE_TYPE.heatMeter
        ? 'heating'
        : type === DEVICE_TYPE.hotWaterMeter
          ? 'hotWater'
          : 'coldWater';

/** The sources of each combination of source bits, sorted, and whether any is not measured. */
const SOURCES_OF_BITS = Array.from({ length: 1 << MONTH_END_SOURCES.length }, (_, bits) => {
  const sources = MONTH_END_SOURCES.filter((_, i) => bits & (1 << i));
  return { sources: [...sources].sort(), partial: sources.some((s) => NOT_MEASURED.has(s)) };
});

/** The parts of the buildings' locations, found by location, kind, proc and month. */
export class Parts {
  /** Per location its parts (a few: a linear search is quicker than keys built for every lookup). */
  private readonly byLoc = new Map<number, Part[]>();
  /**
   * `location|kind|proc` of the device groups with a device in service in some month of M − 12 … M but in none
   * computed (the group may have parts too: `has` looks at those first).
   */
  private readonly present = new Set<string>();

  constructor(rows: readonly PartRow[], computed: readonly string[]) {
    for (const r of rows) {
      const { location_id, g, n, value, qrad } = r;
      const role = (g >> 2) & 3;
      const kind = kindOf((g >> 4) & 63, role === 0 ? null : DEVICE_ROLES[role - 1]!);
      const proc = PROCS[g & 3]!;
      const i = g >> 10;
      if (i === 0) {
        this.present.add(`${location_id}|${kind}|${proc}`);
        continue;
      }
      const { sources, partial } = SOURCES_OF_BITS[n % BITS]!;
      const devices = Math.floor(n / BITS);
      this.add({ location_id, kind, proc, month: computed[i - 1]!, devices, value, qrad, sources, partial });
    }
  }

  private add(part: Part) {
    const list = this.byLoc.get(part.location_id);
    if (list) list.push(part);
    else this.byLoc.set(part.location_id, [part]);
  }

  /** A location's part of a kind and proc in a month computed. */
  get(loc: number, kind: PartKind, proc: PartProc, month: string): Part | undefined {
    // A loop, not find(): no closure made for each of the hundreds of thousands of lookups of every flat.
    const list = this.byLoc.get(loc);
    if (list) for (const p of list) if (p.month === month && p.kind === kind && p.proc === proc) return p;
    return undefined;
  }

  /**
   * Whether the location has a device of the kind and proc in service in some month of M − 12 … M: a part
   * in a month computed (each within M − 12 … M), else a group the query names as in service only in others.
   */
  has(loc: number, kind: PartKind, proc: PartProc): boolean {
    const list = this.byLoc.get(loc);
    if (list) for (const p of list) if (p.kind === kind && p.proc === proc) return true;
    return this.present.size > 0 && this.present.has(`${loc}|${kind}|${proc}`);
  }
}

/**
 * The parts of the buildings of `flatIds` in the months `computed`, and which device groups
 * they have in service in `first` … `month`. `shape`: the statement's, else by the flats and months (tests
 * compare the three on the same data).
 */
export async function loadParts(
  db: Queryable,
  flatIds: number[],
  computed: readonly string[],
  first: string,
  month: string,
  shape: PartsShape = flatIds.length < BY_MONTH_FROM_FLATS
    ? 'byKey'
    : computed.length < MANY_MONTHS
      ? 'byMonth'
      : 'byMonthMany',
): Promise<Parts> {
  const { rows } = await db.query<PartRow>(PARTS_STATEMENTS[shape], [
    flatIds,
    computed.map((m) => `${m}-01`),
    `${first}-01`,
    `${month}-01`,
  ]);
  return new Parts(rows, computed);
}
