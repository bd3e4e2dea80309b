import type { DeviceRole } from '@rodmenys/contract';
import type { Db } from '../db/db.js';
import { META, readDemoCases } from './cases.js';
import { type DeviceTypeId, READING_COPY, renderSeries, timeline } from './readings.js';

/**
 * Brings a demo database's readings up to `now` with the generator's formulas, so
 * a demo started days after seeding does not look silent. The special cases stay:
 * the silent device stays silent, the never-reported flat stays empty. Does
 * nothing (one query) on a non-demo database or when no reading is due yet.
 * Returns the number of readings added.
 */
export async function topUpDemo(db: Db, now: Date = new Date()): Promise<number> {
  const { rows: meta } = await db.query<{ key: string; value: string }>(
    'SELECT key, value FROM app_meta WHERE key = ANY($1)',
    [[META.demo, META.seed, META.intervalHours, META.generatedUntil]],
  );
  const get = (key: string) => meta.find((r) => r.key === key)?.value;
  const intervalHours = Number(get(META.intervalHours));
  const until = Date.parse(get(META.generatedUntil) ?? '');
  if (get(META.demo) !== 'true' || !(intervalHours > 0) || !(until < now.getTime())) return 0;
  // A reading lands within the first hour of its slot: none is due until a slot starts after `until` - 1 h.
  const intervalMs = intervalHours * 3_600_000;
  if (Math.floor(now.getTime() / intervalMs) * intervalMs + 3_600_000 <= until) return 0;

  return db.transaction(async (tx) => {
    // Two servers starting at once: the second waits here and then finds nothing due.
    const locked = await tx.query<{ value: string }>('SELECT value FROM app_meta WHERE key = $1 FOR UPDATE', [
      META.generatedUntil,
    ]);
    const after = Date.parse(locked.rows[0]?.value ?? '');
    if (!(after < now.getTime())) return 0;
    const seed = Number(get(META.seed));
    const cases = await readDemoCases(tx);
    // A reset that no reading has shown yet (seeded in the first hours of a month) shows now.
    const resetAt = Date.parse(cases?.reset.resetAt ?? '');
    // The latest reading of every device that ever reported (never-reported devices have none).
    const { rows: devices } = await tx.query<{
      id: number;
      code: string;
      type_id: DeviceTypeId;
      role: DeviceRole | null;
      ts: string;
      value: string;
    }>(
      `SELECT d.id, d.device_code AS code, d.device_type_id AS type_id, d.role, iso(last.ts) AS ts, last.value::text AS value
       FROM device d
       CROSS JOIN LATERAL (SELECT ts, value FROM reading r WHERE r.device_id = d.id ORDER BY ts DESC LIMIT 1) last
       WHERE d.removed_at IS NULL ORDER BY d.id`,
    );
    const line = timeline(intervalHours, after, now.getTime());
    let added = 0;
    function* chunks(): Generator<string> {
      for (const d of devices) {
        // The silent device stays silent; the declared meters are read by hand (their declarations).
        if (d.id === cases?.silent.deviceId || cases?.declared?.deviceIds.includes(d.id)) continue;
        const s = renderSeries(
          line,
          { id: d.id, code: d.code, typeId: d.type_id, role: d.role },
          {
            seed,
            afterMs: after,
            untilMs: now.getTime(),
            fromValue: Number(d.value),
            resetAtMs: d.id === cases?.reset.deviceId && Date.parse(d.ts) < resetAt ? resetAt : undefined,
          },
        );
        added += s.count;
        if (s.csv) yield s.csv;
      }
    }
    await tx.copyIn(READING_COPY, chunks());
    await tx.query('SELECT keep_last_seen($1::int[])', [devices.map((d) => d.id)]);
    await tx.query('UPDATE app_meta SET value = $2 WHERE key = $1', [META.generatedUntil, now.toISOString()]);
    return added;
  });
}
