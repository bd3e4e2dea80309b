import { DEVICE_TYPE, DEVICE_TYPES, LOCATION_LEVEL, type MonthEndSource } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { buildingIdOf } from '../sql.js';

/* The billing export's device lines (docs/integration.md): every device of the buildings with its month's two ends. */

export interface DeviceLine {
  id: number;
  type: number;
  device_code: string;
  location_id: number;
  building_id: number;
  is_building: boolean;
  /** A building-level role (docs/heat-method.md, "Devices"); null: none. */
  role: string | null;
  rating_factor: number | null;
  start_value: number | null;
  start_time: string | null;
  start_source: MonthEndSource | null;
  end_value: number | null;
  end_time: string | null;
  end_source: MonthEndSource | null;
  consumption: number | null;
  qrad: number | null;
}

/**
 * Every device of a building in service during the month (its flats' and its own heat meters), with the
 * month-end values at both ends: the month end before the month (or the first reading after an installation
 * inside it) and the month's (or the last reading up to a removal), as docs/statements.md counts them. The
 * time is the reading's for a measured value, else the month's boundary.
 */
const LINES_CTE = `WITH m AS (
    SELECT $2::date AS month, ($2::date - interval '1 month')::date AS prev,
           $2::date::timestamp::timestamptz AS s, ($2::date + interval '1 month')::timestamp::timestamptz AS e
  ), dev AS (
    SELECT d.id, d.device_type_id AS type, d.role, d.device_code, d.rating_factor, d.installed_at, d.removed_at,
           l.id AS location_id, ${buildingIdOf('l')} AS building_id, l.level = ${LOCATION_LEVEL.building} AS is_building,
           l.flat_order, l.flat,
           coalesce(d.installed_at, '-infinity') < m.s AS from_start,
           coalesce(d.removed_at, 'infinity') >= m.e AS to_end, m.month, m.prev, m.s, m.e
      FROM m, location l JOIN device d ON d.location_id = l.id
     WHERE (l.id = ANY ($1::int[]) OR (l.path && $1::int[] AND l.level = ${LOCATION_LEVEL.flat}))
       AND d.device_type_id IN (${DEVICE_TYPES.join(', ')})
       AND coalesce(d.installed_at, '-infinity') < m.e AND coalesce(d.removed_at, 'infinity') >= m.s
  ), w AS MATERIALIZED (
    -- Installed or removed inside the month: the first or last reading, looked up only for those few
    -- (a subquery in CASE runs only when chosen; a lateral join ran for every device). ts is unique per
    -- device: the value and the time are of the same reading. Materialised: inlined, each use of a
    -- subquery below would be planned again.
    SELECT dev.*,
           CASE WHEN NOT dev.from_start THEN (SELECT r.value FROM reading r
               WHERE r.device_id = dev.id AND r.ts >= dev.installed_at AND r.ts < dev.e
                 AND r.ts <= coalesce(dev.removed_at, 'infinity')
               ORDER BY r.ts LIMIT 1) END AS ini_v,
           CASE WHEN NOT dev.from_start THEN (SELECT r.ts FROM reading r
               WHERE r.device_id = dev.id AND r.ts >= dev.installed_at AND r.ts < dev.e
                 AND r.ts <= coalesce(dev.removed_at, 'infinity')
               ORDER BY r.ts LIMIT 1) END AS ini_ts,
           CASE WHEN NOT dev.to_end THEN (SELECT r.value FROM reading r
               WHERE r.device_id = dev.id AND r.ts <= dev.removed_at
                 AND r.ts >= coalesce(dev.installed_at, '-infinity')
               ORDER BY r.ts DESC LIMIT 1) END AS fin_v,
           CASE WHEN NOT dev.to_end THEN (SELECT r.ts FROM reading r
               WHERE r.device_id = dev.id AND r.ts <= dev.removed_at
                 AND r.ts >= coalesce(dev.installed_at, '-infinity')
               ORDER BY r.ts DESC LIMIT 1) END AS fin_ts
      FROM dev
  ), v AS (
    SELECT w.*,
           CASE WHEN w.from_start THEN ms.value ELSE w.ini_v END AS sv,
           CASE WHEN w.from_start THEN CASE WHEN ms.source = 'measured' THEN ms.reading_ts ELSE w.s END ELSE w.ini_ts END AS st,
           CASE WHEN w.from_start THEN ms.source WHEN w.ini_v IS NOT NULL THEN 'measured' END AS ss,
           CASE WHEN w.to_end THEN me.value ELSE w.fin_v END AS ev,
           CASE WHEN w.to_end THEN CASE WHEN me.source = 'measured' THEN me.reading_ts ELSE w.e END ELSE w.fin_ts END AS et,
           CASE WHEN w.to_end THEN me.source WHEN w.fin_v IS NOT NULL THEN 'measured' END AS es
      FROM w
      LEFT JOIN month_end ms ON ms.device_id = w.id AND ms.month = w.prev
      LEFT JOIN month_end me ON me.device_id = w.id AND me.month = w.month
  ), x AS (
    SELECT v.id, v.type, v.role, v.device_code, v.location_id, v.building_id, v.is_building, v.rating_factor::float8 AS rating_factor,
           v.sv::float8 AS start_value, iso(v.st) AS start_time, v.ss AS start_source,
           v.ev::float8 AS end_value, iso(v.et) AS end_time, v.es AS end_source,
           (v.ev - v.sv)::float8 AS consumption,
           CASE WHEN v.type = ${DEVICE_TYPE.allocator} THEN round((v.ev - v.sv) * v.rating_factor, 3)::float8 END AS qrad,
           v.flat_order, v.flat
      FROM v
  )`;

/** A building's lines in export order (the device's id last: the same order every time). */
const LINE_ORDER = 'x.is_building, x.flat_order NULLS FIRST, x.flat, x.location_id, x.type, x.device_code, x.id';
const LINE_COLUMNS = `x.id, x.type, x.role, x.device_code, x.location_id, x.building_id, x.is_building, x.rating_factor,
  x.start_value, x.start_time, x.start_source, x.end_value, x.end_time, x.end_source, x.consumption, x.qrad`;
/** One line as PostgreSQL writes its columns (a row's text). */
const LINE_TEXT = `ROW(${LINE_COLUMNS})::text`;
/**
 * The digest of a building's lines (export-inputs.ts): SHA-256 of its lines' texts, one after the other in
 * export order, written by PostgreSQL so that publishing again need not read the lines to compare them
 * (docs/statements.md, "Publishing again"). `joined`: the lines' texts joined, by an aggregate or a window.
 */
const digestOf = (joined: string) => `encode(sha256(convert_to(${joined}, 'UTF8')), 'hex')`;

/** The lines, in export order. */
const DEVICES_SQL = `${LINES_CTE}
  SELECT ${LINE_COLUMNS} FROM x ORDER BY x.building_id, ${LINE_ORDER}`;

/** The lines, the first of each building with its building's digest (a window's aggregate: computed once a building). */
const DEVICES_WITH_DIGEST_SQL = `${LINES_CTE}
  SELECT ${LINE_COLUMNS},
         CASE WHEN row_number() OVER b = 1 THEN ${digestOf(`string_agg(${LINE_TEXT}, E'\\n') OVER b`)} END AS digest
    FROM x
  WINDOW b AS (PARTITION BY x.building_id ORDER BY ${LINE_ORDER} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
   ORDER BY x.building_id, ${LINE_ORDER}`;

/** Each building's digest alone (a building without a line: none). */
const DIGESTS_SQL = `${LINES_CTE}
  SELECT x.building_id, ${digestOf(`string_agg(${LINE_TEXT}, E'\\n' ORDER BY ${LINE_ORDER})`)} AS digest
    FROM x GROUP BY x.building_id`;

/** The device lines of the buildings in month `month` (YYYY-MM), by building, each building's in export order. */
export async function loadDeviceLines(
  db: Queryable,
  month: string,
  buildingIds: readonly number[],
): Promise<Map<number, DeviceLine[]>> {
  return (await readLines(db, DEVICES_SQL, month, buildingIds)).lines;
}

/** loadDeviceLines, and each building's digest of its lines (deviceLinesDigests), in one statement. */
export function loadDeviceLinesWithDigests(
  db: Queryable,
  month: string,
  buildingIds: readonly number[],
): Promise<{ lines: Map<number, DeviceLine[]>; digests: Map<number, string> }> {
  return readLines(db, DEVICES_WITH_DIGEST_SQL, month, buildingIds);
}

/** Each building's digest of its device lines (none for a building without a line), without the lines. */
export async function deviceLinesDigests(
  db: Queryable,
  month: string,
  buildingIds: readonly number[],
): Promise<Map<number, string>> {
  const { rows } = await db.query<{ building_id: number; digest: string }>(DIGESTS_SQL, [buildingIds, `${month}-01`]);
  return new Map(rows.map((r) => [r.building_id, r.digest]));
}

async function readLines(db: Queryable, sql: string, month: string, buildingIds: readonly number[]) {
  const { rows } = await db.query<DeviceLine & { digest?: string | null }>(sql, [buildingIds, `${month}-01`]);
  const lines = new Map<number, DeviceLine[]>();
  const digests = new Map<number, string>();
  for (const d of rows) {
    if (d.digest) digests.set(d.building_id, d.digest);
    const list = lines.get(d.building_id);
    if (list) list.push(d);
    else lines.set(d.building_id, [d]);
  }
  return { lines, digests };
}
