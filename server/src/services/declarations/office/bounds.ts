import type { Queryable } from '../../../db/db.js';

/** What a declared value is checked against (docs/declared-readings.md, "Validation"). */
export interface Bounds {
  /** The device's last value before the declaration: a reading or a declaration that counts; null: none. */
  previous: number | null;
  /** previous + the plausible rise; null without a previous value. */
  max: number | null;
}

/**
 * The bounds of a value declared for `deviceId` at `at` (timestamptz text or Date): not below the
 * device's last value before it in its service (a replacement starts a new device, so a value before
 * it never counts), not above that plus `declarations.plausibleFactor` × the device's largest monthly
 * consumption of the 12 months before, at least `declarations.plausibleFloor` of its type.
 */
export async function declarationBounds(db: Queryable, deviceId: number, at: string | Date): Promise<Bounds> {
  const { rows } = await db.query<{ previous: string | null; max: string | null }>(
    `WITH d AS (SELECT id, device_type_id, coalesce(installed_at, '-infinity') AS since FROM device WHERE id = $1),
     prev AS (
       SELECT x.value FROM (
         (SELECT r.ts, r.value FROM reading r, d
           WHERE r.device_id = d.id AND r.ts < $2::timestamptz AND r.ts >= d.since ORDER BY r.ts DESC LIMIT 1)
         UNION ALL
         (SELECT x.declared_at, x.value FROM declaration x, d
           WHERE x.device_id = d.id AND x.status <> 'rejected' AND x.declared_at < $2::timestamptz
             AND x.declared_at >= d.since
           ORDER BY x.declared_at DESC, x.value DESC LIMIT 1)) x
       ORDER BY x.ts DESC LIMIT 1
     ), cons AS (
       SELECT max(c) AS c FROM (
         SELECT me.value - lag(me.value) OVER (ORDER BY me.month) AS c FROM month_end me
          WHERE me.device_id = $1 AND me.month >= (date_trunc('month', $2::timestamptz) - interval '13 months')::date
            AND me.month < date_trunc('month', $2::timestamptz)::date) y
     ), s AS (
       SELECT coalesce((SELECT (value #>> '{}')::numeric FROM dq_setting WHERE key = 'declarations.plausibleFactor'), 3) AS factor,
              (SELECT value FROM dq_setting WHERE key = 'declarations.plausibleFloor') AS floors
     )
     SELECT (SELECT value FROM prev)::text AS previous,
            ((SELECT value FROM prev) + greatest(s.factor * greatest(coalesce((SELECT c FROM cons), 0), 0),
              coalesce((s.floors ->> d.device_type_id::text)::numeric, (s.floors ->> 'default')::numeric, 0)))::text AS max
       FROM d, s`,
    [deviceId, at],
  );
  const r = rows[0];
  return {
    previous: r?.previous == null ? null : Number(r.previous),
    max: r?.max == null ? null : Number(r.max),
  };
}
