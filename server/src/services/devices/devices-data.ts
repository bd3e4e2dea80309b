import { type DataLoadProc, type ReadingRow, STALE_AFTER_DAYS } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { perDb } from '../../db/per-db.js';
import { badRequest, notFound } from '../../errors.js';
import { JsonText } from '../../json-text.js';
import { type JsonField, jsonTailSql } from '../json-sql.js';
import { ANCESTORS_CTE, isVisible } from '../locations/visible.js';
import { inScope } from '../sql.js';
import { buildingOrder, LAST_SEEN_FIELD, NEAR_PROBE } from './device-row.js';
import { COMPACT_MASTER_CHANGES, deviceTextCache, MASTER_VERSION } from './device-text-cache.js';
import type { DayRange } from './period.js';

export interface DevicesDataInput {
  deviceTypeId: number;
  range: DayRange;
  /** The caller's scope (null = all). */
  scope: number[] | null;
  /** Subtrees to include (null = the whole scope). */
  parents: number[] | null;
  /** The provider's time zone: days start and end there. */
  timeZone: string;
  now?: Date;
  /** Compute in this many parts at once (default: see PARALLEL_PARTS). The answer is the same. */
  parts?: number;
}

/**
 * On a PostgreSQL server, a selection of at least this many devices is computed
 * in this many parts at once (whole buildings each, in address order), one
 * connection and so one core each; embedded PGlite has a single connection.
 */
const PARALLEL_MIN_DEVICES = 1000;
const PARALLEL_PARTS = 2;

/**
 * The devices of the selection, over `device d JOIN location l`: $1 device type,
 * $2 scope, $3 subtrees; installed before the period's end T, not removed before its start F.
 */
const selected = (f: string, t: string) => `d.device_type_id = $1 AND ${inScope('l', '$2')} AND ${inScope('l', '$3')}
  AND (d.installed_at IS NULL OR d.installed_at < ${t}) AND (d.removed_at IS NULL OR d.removed_at >= ${f})`;

/** The value fields of each computation (docs/domain.md §5, "Fields of a row"), over the CTE `f` below. */
const VALUE_FIELDS: Record<DataLoadProc, readonly JsonField[]> = {
  allocator: [
    ['UnitsForHCAFrom', 'f.from_v', 'numeric'],
    ['UnitsForHCATill', 'f.till_v', 'numeric'],
    ['QradFrom', 'f.from_v * f.rating_factor', 'numeric'],
    ['QradTill', 'f.till_v * f.rating_factor', 'numeric'],
    ['DifferenceQrad', 'f.diff * f.rating_factor', 'numeric'],
    ['FlatDifferenceQrad', 'f.flat_diff_q', 'numeric'],
  ],
  energy: [
    ['EnergyFrom', 'f.from_v', 'numeric'],
    ['EnergyTill', 'f.till_v', 'numeric'],
  ],
  volume: [
    ['VolumeFrom', 'f.from_v', 'numeric'],
    ['VolumeTill', 'f.till_v', 'numeric'],
  ],
};

/**
 * The flags of `readingFlags` (contract/src/readings.ts) as a JSON array text,
 * over `f`, with $7 = min(end of the period, now). Timestamps are
 * compared at whole seconds, as the API shows them; "4 days" is 96 hours, as there.
 */
const FLAGS_SQL = `concat('[', concat_ws(',',
    CASE WHEN f.till_ts IS NULL THEN '"NO_READING"' END,
    CASE WHEN date_trunc('second', f.till_ts)
              < least($7::timestamptz, date_trunc('second', f.removed_at)) - interval '${STALE_AFTER_DAYS * 24} hours'
         THEN '"STALE"' END,
    CASE WHEN f.diff < 0 THEN '"NEGATIVE"' END), ']')`;

/**
 * The end of one ReadingRow's JSON text, from LastSeen on (the fixed fields
 * before it come from DeviceTextCache), in the contract's order, with `}`.
 */
const rowTail = (proc: DataLoadProc) =>
  jsonTailSql([
    LAST_SEEN_FIELD,
    ['TimeFrom', 'iso(f.from_ts)', 'plain'],
    ['TimeTill', 'iso(f.till_ts)', 'plain'],
    ['TimePointFrom', 'iso(f.from_mts)', 'plain'],
    ['TimePointTill', 'iso(f.till_mts)', 'plain'],
    ['Difference', 'f.diff', 'numeric'],
    ['FlatDifference', 'f.flat_diff', 'numeric'],
    ...VALUE_FIELDS[proc],
    ['Flags', FLAGS_SQL, 'json'],
    ['StatusFlags', `array_to_json(coalesce(ds.flags, '{}'))`, 'json'],
    ['SetDate', 'ds.set_date::text', 'plain'],
    ['SetValue', 'ds.set_value', 'numeric'],
  ]);

/**
 * One part of the answer: the devices of the selection in the buildings $6 (in
 * that order; 0 = devices outside any building), in address order, each as its
 * id and the end of its JSON text (rowTail).
 *
 * Readings per device (docs/domain.md §5): F is the start of the first day and T the
 * start of the day after the last one, in the provider's zone (so DST days are
 * 23 or 25 hours long). Start reading: the latest with ts <= F, else the
 * earliest with F < ts < T. End reading: the latest with ts < T. A device
 * removed inside the period ends at its removal; a device installed inside it
 * starts at its installation. Each bound is an index probe of the (device_id,
 * ts) primary key, never a scan of the period; the backward ones look near
 * their bound first (NEAR_PROBE), then further.
 */
const partSql = (proc: DataLoadProc) => `WITH dev AS MATERIALIZED (
    SELECT d.id, d.location_id, d.rating_factor, d.removed_at, d.description, d.device_code, l.flat_order, l.flat, b.rank,
           coalesce(d.installed_at, '-infinity') AS since, coalesce(d.removed_at, 'infinity') AS until
      FROM device d JOIN location l ON l.id = d.location_id
      JOIN unnest($6::int[]) WITH ORDINALITY b(id, rank) ON b.id = coalesce(l.path[6], 0)
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
           AND ts > $4 AND ts < $5 AND ts >= dev.since AND ts <= dev.until
         ORDER BY ts LIMIT 1) s2 ON true
      LEFT JOIN LATERAL (
        SELECT ts, meter_ts, value FROM reading
         WHERE device_id = dev.id AND ts < $5 AND ts <= dev.until
           AND ts >= greatest(dev.since, $5::timestamptz - interval '${NEAR_PROBE}')
         ORDER BY ts DESC LIMIT 1) e0 ON true
      LEFT JOIN LATERAL (
        SELECT ts, meter_ts, value FROM reading
         WHERE e0.ts IS NULL AND device_id = dev.id AND ts < $5 AND ts >= dev.since AND ts <= dev.until
         ORDER BY ts DESC LIMIT 1) e1 ON true
  ), f AS (
    SELECT r.*, r.till_v - r.from_v AS diff,
           sum(r.till_v - r.from_v) OVER flat AS flat_diff,
           sum((r.till_v - r.from_v) * r.rating_factor) OVER flat AS flat_diff_q
      FROM r WINDOW flat AS (PARTITION BY r.location_id)
  )
  SELECT f.id, ${rowTail(proc)} AS tail, ${MASTER_VERSION} AS master_version
    FROM f LEFT JOIN device_status ds ON ds.device_id = f.id
   ORDER BY f.rank, f.flat_order NULLS FIRST, f.flat, f.description, f.device_code`;

/** partSql of each computation, built once rather than on every request. */
const PART_SQL = Object.fromEntries(
  Object.keys(VALUE_FIELDS).map((proc) => [proc, partSql(proc as DataLoadProc)]),
) as Record<DataLoadProc, string>;

/** Splits buildings (in order, with their device counts) into up to `parts` runs of about equal device counts. */
export function splitBuildings(buildings: ReadonlyArray<readonly [number, number]>, parts: number): number[][] {
  const total = buildings.reduce((n, [, count]) => n + count, 0);
  const out: number[][] = [[]];
  let done = 0;
  for (const [id, count] of buildings) {
    if (done >= (total * out.length) / parts && out.at(-1)!.length > 0) out.push([]);
    out.at(-1)!.push(id);
    done += count;
  }
  return out;
}

/** `[head+tail,…]` as UTF-8: each row's fixed text (DeviceTextCache) followed by the end its part wrote. */
function joinRows(heads: readonly Buffer[], tails: readonly string[]): Buffer {
  let size = 2 + Math.max(0, tails.length - 1);
  for (let i = 0; i < tails.length; i++) size += heads[i]!.length + Buffer.byteLength(tails[i]!);
  const out = Buffer.allocUnsafe(size);
  let at = out.write('[');
  for (let i = 0; i < tails.length; i++) {
    if (i > 0) at += out.write(',', at);
    at += heads[i]!.copy(out, at);
    at += out.write(tails[i]!, at);
  }
  out.write(']', at);
  return out;
}

/** What the first query finds: the computation, the period's bounds, the buildings and the master-data version. */
interface Plan {
  proc: DataLoadProc;
  f: Date;
  t: Date;
  /** The selection's buildings in address order with their device counts (0 = devices outside any building). */
  buildings: Array<[number, number]>;
  masterVersion: string;
}

/** Checks the input and plans the computation (null: no device in the selection). */
async function plan(db: Queryable, input: DevicesDataInput): Promise<Plan | null> {
  const { rows } = await db.query<{
    proc: DataLoadProc | null;
    parents_seen: number;
    f: Date;
    t: Date;
    buildings: Array<[number, number]>;
    master_version: string;
    master_changes: number;
  }>(
    `WITH ${ANCESTORS_CTE('$2')},
     bounds AS (SELECT ($4::date::timestamp AT TIME ZONE $6) AS f, (($5::date + 1)::timestamp AT TIME ZONE $6) AS t),
     sel AS (
       SELECT coalesce(l.path[6], 0) AS building, count(*)::int AS n
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
            ${MASTER_VERSION} AS master_version, (SELECT count(*)::int FROM master_change) AS master_changes
       FROM bounds`,
    [input.deviceTypeId, input.scope, input.parents, input.range.from, input.range.till, input.timeZone],
  );
  const found = rows[0]!;
  if (!found.proc) throw badRequest('unknownDeviceType', { id: String(input.deviceTypeId) }, 'deviceTypeId');
  if (input.parents && found.parents_seen < input.parents.length) throw notFound('locationNotFound');
  if (found.master_changes > COMPACT_MASTER_CHANGES) await db.query('SELECT compact_master_change()');
  if (found.buildings.length === 0) return null;
  const { proc, f, t, buildings, master_version: masterVersion } = found;
  return { proc, f, t, buildings, masterVersion };
}

/**
 * Plans of recent selections, kept under their master-data version: a plan
 * depends only on the master data (which devices, in which buildings, in what
 * order) and on the request (type, scope, subtrees, days), never on readings.
 */
class PlanCache {
  static readonly SIZE = 32;
  readonly #plans = new Map<string, Plan>();

  static key(input: DevicesDataInput): string {
    const { deviceTypeId, scope, parents, range, timeZone } = input;
    return JSON.stringify([deviceTypeId, scope, parents, range.from, range.till, timeZone]);
  }

  get(key: string): Plan | undefined {
    const found = this.#plans.get(key);
    if (found) {
      // Most recently used last.
      this.#plans.delete(key);
      this.#plans.set(key, found);
    }
    return found;
  }

  set(key: string, value: Plan): void {
    this.#plans.delete(key);
    this.#plans.set(key, value);
    if (this.#plans.size > PlanCache.SIZE) this.#plans.delete(this.#plans.keys().next().value!);
  }

  delete(key: string): void {
    this.#plans.delete(key);
  }
}

const planCache = perDb(() => new PlanCache());

/** A row of a part: the device, the end of its JSON text, and the master-data version the part saw. */
interface PartRow {
  id: number;
  tail: string;
  master_version: string;
}

/** Runs the parts of a plan, each on its own connection when there are several. */
async function computeParts(db: Queryable | Db, input: DevicesDataInput, planned: Plan) {
  const devices = planned.buildings.reduce((n, [, count]) => n + count, 0);
  const parts =
    input.parts ?? ('kind' in db && db.kind === 'postgres' && devices >= PARALLEL_MIN_DEVICES ? PARALLEL_PARTS : 1);
  // Flags are measured against the last instant of the period, or now if that is earlier.
  const reference = new Date(Math.min(planned.t.getTime() - 1000, (input.now ?? new Date()).getTime()));
  const sql = PART_SQL[planned.proc];
  return Promise.all(
    splitBuildings(planned.buildings, parts).map(async (buildings) => {
      const params = [input.deviceTypeId, input.scope, input.parents, planned.f, planned.t, buildings, reference];
      return (await db.query<PartRow>(sql, params)).rows;
    }),
  );
}

/** Whether every part saw the plan's master data (a part without rows cannot tell: no). */
const sawPlan = (parts: ReadonlyArray<ReadonlyArray<PartRow>>, planned: Plan) =>
  parts.every((rows) => rows.length > 0 && rows[0]!.master_version === planned.masterVersion);

/**
 * GetDevicesData as the JSON text of its ReadingRow[], which the route sends as
 * it is. Each row is the device's fixed text, kept by DeviceTextCache while the
 * master data do not change, and the rest (LastSeen, the readings, the flags),
 * which PostgreSQL computes and writes as JSON on every request.
 *
 * A selection asked for again with no master-data change in between reuses
 * its plan and so needs no first query: every part reads the master-data
 * version in its own snapshot, and if one differs from the plan's, the plan is
 * made again and the parts run again.
 */
export async function getDevicesDataJson(db: Queryable | Db, input: DevicesDataInput): Promise<JsonText<ReadingRow[]>> {
  const plans = planCache(db);
  const key = PlanCache.key(input);
  const kept = plans.get(key);
  if (kept) {
    const parts = await computeParts(db, input, kept);
    if (sawPlan(parts, kept)) return answer(db, kept, parts);
    plans.delete(key);
  }
  const planned = await plan(db, input);
  if (!planned) return new JsonText('[]');
  const parts = await computeParts(db, input, planned);
  if (sawPlan(parts, planned)) plans.set(key, planned);
  return answer(db, planned, parts);
}

/** The rows of the parts, in order, each as its device's fixed text and the end its part wrote. */
async function answer(db: Queryable, planned: Plan, parts: ReadonlyArray<ReadonlyArray<PartRow>>) {
  const rows = parts.flat();
  const heads = await deviceTextCache(db).texts(
    db,
    planned.masterVersion,
    rows.map((row) => row.id),
  );
  return new JsonText<ReadingRow[]>(
    joinRows(
      heads,
      rows.map((row) => row.tail),
    ),
  );
}

/** GetDevicesData as rows (for callers inside the server; the route sends the JSON text). */
export async function getDevicesData(db: Queryable | Db, input: DevicesDataInput): Promise<ReadingRow[]> {
  return JSON.parse((await getDevicesDataJson(db, input)).json.toString()) as ReadingRow[];
}
