/**
 * Stores `valued` (id, <key>, source, value, reading_ts, next_ts, method) into a table of values
 * at a boundary (`month_end` by month, `move_value` by moving day): a manual or declared row
 * (docs/declared-readings.md) stays; an
 * unchanged row is not written; a changed one keeps what it replaced.
 */
export const boundaryValueUpsert = (table: 'month_end' | 'move_value', key: 'month' | 'day') => `
  INSERT INTO ${table} AS b (device_id, ${key}, value, source, reading_ts, next_ts, method)
  SELECT id, ${key}, value, source, reading_ts, next_ts, method FROM valued ORDER BY id, ${key}
  ON CONFLICT (device_id, ${key}) DO UPDATE SET
    value = excluded.value, source = excluded.source, reading_ts = excluded.reading_ts,
    next_ts = excluded.next_ts, method = excluded.method, computed_at = now(),
    previous_value = CASE WHEN (b.value, b.source) IS DISTINCT FROM (excluded.value, excluded.source)
                          THEN b.value ELSE b.previous_value END,
    previous_source = CASE WHEN (b.value, b.source) IS DISTINCT FROM (excluded.value, excluded.source)
                           THEN b.source ELSE b.previous_source END,
    changed_at = CASE WHEN (b.value, b.source) IS DISTINCT FROM (excluded.value, excluded.source)
                      THEN now() ELSE b.changed_at END
  WHERE b.source NOT IN ('manual', 'declared')
    AND (b.value, b.source, b.reading_ts, b.next_ts, b.method)
        IS DISTINCT FROM (excluded.value, excluded.source, excluded.reading_ts, excluded.next_ts, excluded.method)`;
