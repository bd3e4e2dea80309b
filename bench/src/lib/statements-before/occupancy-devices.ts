// Frozen copy of server/src/services/statements/occupancy-devices.ts at commit 56f68cb (before issue 44), for bench:statements only.
import { DEVICE_TYPE, type MonthEndSource } from '@rodmenys/contract';
import type { Queryable } from '@rodmenys/server/db/db.js';

/* The devices behind a flat's occupants' split (occupancy-figures.ts, docs/occupancies.md). */

/** A device of the flat in service in the month, with its values at the month's bounds. */
export interface DeviceBounds {
  location_id: number;
  id: number;
  type: number;
  rating_factor: number | null;
  installed_ms: number | null;
  removed_ms: number | null;
  start_v: string | null;
  start_source: MonthEndSource | null;
  end_v: string | null;
  end_source: MonthEndSource | null;
  /** Its moving-day values in the month: day → value and source. */
  moves: Record<string, { value: string; source: MonthEndSource }> | null;
}

/** The flats' devices in service in the month, their values at its bounds (as the statements read them) and at its moves. */
export async function loadDeviceBounds(
  db: Queryable,
  flatIds: readonly number[],
  month: string,
): Promise<DeviceBounds[]> {
  const { rows } = await db.query<DeviceBounds>(
    `WITH m AS (SELECT $2::date AS month, ($2::date - interval '1 month')::date AS prev,
                       $2::date::timestamp::timestamptz AS s, ($2::date + interval '1 month')::timestamp::timestamptz AS e)
     SELECT d.location_id, d.id, d.device_type_id AS type, d.rating_factor::float8 AS rating_factor,
            CASE WHEN d.installed_at >= m.s THEN extract(epoch FROM d.installed_at) * 1000 END AS installed_ms,
            CASE WHEN d.removed_at < m.e THEN extract(epoch FROM d.removed_at) * 1000 END AS removed_ms,
            CASE WHEN coalesce(d.installed_at, '-infinity') < m.s THEN ms.value::text
                 ELSE (SELECT r.value::text FROM reading r WHERE r.device_id = d.id AND r.ts >= d.installed_at
                          AND r.ts < m.e AND r.ts <= coalesce(d.removed_at, 'infinity') ORDER BY r.ts LIMIT 1) END AS start_v,
            CASE WHEN coalesce(d.installed_at, '-infinity') < m.s THEN ms.source ELSE 'measured' END AS start_source,
            CASE WHEN coalesce(d.removed_at, 'infinity') >= m.e THEN me.value::text
                 ELSE (SELECT r.value::text FROM reading r WHERE r.device_id = d.id AND r.ts <= d.removed_at
                          AND r.ts >= coalesce(d.installed_at, '-infinity') ORDER BY r.ts DESC LIMIT 1) END AS end_v,
            CASE WHEN coalesce(d.removed_at, 'infinity') >= m.e THEN me.source ELSE 'measured' END AS end_source,
            (SELECT json_object_agg(mv.day::text, json_build_object('value', mv.value::text, 'source', mv.source))
               FROM move_value mv WHERE mv.device_id = d.id AND mv.day > m.month AND mv.day < (m.month + interval '1 month')::date)
              AS moves
       FROM device d CROSS JOIN m
       LEFT JOIN month_end ms ON ms.device_id = d.id AND ms.month = m.prev
       LEFT JOIN month_end me ON me.device_id = d.id AND me.month = m.month
      WHERE d.location_id = ANY ($1::int[]) AND coalesce(d.installed_at, '-infinity') < m.e AND coalesce(d.removed_at, 'infinity') >= m.s`,
    [flatIds, `${month}-01`],
  );
  return rows;
}

/** An occupancy's days of the month in a flat. */
export interface Segment {
  flat_id: number;
  id: number;
  client_code: string;
  name: string;
  from: string;
  /** The first day after the segment (the next month's 1st at most). */
  till: string;
  /** The occupancy covered the whole month before, and the whole same month last year. */
  whole_previous: boolean;
  whole_last_year: boolean;
}

/** A device's value at a day of the month (ten-thousandths) and its source; null when unknown. */
export type ValueAt = (d: DeviceBounds, day: string) => { v: number; source: MonthEndSource | null } | null;

/** Per segment, the devices of `types`: their units (ten-thousandths), Qrad, whether one is missing, the sources. */
export function segmentSums(
  types: readonly number[],
  devices: readonly DeviceBounds[],
  segments: readonly Segment[],
  valueAt: ValueAt,
) {
  const own = devices.filter((d) => types.includes(d.type));
  const isAllocator = types[0] === DEVICE_TYPE.allocator;
  return segments.map((seg) => {
    let units = 0;
    let qrad = 0;
    let missing = false;
    const sources = new Set<MonthEndSource>();
    for (const d of own) {
      const a = valueAt(d, seg.from);
      const b = valueAt(d, seg.till);
      if (!a || !b) {
        missing = true;
        continue;
      }
      for (const s of [a.source, b.source]) if (s) sources.add(s);
      units += b.v - a.v;
      if (d.rating_factor === null) missing = isAllocator || missing;
      else qrad += (b.v - a.v) * d.rating_factor;
    }
    return { units, qrad, missing, sources: [...sources].sort() };
  });
}
