/**
 * What the LoRaWAN benchmark checks in the database after a run (docs/benchmarks.md, "LoRaWAN
 * ingest"): every acknowledged uplink stored exactly once, the readings they gave, the JSON and the
 * Protobuf runs storing the same values and readings for the same uplinks, the resent slice adding
 * nothing, the collectors' telegrams all stored as readings. Each failed check is a line of the answer.
 */
import type { Queryable } from '@rodmenys/server/db/db.js';
import { SETS, WMBUS_PREFIX } from './lorawan-world.js';

export interface Expected {
  /** Uplinks acknowledged as stored, per set (the resent slice answered `duplicate` and is not in them). */
  uplinks: Record<string, number>;
  /** Readings they must have given, per set. */
  readings: Record<string, number>;
  /** Telegrams acknowledged as stored. */
  telegrams: number;
}

export interface Counted {
  uplinks: Record<string, number>;
  readings: Record<string, number>;
  telegramReadings: number;
  failures: string[];
}

const one = async (db: Queryable, sql: string, params: unknown[] = []) =>
  (await db.query<{ n: number }>(sql, params)).rows[0]!.n;

/** Of a set's uplinks or readings, what the other set lacks: their rows keyed by device index (`A-17` → 17). */
const UPLINK_ROWS = (set: string) => `
  SELECT substr(d.device_code, 3)::int AS i, u.f_cnt, u.received_at, u.meter_ts, u.value, u.decoder, u.reason,
         u.decoded, u.alarms, u.rssi, u.snr, u.gateways, u.f_port, u.payload
    FROM lorawan_uplink u JOIN device d ON d.id = u.device_id
   WHERE d.device_code LIKE '${set}-%'`;
const READING_ROWS = (set: string) => `
  SELECT substr(d.device_code, 3)::int AS i, r.ts, r.meter_ts, r.value
    FROM reading r JOIN device d ON d.id = r.device_id
   WHERE d.device_code LIKE '${set}-%'`;

export async function checkStored(db: Queryable, expected: Expected): Promise<Counted> {
  const failures: string[] = [];
  const uplinks: Record<string, number> = {};
  const readings: Record<string, number> = {};
  for (const set of Object.values(SETS)) {
    const like = `${set}-%`;
    const { rows } = await db.query<{ n: number; once: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT (u.dev_eui, u.f_cnt))::int AS once
         FROM lorawan_uplink u JOIN device d ON d.id = u.device_id WHERE d.device_code LIKE $1`,
      [like],
    );
    uplinks[set] = rows[0]!.n;
    if (rows[0]!.n !== expected.uplinks[set])
      failures.push(`set ${set}: ${rows[0]!.n} uplinks stored, ${expected.uplinks[set]} acknowledged as stored`);
    if (rows[0]!.once !== rows[0]!.n) failures.push(`set ${set}: ${rows[0]!.n - rows[0]!.once} uplinks stored twice`);
    readings[set] = await one(
      db,
      'SELECT count(*)::int AS n FROM reading r JOIN device d ON d.id = r.device_id WHERE d.device_code LIKE $1',
      [like],
    );
    if (readings[set] !== expected.readings[set])
      failures.push(`set ${set}: ${readings[set]} readings stored, ${expected.readings[set]} expected`);
  }
  const strays = await one(db, 'SELECT count(*)::int AS n FROM lorawan_uplink WHERE device_id IS NULL');
  if (strays) failures.push(`${strays} uplinks in the unmatched inbox (every DevEUI is a device's)`);
  const { json, protobuf } = SETS;
  for (const [what, rows] of [
    ['uplinks', UPLINK_ROWS],
    ['readings', READING_ROWS],
  ] as const) {
    for (const [a, b] of [
      [json, protobuf],
      [protobuf, json],
    ] as const) {
      const n = await one(db, `SELECT count(*)::int AS n FROM (${rows(a)} EXCEPT ALL ${rows(b)}) x`);
      if (n) failures.push(`${n} ${what} of set ${a} (${a === json ? 'JSON' : 'Protobuf'}) differ from set ${b}'s`);
    }
  }
  const telegramReadings = await one(
    db,
    `SELECT count(*)::int AS n FROM reading r JOIN device d ON d.id = r.device_id
      WHERE d.device_code ~ ('^' || $1 || '[0-9]+$')`,
    [WMBUS_PREFIX],
  );
  if (telegramReadings !== expected.telegrams)
    failures.push(`${telegramReadings} readings from telegrams, ${expected.telegrams} telegrams acknowledged`);
  return { uplinks, readings, telegramReadings, failures };
}
