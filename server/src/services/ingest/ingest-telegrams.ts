import type { DataLoadProc, IngestResult, Rejected } from '@rodmenys/contract';
import type { Db, Queryable, Tx } from '../../db/db.js';
import { requireMonthPartitions, writeIntoMonths } from '../partitions/partitions.js';
import { readingsStatement } from '../readings/store-readings.js';
import { type Mapped, mapTelegram, readTelegram, type Telegram, type TelegramItem } from './map-telegram.js';
import { findSuspectValues, reportSuspectValues, SUSPECT_FLAG } from './suspect-values.js';

interface Device {
  id: number;
  kind: DataLoadProc;
  typeId: number;
}

/** A telegram of a known device, ready to store: its line of COPY text. */
interface Row {
  deviceId: number;
  ts: string;
  line: string;
}

/** The devices with these serial numbers (a wmbusmeters meter id is the device's serial number). */
export async function findDevices(db: Queryable, serials: string[]): Promise<Map<string, Device>> {
  const { rows } = await db.query<{ device_code: string; id: number; kind: DataLoadProc; type_id: number }>(
    `SELECT d.device_code, d.id, t.data_load_proc AS kind, d.device_type_id AS type_id
       FROM device d JOIN device_type t ON t.id = d.device_type_id
      WHERE d.device_code = ANY($1::text[])`,
    [serials],
  );
  return new Map(rows.map((r) => [r.device_code, { id: r.id, kind: r.kind, typeId: r.type_id }]));
}

/**
 * Takes in a collector request: telegrams of known devices are stored (raw JSON,
 * flags, set-day; a reading when they carry a value), those of unknown meters go
 * to the unmatched inbox, unusable ones are listed with their reason. One
 * transaction: the answer comes after COMMIT, so what it reports as stored is
 * durable. Idempotent on (device, reception time).
 */
export async function ingestTelegrams(db: Db, items: TelegramItem[], now = new Date()): Promise<IngestResult> {
  await adoptMatchedMeters(db, now);
  return writeIntoMonths(db, () => db.transaction((tx) => storeItems(tx, items, now)));
}

async function storeItems(tx: Tx, items: TelegramItem[], now: Date): Promise<IngestResult> {
  const rejected: Rejected[] = [];
  const reject = (item: TelegramItem, reason: string) =>
    rejected.push({
      Position: item.position,
      MeterId: typeof item.json.id === 'string' ? item.json.id.slice(0, 64) : null,
      Reason: reason,
    });
  const telegrams: Telegram[] = [];
  const serials = new Set<string>();
  for (const item of items) {
    const t = readTelegram(item, now);
    if (typeof t === 'string') reject(item, t);
    else {
      telegrams.push(t);
      serials.add(t.meterId);
    }
  }
  const devices = await findDevices(tx, [...serials]);
  const known: { device: Device; t: Telegram; mapped: Mapped }[] = [];
  const unmatched: Telegram[] = [];
  for (const t of telegrams) {
    const device = devices.get(t.meterId);
    if (!device) {
      unmatched.push(t);
      continue;
    }
    const mapped = mapTelegram(t.json, device.kind);
    if (typeof mapped === 'string') reject(t, mapped);
    else known.push({ device, t, mapped });
  }
  // One lock order for every writer, so that concurrent batches never deadlock.
  known.sort((a, b) => a.device.id - b.device.id || (a.t.ts < b.t.ts ? -1 : a.t.ts > b.t.ts ? 1 : 0));
  // A value beyond the device's plausible range (a wrong key's garbage) is held back: the telegram is
  // kept with a flag, no reading is stored, and an anomaly says so (docs/collectors.md, "A wrong key").
  const withValue = known.filter((k) => k.mapped.value !== null);
  const held = await findSuspectValues(
    tx,
    withValue.map((k) => ({
      deviceId: k.device.id,
      typeId: k.device.typeId,
      ts: k.t.ts,
      value: Number(k.mapped.value),
    })),
  );
  const heldKeys = new Set(held.map((h) => `${h.deviceId} ${h.ts}`));
  const rows: Row[] = known.map(({ device, t, mapped }) => {
    const suspect = mapped.value !== null && heldKeys.has(`${device.id} ${t.ts}`);
    const kept = suspect ? { ...mapped, value: null, flags: [...mapped.flags, SUSPECT_FLAG] } : mapped;
    return { deviceId: device.id, ts: t.ts, line: batchRow(device.id, t, kept) };
  });
  unmatched.sort((a, b) => (a.meterId < b.meterId ? -1 : a.meterId > b.meterId ? 1 : a.ts < b.ts ? -1 : 1));
  // The months written into have their partitions before anything is written (docs/scaling.md).
  await requireMonthPartitions(
    tx,
    rows.map((r) => r.ts),
  );
  const { stored, readings } = await storeTelegrams(tx, rows);
  await reportSuspectValues(tx, held, now);
  await keepUnmatched(tx, unmatched);
  rejected.sort((a, b) => a.Position - b.Position);
  return {
    Received: items.length,
    Stored: stored,
    Readings: readings,
    Duplicates: rows.length - stored,
    Unmatched: unmatched.length,
    Rejected: rejected,
  };
}

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIALS = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A field for COPY's text format: \N for null; backslash, tab, newline and carriage return escaped. */
const copyField = (v: string | null) =>
  v === null ? '\\N' : COPY_SPECIAL.test(v) ? v.replace(COPY_SPECIALS, (c) => COPY_ESCAPES[c]!) : v;

/** A telegram as a line of COPY text for `telegram_in`; its JSON goes as it came. */
const batchRow = (deviceId: number, t: Telegram, m: Mapped) =>
  `${deviceId}\t${copyField(t.ts)}\t${copyField(m.meterTs)}\t${copyField(m.value)}\t${copyField(m.flags.join(' '))}\t` +
  `${copyField(m.setDate)}\t${copyField(m.setValue)}\t${copyField(t.raw)}\t` +
  `${m.history.length ? copyField(JSON.stringify(m.history)) : '\\N'}\n`;

/** The batch's statement: telegrams, set-day memory, then its readings by the one reading writer. */
const STORE_BATCH = readingsStatement({
  with: `stored AS (
       INSERT INTO telegram (device_id, ts, flags, set_date, set_value, raw)
       SELECT d, t, string_to_array(f, ' '), sd, sv, r FROM telegram_in
       ON CONFLICT DO NOTHING
       RETURNING 1
     ), memory AS (
       INSERT INTO device_memory (device_id, day, value, ts)
       SELECT DISTINCT ON (x.d, x.day) x.d, x.day, x.value, x.t FROM (
         SELECT d, t, sd AS day, sv AS value FROM telegram_in WHERE sd IS NOT NULL AND sv IS NOT NULL
         UNION ALL
         SELECT i.d, i.t, (e.v ->> 0)::date, (e.v ->> 1)::numeric FROM telegram_in i, json_array_elements(i.h) AS e(v)
          WHERE i.h IS NOT NULL
       ) x
        WHERE EXISTS (SELECT FROM device WHERE id = x.d)
        ORDER BY x.d, x.day, x.t
       ON CONFLICT DO NOTHING
       RETURNING device_id, day
     )`,
  rows: `SELECT d, t, m, v FROM telegram_in i WHERE v IS NOT NULL AND EXISTS (SELECT FROM device WHERE id = i.d)
        ORDER BY d, t`,
  onConflict: 'keep',
  // A set-day value closes the month before its day.
  morePending: "SELECT device_id, date_trunc('month', day - 1)::date FROM memory",
  telegrams: {
    latest: `SELECT DISTINCT ON (d) d AS device_id, t AS ts, string_to_array(f, ' ') AS flags
               FROM telegram_in ORDER BY d, t DESC`,
    setDay: `SELECT DISTINCT ON (d) d AS device_id, sd AS set_date, sv AS set_value
               FROM telegram_in WHERE sd IS NOT NULL ORDER BY d, sd DESC, t DESC`,
  },
  result: 'SELECT (SELECT count(*) FROM stored)::int AS stored, (SELECT count(*) FROM written)::int AS readings',
});

/**
 * One COPY and one statement per batch: the new telegrams, a reading for each
 * that carries a value, and the per-device summary the readings screen joins
 * (when it last reported, the flags of its latest telegram, its latest set-day
 * value; batches may come out of order: nothing newer is overwritten by
 * something older). The batch goes through COPY into a temporary table of the
 * session, emptied at every commit; rows arrive sorted (the lock order).
 */
async function storeTelegrams(tx: Tx, rows: Row[]): Promise<{ stored: number; readings: number }> {
  if (rows.length === 0) return { stored: 0, readings: 0 };
  await tx.exec(
    `CREATE TEMPORARY TABLE IF NOT EXISTS telegram_in
       (d int, t timestamptz, m timestamptz, v numeric, f text, sd date, sv numeric, r json, h json) ON COMMIT DELETE ROWS`,
  );
  await tx.copyIn('COPY telegram_in FROM STDIN', [rows.map((r) => r.line).join('')]);
  const { rows: counts } = await tx.query<{ stored: number; readings: number }>(STORE_BATCH);
  return counts[0]!;
}

/** Telegrams of unknown meters: kept (idempotently) with a per-meter summary for the inbox. */
async function keepUnmatched(tx: Queryable, telegrams: Telegram[]): Promise<void> {
  if (telegrams.length === 0) return;
  await tx.query(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::json[]) AS t(meter_id, ts, driver, raw)
     ), kept AS (
       INSERT INTO unmatched_telegram (meter_id, ts, raw) SELECT meter_id, ts, raw FROM input
       ON CONFLICT DO NOTHING
       RETURNING meter_id, ts
     ), per_meter AS (
       SELECT meter_id, min(ts) AS first_seen, count(*)::int AS n FROM kept GROUP BY meter_id
     ), latest AS (
       SELECT DISTINCT ON (meter_id) meter_id, ts, driver, raw FROM input ORDER BY meter_id, ts DESC
     )
     INSERT INTO unmatched_meter AS u (meter_id, driver, first_seen, last_seen, telegram_count, last_json)
     SELECT p.meter_id, l.driver, p.first_seen, l.ts, p.n, l.raw::text::jsonb
       FROM per_meter p JOIN latest l USING (meter_id)
      ORDER BY p.meter_id
     ON CONFLICT (meter_id) DO UPDATE SET
       driver = coalesce(excluded.driver, u.driver),
       first_seen = least(u.first_seen, excluded.first_seen),
       last_seen = greatest(u.last_seen, excluded.last_seen),
       telegram_count = u.telegram_count + excluded.telegram_count,
       last_json = CASE WHEN excluded.last_seen >= u.last_seen THEN excluded.last_json ELSE u.last_json END`,
    [
      telegrams.map((t) => t.meterId),
      telegrams.map((t) => t.ts),
      telegrams.map((t) => t.driver),
      telegrams.map((t) => t.raw),
    ],
  );
}

/**
 * Takes in the kept telegrams of unmatched meters for which a device with that
 * serial number now exists (of `serials` only, when given), and empties their
 * inbox entries, in the caller's transaction. The paths that give a device its
 * serial (adding, replacing, the register import) call it, so the device's
 * history arrives with it; concurrent callers skip meters another one holds.
 */
export async function adoptWaiting(tx: Tx, now = new Date(), serials?: readonly string[]): Promise<number> {
  const { rows: locked } = await tx.query<{ meter_id: string }>(
    `SELECT u.meter_id FROM unmatched_meter u
      WHERE EXISTS (SELECT 1 FROM device d WHERE d.device_code = u.meter_id)
        AND ($1::text[] IS NULL OR u.meter_id = ANY ($1::text[]))
      ORDER BY u.meter_id FOR UPDATE SKIP LOCKED`,
    [serials ? [...serials] : null],
  );
  const ids = locked.map((r) => r.meter_id);
  if (ids.length === 0) return 0;
  const { rows: kept } = await tx.query<{ raw: string }>(
    'SELECT raw::text AS raw FROM unmatched_telegram WHERE meter_id = ANY($1::text[]) ORDER BY meter_id, ts',
    [ids],
  );
  const items = kept.map((k, i) => ({
    position: i + 1,
    json: JSON.parse(k.raw) as Record<string, unknown>,
    raw: k.raw,
  }));
  await storeItems(tx, items, now);
  await tx.query('DELETE FROM unmatched_telegram WHERE meter_id = ANY($1::text[])', [ids]);
  await tx.query('DELETE FROM unmatched_meter WHERE meter_id = ANY($1::text[])', [ids]);
  return ids.length;
}

/**
 * Every waiting meter a device now matches (a device created some other way, e.g.
 * straight in the database): the safety net run before every collector request.
 */
export async function adoptMatchedMeters(db: Db, now = new Date()): Promise<number> {
  const { rows: found } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM unmatched_meter u JOIN device d ON d.device_code = u.meter_id',
  );
  if (!found[0]?.n) return 0;
  return writeIntoMonths(db, () => db.transaction((tx) => adoptWaiting(tx, now)));
}
