import type { Queryable } from '../../db/db.js';
import { writeIntoMonths } from '../partitions/partitions.js';
import { storeGivenReadings } from '../readings/store-readings.js';
import { countingSql } from './rows.js';

/**
 * What a device's declarations of a month become (docs/declared-readings.md): the one that counts
 * (rows.ts) is the device's reading at its time and the month's end value with source `declared`
 * (who entered it: `set_by`, the channel: `method`), which the month-end computation never replaces;
 * the readings of declarations that no longer count are taken back. Without one that counts (all
 * rejected) a declared month end goes and the month is computed again from the readings.
 * An operator's manual month end stays. Call it in the transaction that changed the declarations
 * (the occupant's declaration, the back office's entry, accept or reject).
 */
export async function applyDeclarations(tx: Queryable, deviceId: number, month: string): Promise<void> {
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
    // The readings of this month's declarations that do not count (any more).
    await tx.query(
      `WITH gone AS (
         DELETE FROM reading r USING declaration x
          WHERE x.device_id = $1 AND x.month = $2::date AND r.device_id = $1 AND r.ts = x.declared_at
            AND x.id IS DISTINCT FROM $3::int AND r.ts IS DISTINCT FROM $4::timestamptz
         RETURNING r.ts)
       INSERT INTO dq_pending (device_id, month)
       SELECT DISTINCT $1::int, date_trunc('month', ts)::date FROM gone ON CONFLICT DO NOTHING`,
      [deviceId, month, counting?.id ?? null, counting?.declared_at ?? null],
    );
    if (!counting) {
      await tx.query(
        `WITH gone AS (DELETE FROM month_end WHERE device_id = $1 AND month = $2::date AND source = 'declared' RETURNING 1)
         INSERT INTO dq_pending (device_id, month) SELECT $1, $2::date FROM gone ON CONFLICT DO NOTHING`,
        [deviceId, month],
      );
      return;
    }
    await storeGivenReadings(tx, [{ deviceId, ts: counting.declared_at, value: Number(counting.value) }]);
    await tx.query(
      `INSERT INTO month_end AS b (device_id, month, value, source, reading_ts, method, set_by)
       VALUES ($1, $2::date, $3::numeric, 'declared', $4::timestamptz, $5, $6)
       ON CONFLICT (device_id, month) DO UPDATE SET
         value = excluded.value, source = 'declared', reading_ts = excluded.reading_ts, next_ts = NULL,
         method = excluded.method, set_by = excluded.set_by, reason = NULL, computed_at = now(),
         previous_value = CASE WHEN (b.value, b.source) IS DISTINCT FROM (excluded.value, excluded.source)
                               THEN b.value ELSE b.previous_value END,
         previous_source = CASE WHEN (b.value, b.source) IS DISTINCT FROM (excluded.value, excluded.source)
                                THEN b.source ELSE b.previous_source END,
         changed_at = CASE WHEN (b.value, b.source) IS DISTINCT FROM (excluded.value, excluded.source)
                           THEN now() ELSE b.changed_at END
       WHERE b.source <> 'manual'`,
      [deviceId, month, counting.value, counting.declared_at, counting.channel, counting.entered_by],
    );
  });
}
