import { LOCATION_LEVEL } from '@rodmenys/contract';
import type { Tx } from '../../db/db.js';
import { loadSettings } from '../settings.js';
import { buildingIdOf } from '../sql.js';

/** The flag a telegram whose value was held back carries (its raw JSON is kept; no reading is stored). */
export const SUSPECT_FLAG = 'SUSPECT_VALUE';

/** A telegram's value as the check sees it: its device, its device type, its reception time and value. */
export interface Candidate {
  deviceId: number;
  typeId: number;
  ts: string;
  value: number;
}

/** A value held back: the telegram's, and the reading before it it was measured against. */
export interface HeldBack {
  deviceId: number;
  ts: string;
  value: number;
  previous: { ts: string; value: number };
  maxPerDay: number;
}

const DAY_MS = 86_400_000;

/**
 * The collector values that jump beyond the device's plausible range (docs/collectors.md, "A wrong
 * key"): a rise since the reading before it larger than `suspect.maxPerDay` of its device type times
 * the days between them (at least one day). A wrong key decodes garbage (an Apator NA-1 gave
 * 8,066,816 m³): stored as a reading it would be billed. `candidates` in (device, time) order; a
 * held-back value is no reading for the ones after it. Devices without an earlier reading pass.
 */
export async function findSuspectValues(tx: Tx, candidates: readonly Candidate[]): Promise<HeldBack[]> {
  if (candidates.length === 0) return [];
  const limits = (await loadSettings(tx))['suspect.maxPerDay'] ?? {};
  const { rows } = await tx.query<{ i: number; ts: string; value: string }>(
    `SELECT x.i::int AS i, iso(r.ts) AS ts, r.value::text AS value
       FROM unnest($1::int[], $2::timestamptz[]) WITH ORDINALITY AS x(d, t, i)
      CROSS JOIN LATERAL (SELECT ts, value FROM reading WHERE device_id = x.d AND ts < x.t
                           ORDER BY ts DESC LIMIT 1) r`,
    [candidates.map((c) => c.deviceId), candidates.map((c) => c.ts)],
  );
  const stored = new Map(rows.map((r) => [r.i - 1, { ts: r.ts, value: Number(r.value) }]));
  const held: HeldBack[] = [];
  let last: { deviceId: number; ts: string; value: number } | undefined;
  candidates.forEach((c, i) => {
    const before = stored.get(i);
    const inBatch = last?.deviceId === c.deviceId ? last : undefined;
    const previous =
      inBatch && (!before || Date.parse(inBatch.ts) > Date.parse(before.ts)) ? inBatch : (before ?? undefined);
    const maxPerDay = limits[String(c.typeId)];
    if (previous && maxPerDay !== undefined) {
      const days = Math.max(1, (Date.parse(c.ts) - Date.parse(previous.ts)) / DAY_MS);
      if (c.value - previous.value > maxPerDay * days) {
        held.push({ deviceId: c.deviceId, ts: c.ts, value: c.value, previous, maxPerDay });
        return;
      }
    }
    last = { deviceId: c.deviceId, ts: c.ts, value: c.value };
  });
  return held;
}

/**
 * Opens (or refreshes) one anomaly per device with held-back values: WRONG_KEY ("possibly a wrong
 * key") when a meter key is stored for it, else SUSPECT_VALUE; evidence: the value held back, the
 * reading before it, the limit and how many were held back. An operator resolves it (the values
 * stay in the telegrams). A device placed above a building has no anomaly (an anomaly belongs to a
 * building); its value is held back all the same.
 */
export async function reportSuspectValues(tx: Tx, held: readonly HeldBack[], now: Date): Promise<void> {
  if (held.length === 0) return;
  await tx.query(
    `WITH h AS (
       SELECT d, max(t) AS last, count(*)::int AS n,
              (array_agg(jsonb_build_object('time', iso(t), 'value', v) ORDER BY t DESC))[1] AS reading,
              (array_agg(jsonb_build_object('time', iso(pt), 'value', pv) ORDER BY t DESC))[1] AS previous,
              max(m) AS max_per_day
         FROM unnest($2::int[], $3::timestamptz[], $4::numeric[], $5::timestamptz[], $6::numeric[], $7::numeric[])
              AS x(d, t, v, pt, pv, m)
        GROUP BY d
     ), found AS (
       SELECT CASE WHEN EXISTS (SELECT FROM meter_key k WHERE k.device_id = h.d) THEN 'WRONG_KEY' ELSE 'SUSPECT_VALUE' END
                AS rule,
              h.d AS device_id, ${buildingIdOf('l')} AS building_id, h.n,
              jsonb_build_object('reading', h.reading, 'previous', h.previous, 'maxPerDay', h.max_per_day) AS evidence
         FROM h JOIN device dv ON dv.id = h.d JOIN location l ON l.id = dv.location_id
        WHERE l.level >= ${LOCATION_LEVEL.building} -- an anomaly is a building's; a device placed above one has none
     ), refreshed AS (
       UPDATE anomaly a
          SET evidence = f.evidence || jsonb_build_object('count', coalesce((a.evidence ->> 'count')::int, 0) + f.n),
              last_seen_at = $1::timestamptz
         FROM found f
        WHERE a.rule = f.rule AND a.device_id = f.device_id AND a.state <> 'resolved' AND NOT a.evidence ? 'heardBy'
       RETURNING a.id
     )
     INSERT INTO anomaly (rule, building_id, device_id, evidence, opened_at, last_seen_at)
     SELECT f.rule, f.building_id, f.device_id, f.evidence || jsonb_build_object('count', f.n), $1::timestamptz,
            $1::timestamptz
       FROM found f
      WHERE NOT EXISTS (SELECT FROM anomaly a WHERE a.rule = f.rule AND a.device_id = f.device_id AND a.state <> 'resolved'
                          AND NOT a.evidence ? 'heardBy')
      ORDER BY f.device_id
     ON CONFLICT DO NOTHING`,
    [
      now,
      held.map((h) => h.deviceId),
      held.map((h) => h.ts),
      held.map((h) => String(h.value)),
      held.map((h) => h.previous.ts),
      held.map((h) => String(h.previous.value)),
      held.map((h) => String(h.maxPerDay)),
    ],
  );
}
