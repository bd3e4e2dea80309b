import type { Queryable } from '../../db/db.js';
import { writeIntoMonths } from '../partitions/partitions.js';
import { storeGivenReadings } from '../readings/store-readings.js';
import { firstOpenMonth } from './recalc.js';
import { countingSql } from './rows.js';

/**
 * What a device's declarations of a month become (docs/declared-readings.md): the one that counts
 * (rows.ts) is the device's reading at its time and the month's end value with source `declared`
 * (who entered it: `set_by`, the channel: `method`), which the month-end computation never replaces;
 * the readings of declarations that no longer count are taken back. Without one that counts (all
 * rejected) a declared month end goes and the month is computed again from the readings.
 * An operator's manual month end stays. Call it in the transaction that changed the declarations
 * (the occupant's declaration, the back office's entry, accept or reject).
 *
 * A late declaration (docs/declared-readings.md, "Late declarations"): a month before the first open
 * month (`declarations.recalcMonths` back from `now`) whose month end is an estimate keeps it; the
 * declaration that counts becomes the month end of the first open month instead (its `reading_ts` in
 * the late month says so), which then carries the correction.
 */
export async function applyDeclarations(tx: Queryable, deviceId: number, month: string, now = new Date()) {
  await writeIntoMonths(tx, async () => {
    const { rows } = await tx.query<{
      id: number;
      value: string;
      declared_at: string;
      channel: string;
      entered_by: number | null;
    }>(
      `SELECT x.id, x.value::text AS value, iso(x.declared_at) AS declared_at, x.channel, x.entered_by
         FROM declaration x WHERE x.id = (${countingSql('$1::int', '$2::date')})`,
      [deviceId, month],
    );
    const counting = rows[0];
    // The readings of this month's declarations that do not count (any more): at a declaration's time
    // (whole seconds, rows.ts declaredAtSql) with its value, unless the counting one is at that time.
    await tx.query(
      `WITH gone AS (
         DELETE FROM reading r USING declaration x
          WHERE x.device_id = $1 AND x.month = $2::date AND r.device_id = $1 AND r.ts = x.declared_at
            AND r.value = x.value AND x.id IS DISTINCT FROM $3::int AND r.ts IS DISTINCT FROM $4::timestamptz
         RETURNING r.ts)
       INSERT INTO dq_pending (device_id, month)
       SELECT DISTINCT $1::int, date_trunc('month', ts)::date FROM gone ON CONFLICT DO NOTHING`,
      [deviceId, month, counting?.id ?? null, counting?.declared_at ?? null],
    );
    const firstOpen = await firstOpenMonth(tx, now);
    if (!counting) {
      // Its own declared month end, and one it was carried into (an open month; closed ones are kept).
      await tx.query(
        `WITH gone AS (
           DELETE FROM month_end WHERE device_id = $1 AND source = 'declared'
              AND (month = $2::date
                   OR (month > $2::date AND month >= $3::date AND reading_ts >= $2::date::timestamp::timestamptz
                       AND reading_ts < ($2::date + interval '1 month')::timestamp::timestamptz))
           RETURNING month)
         INSERT INTO dq_pending (device_id, month) SELECT $1, month FROM gone ON CONFLICT DO NOTHING`,
        [deviceId, month, firstOpen],
      );
      return;
    }
    await storeGivenReadings(tx, [{ deviceId, ts: counting.declared_at, value: Number(counting.value) }]);
    const { rows: kept } = await tx.query<{ late: boolean }>(
      `SELECT $2::date < $3::date AS late FROM month_end
        WHERE device_id = $1 AND month = $2::date AND source IN ('estimated', 'interpolated')`,
      [deviceId, month, firstOpen],
    );
    const params = [deviceId, counting.value, counting.declared_at, counting.channel, counting.entered_by];
    if (!kept[0]?.late) {
      await tx.query(`${upsertDeclared('')} WHERE b.source <> 'manual'`, [...params, month]);
      return;
    }
    // Carried into the first open month: over an estimate there, or a declaration carried from a month
    // up to this one; never over that month's own declaration, a measured or a manual value.
    await tx.query(
      `${upsertDeclared(IN_SERVICE)}
        WHERE b.source IN ('estimated', 'interpolated')
           OR (b.source = 'declared' AND b.reading_ts < $6::date::timestamp::timestamptz
               AND b.reading_ts <= excluded.reading_ts)`,
      [...params, firstOpen],
    );
  });
}

/** The device in service at the month end of $6. */
const IN_SERVICE = `AND coalesce(d.installed_at, '-infinity') < ($6::date + interval '1 month')::timestamp::timestamptz
  AND coalesce(d.removed_at, 'infinity') >= ($6::date + interval '1 month')::timestamp::timestamptz`;

/** A declared month end ($1 device, $2 value, $3 time, $4 channel, $5 user, $6 month); `where` on `device d`. */
const upsertDeclared = (
  where: string,
) => `INSERT INTO month_end AS b (device_id, month, value, source, reading_ts, method, set_by)
  SELECT $1, $6::date, $2::numeric, 'declared', $3::timestamptz, $4, $5 FROM device d WHERE d.id = $1 ${where}
  ON CONFLICT (device_id, month) DO UPDATE SET
    value = excluded.value, source = 'declared', reading_ts = excluded.reading_ts, next_ts = NULL,
    method = excluded.method, set_by = excluded.set_by, reason = NULL, computed_at = now(),
    previous_value = CASE WHEN (b.value, b.source) IS DISTINCT FROM (excluded.value, excluded.source)
                          THEN b.value ELSE b.previous_value END,
    previous_source = CASE WHEN (b.value, b.source) IS DISTINCT FROM (excluded.value, excluded.source)
                           THEN b.source ELSE b.previous_source END,
    changed_at = CASE WHEN (b.value, b.source) IS DISTINCT FROM (excluded.value, excluded.source)
                      THEN now() ELSE b.changed_at END`;
