import type { DataLoadProc } from '@rodmenys/contract';
import { type JsonField, jsonHeadSql, jsonTailSql } from '../../json-sql.js';
import { ANCESTORS_CTE, isVisible } from '../../locations/visible.js';
import { buildingIdOf, inScope } from '../../sql.js';
import { buildingOrder } from '../device-row.js';
import { DEVICE_JOINS, KEPT_FIELDS, ROWS, type RowField } from './fields.js';

/**
 * The statements of GetDevicesData, built once from the field list (fields.ts):
 * PLAN_SQL (the plan, plan.ts), PART_SQL (the readings of a part of the
 * buildings, each row's computed tail) and TEXTS_SQL (the kept heads).
 * `printable()` writes one with its parameters as a statement psql runs.
 */

/** The master-data version (migration 040) as SQL text: read it in the statement whose snapshot it describes. */
export const MASTER_VERSION = '(SELECT sum(n)::text FROM master_change)';

/**
 * How far back a backward probe of `reading` looks first. A btree scan reads
 * every matching entry of its leaf page before LIMIT 1 takes the first (up to a
 * few hundred for one device): a lower bound close to the start stops it after
 * a few. Only a speed-up: when the near probe finds nothing, an unbounded one
 * runs, and the answer is the same either way (docs/benchmarks.md).
 */
export const NEAR_PROBE = '6 hours';

const asJson = (fields: readonly RowField[]): JsonField[] => fields.map((f) => [f.name, f.sql, f.kind] as const);

/**
 * The devices of the selection, over `device d JOIN location l`: $1 device type,
 * $2 scope, $3 subtrees; installed before the period's end T, not removed before its start F.
 */
const selected = (f: string, t: string) => `d.device_type_id = $1 AND ${inScope('l', '$2')} AND ${inScope('l', '$3')}
  AND (d.installed_at IS NULL OR d.installed_at < ${t}) AND (d.removed_at IS NULL OR d.removed_at >= ${f})`;

/**
 * The plan: $1 device type, $2 scope, $3 subtrees, $4/$5 the first and last
 * day, $6 the provider's zone. The computation of the type, how many of the
 * subtrees the caller sees, the period's bounds F and T in that zone (so DST
 * days are 23 or 25 hours long), the selection's buildings in address order
 * with their device counts (0 = devices outside any building), and the
 * master-data version, all in one snapshot.
 */
export const PLAN_SQL = `WITH ${ANCESTORS_CTE('$2')},
     bounds AS (SELECT ($4::date::timestamp AT TIME ZONE $6) AS f, (($5::date + 1)::timestamp AT TIME ZONE $6) AS t),
     sel AS (
       SELECT coalesce(${buildingIdOf('l')}, 0) AS building, count(*)::int AS n
         FROM bounds, device d JOIN location l ON l.id = d.location_id
        WHERE ${selected('bounds.f', 'bounds.t')}
        GROUP BY 1
     )
     SELECT (SELECT data_load_proc FROM device_type WHERE id = $1) AS proc,
            (SELECT count(*)::int FROM location l WHERE l.id = ANY($3::int[]) AND ${isVisible('l', '$2')}) AS parents_seen,
            bounds.f, bounds.t,
            (SELECT coalesce(json_agg(json_build_array(sel.building, sel.n)
                                      ORDER BY b.id IS NULL, ${buildingOrder('b')}, sel.building), '[]')
               FROM sel LEFT JOIN location b ON b.id = nullif(sel.building, 0)) AS buildings,
            ${MASTER_VERSION} AS master_version
       FROM bounds`;

/**
 * One part of the answer: $1–$3 as in the plan, $4/$5 the bounds F and T, the
 * devices of the selection in the buildings $6 (in that order; 0 = devices
 * outside any building), $7 min(end of the period, now) for the flags; in
 * address order, each as its id, the computed end of its JSON text from
 * LastSeen on (with `}`), and the master-data version of this snapshot.
 *
 * Readings per device (docs/domain.md §5): F is the start of the first day and T the
 * start of the day after the last one, in the provider's zone. Start reading:
 * the latest with ts <= F, else the earliest with F < ts <= T. End reading: the
 * latest with ts <= T: a reading stamped exactly at a day's 00:00 is the state at
 * that boundary, the end of the day before and the start of that day, so
 * periods chain. A device removed inside the period ends at its removal;
 * a device installed inside it starts at its installation. Each bound is an
 * index probe of the (device_id, ts) primary key, never a scan of the period;
 * the backward ones look near their bound first (NEAR_PROBE), then further.
 */
const partSql = (proc: DataLoadProc) => `WITH dev AS MATERIALIZED (
    SELECT d.id, d.location_id, d.rating_factor, d.removed_at, d.description, d.device_code, l.flat_order, l.flat, b.rank,
           coalesce(d.installed_at, '-infinity') AS since, coalesce(d.removed_at, 'infinity') AS until
      FROM device d JOIN location l ON l.id = d.location_id
      JOIN unnest($6::int[]) WITH ORDINALITY b(id, rank) ON b.id = coalesce(${buildingIdOf('l')}, 0)
     WHERE ${selected('$4', '$5')}
  ), r AS (
    SELECT dev.*,
           coalesce(s0.ts, s1.ts, s2.ts) AS from_ts, coalesce(s0.meter_ts, s1.meter_ts, s2.meter_ts) AS from_mts,
           coalesce(s0.value, s1.value, s2.value) AS from_v,
           coalesce(e0.ts, e1.ts) AS till_ts, coalesce(e0.meter_ts, e1.meter_ts) AS till_mts,
           coalesce(e0.value, e1.value) AS till_v
      FROM dev
      LEFT JOIN LATERAL (
        SELECT ts, meter_ts, value FROM reading
         WHERE device_id = dev.id AND ts <= $4 AND ts >= greatest(dev.since, $4::timestamptz - interval '${NEAR_PROBE}')
         ORDER BY ts DESC LIMIT 1) s0 ON true
      LEFT JOIN LATERAL (
        SELECT ts, meter_ts, value FROM reading
         WHERE s0.ts IS NULL AND device_id = dev.id AND ts <= $4 AND ts >= dev.since
         ORDER BY ts DESC LIMIT 1) s1 ON true
      LEFT JOIN LATERAL (
        SELECT ts, meter_ts, value FROM reading
         WHERE s0.ts IS NULL AND s1.ts IS NULL AND device_id = dev.id
           AND ts > $4 AND ts <= $5 AND ts >= dev.since AND ts <= dev.until
         ORDER BY ts LIMIT 1) s2 ON true
      LEFT JOIN LATERAL (
        SELECT ts, meter_ts, value FROM reading
         WHERE device_id = dev.id AND ts <= $5 AND ts <= dev.until
           AND ts >= greatest(dev.since, $5::timestamptz - interval '${NEAR_PROBE}')
         ORDER BY ts DESC LIMIT 1) e0 ON true
      LEFT JOIN LATERAL (
        SELECT ts, meter_ts, value FROM reading
         WHERE e0.ts IS NULL AND device_id = dev.id AND ts <= $5 AND ts >= dev.since AND ts <= dev.until
         ORDER BY ts DESC LIMIT 1) e1 ON true
  ), f AS (
    SELECT r.*, r.till_v - r.from_v AS diff,
           sum(r.till_v - r.from_v) OVER flat AS flat_diff,
           sum((r.till_v - r.from_v) * r.rating_factor) OVER flat AS flat_diff_q
      FROM r WINDOW flat AS (PARTITION BY r.location_id)
  )
  SELECT f.id, ${jsonTailSql(asJson(ROWS[proc].tail))} AS tail, ${MASTER_VERSION} AS master_version
    FROM f LEFT JOIN device_status ds ON ds.device_id = f.id
   ORDER BY f.rank, f.flat_order NULLS FIRST, f.flat, f.description, f.device_code`;

/** The part statement of each computation, built once rather than on every request. */
export const PART_SQL = Object.fromEntries(
  Object.keys(ROWS).map((proc) => [proc, partSql(proc as DataLoadProc)]),
) as Record<DataLoadProc, string>;

/** The kept text (head) of the devices $1, each with the master-data version of this snapshot. */
export const TEXTS_SQL = `SELECT ${MASTER_VERSION} AS version, d.id, ${jsonHeadSql(asJson(KEPT_FIELDS))} AS text
  FROM device d ${DEVICE_JOINS}
 WHERE d.id = ANY($1::int[])`;

/**
 * The devices $1 whose flat has, on day $2 (the period's last day), an occupancy of another account
 * than the flat's current client, with that account's code: the `ClientCode` their rows carry
 * (docs/occupancies.md, "The readings carry the account of the period's end"). Most flats have none
 * or one that agrees with the current client, so this usually finds no row.
 */
export const ACCOUNTS_SQL = `SELECT d.id, c.code
  FROM device d
  JOIN location l ON l.id = d.location_id
  JOIN occupancy oc ON oc.location_id = d.location_id
   AND (oc.move_in IS NULL OR oc.move_in <= $2::date)
   AND (oc.move_out IS NULL OR oc.move_out > $2::date)
   AND oc.client_id IS DISTINCT FROM l.client_id
  JOIN client c ON c.id = oc.client_id
 WHERE d.id = ANY($1::int[])`;

/** A statement and its parameters, as the driver receives them. */
export interface Statement {
  name: string;
  sql: string;
  params: readonly unknown[];
}

const literal = (value: unknown): string => {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return String(value);
  if (value instanceof Date) return `'${value.toISOString()}'::timestamptz`;
  if (Array.isArray(value)) return `'{${value.map(Number).join(',')}}'::int[]`;
  return `'${String(value).replaceAll("'", "''")}'`;
};

/** A statement with its parameters written in as literals: text psql (or EXPLAIN) runs as it is. */
export const printable = ({ name, sql, params }: Statement): string =>
  `-- ${name}\n${sql.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]))};\n`;
