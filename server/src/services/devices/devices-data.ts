import { type DataLoadProc, type ReadingRow, readingFlags } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { badRequest, notFound } from '../../errors.js';
import { ANCESTORS_CTE, isVisible } from '../locations/visible.js';
import { inScope } from '../sql.js';
import { buildingOrder, DEVICE_COLUMNS, DEVICE_JOINS } from './device-row.js';
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
}

type Row = Omit<ReadingRow, 'Difference' | 'FlatDifference' | 'Flags'> & {
  from_v: number | null;
  till_v: number | null;
  diff: number | null;
  from_q: number | null;
  till_q: number | null;
  diff_q: number | null;
  flat_diff: number | null;
  flat_diff_q: number | null;
};

/**
 * Readings per device for a period (DESIGN.md §4). Let F be the start of the
 * first day and T the start of the day after the last one, in the provider's
 * zone (so DST days are 23 or 25 hours long). Start reading: the latest with
 * ts <= F, else the earliest with F < ts < T. End reading: the latest with
 * ts < T. A device removed inside the period ends at its removal; a device
 * installed inside it starts at its installation. Each bound is one backward
 * or forward probe of the (device_id, ts) primary key: never a scan of the period.
 */
export async function getDevicesData(db: Queryable, input: DevicesDataInput): Promise<ReadingRow[]> {
  const { rows: checks } = await db.query<{ type_known: boolean; parents_seen: number }>(
    `WITH ${ANCESTORS_CTE('$2')}
     SELECT EXISTS (SELECT 1 FROM device_type WHERE id = $1) AS type_known,
            (SELECT count(*)::int FROM location l WHERE l.id = ANY($3::int[]) AND ${isVisible('l', '$2')}) AS parents_seen`,
    [input.deviceTypeId, input.scope, input.parents ?? []],
  );
  if (!checks[0]!.type_known) throw badRequest(`Unknown device type ${input.deviceTypeId}`, 'deviceTypeId');
  if (input.parents && checks[0]!.parents_seen < input.parents.length) throw notFound('Location not found');
  const { rows: bounds } = await db.query<{ f: Date; t: Date }>(
    `SELECT ($1::date::timestamp AT TIME ZONE $3) AS f, (($2::date + 1)::timestamp AT TIME ZONE $3) AS t`,
    [input.range.from, input.range.till, input.timeZone],
  );
  const { f, t } = bounds[0]!;
  const { rows } = await db.query<Row>(
    `WITH dev AS MATERIALIZED (
       SELECT d.id, d.location_id, d.rating_factor,
              coalesce(d.installed_at, '-infinity') AS since, coalesce(d.removed_at, 'infinity') AS until
         FROM device d JOIN location l ON l.id = d.location_id
        WHERE d.device_type_id = $1 AND ${inScope('l', '$2')} AND ${inScope('l', '$3')}
          AND (d.installed_at IS NULL OR d.installed_at < $5)
          AND (d.removed_at IS NULL OR d.removed_at >= $4)
     ), r AS (
       SELECT dev.id, dev.location_id, dev.rating_factor,
              coalesce(s0.ts, s1.ts) AS from_ts, coalesce(s0.meter_ts, s1.meter_ts) AS from_mts,
              coalesce(s0.value, s1.value) AS from_v, e.ts AS till_ts, e.meter_ts AS till_mts, e.value AS till_v
         FROM dev
         LEFT JOIN LATERAL (
           SELECT ts, meter_ts, value FROM reading
            WHERE device_id = dev.id AND ts <= $4 AND ts >= dev.since
            ORDER BY ts DESC LIMIT 1) s0 ON true
         LEFT JOIN LATERAL (
           SELECT ts, meter_ts, value FROM reading
            WHERE s0.ts IS NULL AND device_id = dev.id AND ts > $4 AND ts < $5 AND ts >= dev.since AND ts <= dev.until
            ORDER BY ts LIMIT 1) s1 ON true
         LEFT JOIN LATERAL (
           SELECT ts, meter_ts, value FROM reading
            WHERE device_id = dev.id AND ts < $5 AND ts >= dev.since AND ts <= dev.until
            ORDER BY ts DESC LIMIT 1) e ON true
     ), building_rank AS (
       -- Sort the few buildings by address text once, then the devices by that rank:
       -- comparing the long, mostly equal address columns row by row was a fifth of the query.
       SELECT b.id, row_number() OVER (ORDER BY ${buildingOrder('b')}) AS rank
         FROM location b
        WHERE b.id IN (SELECT l.path[6] FROM location l WHERE l.id IN (SELECT location_id FROM dev))
     )
     SELECT ${DEVICE_COLUMNS},
            iso(r.from_ts) AS "TimeFrom", iso(r.till_ts) AS "TimeTill",
            iso(r.from_mts) AS "TimePointFrom", iso(r.till_mts) AS "TimePointTill",
            coalesce(ds.flags, '{}') AS "StatusFlags", ds.set_date::text AS "SetDate", ds.set_value::float8 AS "SetValue",
            r.from_v::float8 AS from_v, r.till_v::float8 AS till_v, (r.till_v - r.from_v)::float8 AS diff,
            (r.from_v * r.rating_factor)::float8 AS from_q, (r.till_v * r.rating_factor)::float8 AS till_q,
            ((r.till_v - r.from_v) * r.rating_factor)::float8 AS diff_q,
            (sum(r.till_v - r.from_v) OVER flat)::float8 AS flat_diff,
            (sum((r.till_v - r.from_v) * r.rating_factor) OVER flat)::float8 AS flat_diff_q
       FROM r JOIN device d ON d.id = r.id ${DEVICE_JOINS}
       LEFT JOIN building_rank br ON br.id = l.path[6]
     WINDOW flat AS (PARTITION BY r.location_id)
      ORDER BY br.rank, l.flat_order NULLS FIRST, l.flat, d.device_type_id, d.description, d.device_code`,
    [input.deviceTypeId, input.scope, input.parents, f, t],
  );
  // Flags are measured against the last instant of the period.
  const periodEnd = new Date(t.getTime() - 1000);
  const now = input.now ?? new Date();
  return rows.map((row) => toReadingRow(row, periodEnd, now));
}

function toReadingRow(row: Row, periodEnd: Date, now: Date): ReadingRow {
  const { from_v, till_v, diff, from_q, till_q, diff_q, flat_diff, flat_diff_q, ...device } = row;
  const values = valueFields(device.DataLoadProc, row);
  const out: ReadingRow = {
    ...device,
    ...values,
    Difference: diff,
    FlatDifference: flat_diff,
    Flags: readingFlags({ TimeTill: device.TimeTill, Difference: diff, RemovedAt: device.RemovedAt }, periodEnd, now),
  };
  return out;
}

/** The value columns of each computation (spec.md §3 "Reading fields"). */
function valueFields(proc: DataLoadProc, r: Row): Partial<ReadingRow> {
  switch (proc) {
    case 'allocator':
      return {
        UnitsForHCAFrom: r.from_v,
        UnitsForHCATill: r.till_v,
        QradFrom: r.from_q,
        QradTill: r.till_q,
        DifferenceQrad: r.diff_q,
        FlatDifferenceQrad: r.flat_diff_q,
      };
    case 'energy':
      return { EnergyFrom: r.from_v, EnergyTill: r.till_v };
    case 'volume':
      return { VolumeFrom: r.from_v, VolumeTill: r.till_v };
  }
}
