import type { DataLoadProc, LnsEventResult } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { requireMonthPartitions, writeIntoMonths } from '../partitions/partitions.js';
import { readingsStatement } from '../readings/store-readings.js';
import { parseTime } from '../time.js';
import type { Decoders } from './decoding.js';
import type { UplinkEvent } from './envelopes.js';
import { type DecodingDeviceWithId, type MappingColumns, mappingOf, type Prepared, prepare } from './prepare.js';

/**
 * Stores a batch of uplinks (docs/lorawan.md, "How uplinks are written"): one lookup of every
 * DevEUI of the batch, the decoding in the process, then one statement that inserts the uplinks,
 * their readings, the months to compute again and device_status, from arrays (unnest). The
 * statement is its own transaction: when it returns, every uplink of the batch is committed.
 * Idempotent as a single uplink is: the same uplink already stored, or twice in the batch, is
 * stored once (the unique indexes, ON CONFLICT DO NOTHING), and each uplink learns its own outcome.
 */

export interface UplinkItem {
  /** The connection whose key the uplink came with. */
  connectionId: number;
  event: UplinkEvent;
  decoders: Decoders;
}

/**
 * The devices of these (DevEUI, connection) pairs, whether the connection serves each one's building,
 * their mappings: a function of migration 380, whose plan the database keeps per session.
 */
const DEVICES = `SELECT dev_eui, connection_id, id, kind, model, decoder, value_field, unit, scale, time_field, served, fp
       FROM lorawan_devices($1::text[], $2::int[])`;

interface DeviceRow extends MappingColumns {
  dev_eui: string;
  connection_id: number;
  id: number;
  kind: DataLoadProc;
  model: string | null;
  decoder: string | null;
  served: boolean;
  fp: string;
}

/** A device as a lookup gave it, with the lookup's fingerprint (the write checks it is still so). */
interface Known {
  device: DecodingDeviceWithId;
  fp: string;
}

const pairKey = (devEui: string, connectionId: number) => `${devEui}/${connectionId}`;

/**
 * The devices the last lookups gave, per (DevEUI, connection), per database handle: a batch whose
 * pairs are all here skips the lookup's round trip, and its write checks each one against the
 * lookup made in its own snapshot (STORE_UPLINKS_STATEMENT, `fp`). A remembered entry is never
 * trusted, only a guess that saves a round trip when right; a wrong one costs a second statement.
 */
const remembered = new WeakMap<Queryable, Map<string, Known>>();
/** Entries remembered at most (about 300 bytes each); past it, the map starts again. */
const REMEMBER_MAX = 100_000;

function rememberedDevices(db: Queryable): Map<string, Known> {
  let m = remembered.get(db);
  if (!m) {
    m = new Map();
    remembered.set(db, m);
  }
  return m;
}

/** The device each uplink's DevEUI names among the connection's buildings (null: unknown to this connection). */
async function findDevices(db: Queryable, items: readonly UplinkItem[]): Promise<(Known | null)[]> {
  const pairs = new Map<string, [string, number]>();
  for (const { event, connectionId } of items)
    pairs.set(pairKey(event.devEui, connectionId), [event.devEui, connectionId]);
  const { rows } = await db.query<DeviceRow>(DEVICES, [
    [...pairs.values()].map((p) => p[0]),
    [...pairs.values()].map((p) => p[1]),
  ]);
  const memory = rememberedDevices(db);
  for (const key of pairs.keys()) memory.delete(key);
  if (memory.size + pairs.size > REMEMBER_MAX) memory.clear();
  for (const r of rows) {
    // A device of another connection's buildings is, for this key, an unknown DevEUI.
    if (!r.served) continue;
    const device = { id: r.id, kind: r.kind, model: r.model, decoder: r.decoder, mapping: mappingOf(r) };
    memory.set(pairKey(r.dev_eui, r.connection_id), { device, fp: r.fp });
  }
  return items.map((item) => memory.get(pairKey(item.event.devEui, item.connectionId)) ?? null);
}

/** The remembered devices of every uplink of the batch, or undefined when one is not remembered. */
function rememberedFor(db: Queryable, items: readonly UplinkItem[]): Known[] | undefined {
  const memory = rememberedDevices(db);
  const known: Known[] = [];
  for (const item of items) {
    const k = memory.get(pairKey(item.event.devEui, item.connectionId));
    if (!k) return undefined;
    known.push(k);
  }
  return known;
}

/** `collector.clockSkewMinutes`, read at most once a minute (a meter's clock is judged as a collector's). */
let skew: { minutes: number; readAt: number } | undefined;
async function clockSkewMinutes(db: Queryable): Promise<number> {
  if (skew && Date.now() - skew.readAt < 60_000) return skew.minutes;
  const { rows } = await db.query<{ v: number | null }>(
    "SELECT (value #>> '{}')::float8 AS v FROM dq_setting WHERE key = 'collector.clockSkewMinutes'",
  );
  skew = { minutes: rows[0]?.v ?? 10, readAt: Date.now() };
  return skew.minutes;
}

/** UTC months (`YYYY-MM`) known to have their partitions (checked once per process, docs/scaling.md). */
const monthsReady = new Set<string>();
const utcMonth = (ts: string) => new Date(parseTime(ts)!.approxMs).toISOString().slice(0, 7);

/**
 * The uplinks inserted in one statement, in the order of their unique key (two batches in flight,
 * here or on another instance, take its index entries in the same order: copies of the same uplinks
 * in both wait for each other instead of deadlocking); `s` is each stored uplink with the first
 * input (`ord`, the order given) it came from (two identical copies in a batch: the first is
 * stored, the other is a duplicate), and the readings' rows, months and device_status follow from `s` as from
 * one uplink. The result: the stored uplinks' ordinals, and whether each wrote its reading (two
 * uplinks of one device at one time write one reading: the first one's).
 *
 * Each input row carries `fp`, the device lookup it was decoded with (lorawan_devices' fingerprint;
 * null: no device of the connection's buildings). Only the rows whose lookup gives the same now, in
 * this statement's snapshot, are written (`i`); the others come back `stale`, written nothing, and
 * the server decodes them again after a new lookup. So a remembered lookup (rememberedDevices) can
 * never write an uplink with a device, decoder or mapping that is no longer the device's.
 */
export const STORE_UPLINKS_STATEMENT = readingsStatement({
  with: `x AS (
       SELECT x.*
         FROM ROWS FROM (json_to_recordset($1::json) AS (
                connection_id int, dev_eui text, dev_addr text, f_cnt bigint, f_port smallint, payload text,
                dedup_id uuid, received_at timestamptz, meter_ts timestamptz, device_id int, device_name text,
                decoder text, value numeric, decoded jsonb, alarms text[], reason text, rssi real, snr real,
                gateways jsonb, lns_object jsonb, ts timestamptz, fp text))
              WITH ORDINALITY AS x(connection_id, dev_eui, dev_addr, f_cnt, f_port, payload, dedup_id, received_at,
                                   meter_ts, device_id, device_name, decoder, value, decoded, alarms, reason, rssi, snr,
                                   gateways, lns_object, ts, fp, ord)
     ), now_known AS MATERIALIZED (
       -- One lookup for the batch (not inlined into the check below, which would run it per row).
       SELECT f.dev_eui, f.connection_id, f.fp
         FROM (SELECT array_agg(dev_eui) AS e, array_agg(connection_id) AS c FROM x) a,
              lorawan_devices(a.e, a.c) f
        WHERE f.served
     ), i AS (
       SELECT x.connection_id, x.dev_eui, x.dev_addr, x.f_cnt, x.f_port, decode(x.payload, 'hex') AS payload,
              x.dedup_id, x.received_at, x.meter_ts, x.device_id, x.device_name, x.decoder, x.value, x.decoded,
              x.alarms, x.reason, x.rssi, x.snr, x.gateways, x.lns_object, x.ts, x.ord
         FROM x
        WHERE x.fp IS NOT DISTINCT FROM (SELECT k.fp FROM now_known k
                                          WHERE k.dev_eui = x.dev_eui AND k.connection_id = x.connection_id LIMIT 1)
     ), u AS (
       INSERT INTO lorawan_uplink (connection_id, dev_eui, dev_addr, f_cnt, f_port, payload, dedup_id, received_at,
                                   meter_ts, device_id, device_name, decoder, value, decoded, alarms, reason, rssi, snr,
                                   gateways, lns_object)
       SELECT connection_id, dev_eui, dev_addr, f_cnt, f_port, payload, dedup_id, received_at, meter_ts, device_id,
              device_name, decoder, value, decoded, alarms, reason, rssi, snr, gateways, lns_object
         FROM i ORDER BY dev_eui, dev_addr, f_cnt, payload, ord
       ON CONFLICT DO NOTHING
       RETURNING id, dev_eui, dev_addr, f_cnt, payload, dedup_id, device_id, value, alarms
     ), s AS (
       SELECT DISTINCT ON (u.id) u.id, u.device_id, u.value, u.alarms, i.meter_ts, i.ts, i.ord
         FROM u JOIN i ON i.dev_eui = u.dev_eui AND i.dev_addr = u.dev_addr AND i.payload = u.payload
                      AND i.f_cnt IS NOT DISTINCT FROM u.f_cnt AND i.dedup_id IS NOT DISTINCT FROM u.dedup_id
        ORDER BY u.id, i.ord
     )`,
  rows: 'SELECT device_id, ts, meter_ts, value FROM s WHERE device_id IS NOT NULL AND value IS NOT NULL ORDER BY 1, 2',
  onConflict: 'keep',
  telegrams: {
    // One row per device (ON CONFLICT DO UPDATE may touch a row once): its latest uplink's time and alarms.
    latest: `SELECT DISTINCT ON (device_id) device_id, ts, alarms AS flags FROM s WHERE device_id IS NOT NULL
              ORDER BY device_id, ts DESC, ord DESC`,
    setDay: 'SELECT device_id, NULL::date AS set_date, NULL::numeric AS set_value FROM s WHERE false',
  },
  result: `SELECT s.ord::int AS ord,
                  (w.device_id IS NOT NULL
                   AND row_number() OVER (PARTITION BY s.device_id, s.ts, w.device_id IS NOT NULL ORDER BY s.ord) = 1)
                    AS reading,
                  false AS stale
             FROM s LEFT JOIN written w ON s.value IS NOT NULL AND w.device_id = s.device_id AND w.ts = s.ts
           UNION ALL
           SELECT x.ord::int, false, true FROM x WHERE NOT EXISTS (SELECT FROM i WHERE i.ord = x.ord)`,
});

/**
 * What a batch sends: STORE_UPLINKS_STATEMENT run by the function of migration 381, whose plan the
 * database keeps per session (its body is that statement word for word; store-uplinks-function.test.ts
 * holds them equal).
 */
const STORE_UPLINKS =
  'SELECT stored_ord AS ord, gave_reading AS reading, is_stale AS stale FROM lorawan_store_uplinks($1::json)';

/**
 * The batch as one JSON parameter, an object per uplink (json_to_recordset reads it): one
 * JSON.stringify, where arrays of texts would escape every uplink's JSON a second time.
 */
function parameter(
  items: readonly UplinkItem[],
  prepared: readonly Prepared[],
  known: readonly (Known | null)[],
): string {
  return JSON.stringify(
    items.map(({ event: u, connectionId }, k) => {
      const p = prepared[k]!;
      return {
        connection_id: connectionId,
        dev_eui: u.devEui,
        dev_addr: u.devAddr,
        f_cnt: u.fCnt,
        f_port: u.fPort,
        payload: u.payload.toString('hex'),
        dedup_id: u.dedupId,
        received_at: u.time,
        meter_ts: p.meterTs,
        device_id: p.deviceId,
        device_name: u.deviceName,
        decoder: p.decoder,
        value: p.value,
        decoded: p.decoded,
        alarms: p.alarms,
        reason: p.reason,
        rssi: u.gateways[0]?.rssi ?? null,
        snr: u.gateways[0]?.snr ?? null,
        gateways: u.gateways,
        lns_object: u.object,
        ts: p.ts,
        fp: known[k]?.fp ?? null,
      };
    }),
  );
}

/** An uplink the write did not take: its device's lookup changed since (decoded again, written again). */
const STALE = Symbol('stale');

/**
 * A batch whose first rounds were committed and a later one failed: `results` holds the committed
 * uplinks' answers (the others are holes); `cause` is the later round's error.
 */
export class PartlyStored extends Error {
  constructor(
    readonly results: readonly (LnsEventResult | undefined)[],
    override readonly cause: unknown,
  ) {
    super('a LoRaWAN batch was stored in part', { cause });
  }
}

/** Rounds of a batch at most: each needs the device lookup to change between its lookup and its write. */
const MAX_ROUNDS = 5;

/**
 * Stores the uplinks (each already checked by its envelope reader) and answers each one's outcome,
 * in the order given, after the statement that wrote them has committed. A database error fails
 * the whole batch: nothing of it is stored. Uplinks decoded with a device lookup that changed
 * before the write (a remembered one, or one changed between the two statements) are decoded again
 * with a new lookup and written by a second statement, before any of the batch is answered.
 */
export async function storeUplinks(db: Queryable, items: readonly UplinkItem[]): Promise<LnsEventResult[]> {
  const results: LnsEventResult[] = new Array(items.length);
  let todo = items.map((_, k) => k);
  for (let round = 1; todo.length; round++) {
    const part = round === 1 ? items : todo.map((k) => items[k]!);
    let out: (LnsEventResult | typeof STALE)[];
    try {
      if (round > MAX_ROUNDS)
        throw new Error(`LoRaWAN devices kept changing while ${todo.length} uplinks were written`);
      out = await writeIntoMonths(db, () => writeOnce(db, part, round === 1));
    } catch (err) {
      // A later round failed: the first rounds' uplinks are committed and keep their answers.
      throw results.some((r) => r !== undefined) ? new PartlyStored(results, err) : err;
    }
    const stale: number[] = [];
    for (const [j, r] of out.entries()) {
      if (r === STALE) stale.push(todo[j]!);
      else results[todo[j]!] = r;
    }
    todo = stale;
  }
  return results;
}

/** One statement: the uplinks decoded with remembered devices (firstRound, all remembered) or a new lookup. */
async function writeOnce(
  db: Queryable,
  items: readonly UplinkItem[],
  firstRound: boolean,
): Promise<(LnsEventResult | typeof STALE)[]> {
  const known = (firstRound ? rememberedFor(db, items) : undefined) ?? (await findDevices(db, items));
  const skewMinutes = known.some((k) => k !== null) ? await clockSkewMinutes(db) : 0;
  const prepared = items.map((item, k) => prepare(item.decoders, known[k]?.device ?? null, item.event, skewMinutes));
  const newMonths = prepared.filter((p) => !monthsReady.has(utcMonth(p.ts)));
  if (newMonths.length) {
    await requireMonthPartitions(
      db,
      newMonths.map((p) => p.ts),
    );
    for (const p of newMonths) monthsReady.add(utcMonth(p.ts));
  }
  const { rows } = await db.query<{ ord: number; reading: boolean; stale: boolean }>(STORE_UPLINKS, [
    parameter(items, prepared, known),
  ]);
  const stored = new Map<number, boolean>();
  const stale = new Set<number>();
  for (const r of rows) {
    if (r.stale) stale.add(r.ord - 1);
    else stored.set(r.ord - 1, r.reading);
  }
  if (stale.size) {
    const memory = rememberedDevices(db);
    for (const k of stale) memory.delete(pairKey(items[k]!.event.devEui, items[k]!.connectionId));
  }
  return items.map((_, k): LnsEventResult | typeof STALE => {
    if (stale.has(k)) return STALE;
    const p = prepared[k]!;
    const isKnown = known[k] !== null;
    const isStored = stored.has(k);
    return {
      Event: 'up',
      Outcome: !isKnown ? 'unmatched' : isStored ? 'stored' : 'duplicate',
      Reading: stored.get(k) === true,
      // An unknown DevEUI's reason always; a known device's only when this uplink was stored now.
      Reason: isKnown ? (isStored ? p.reason : null) : p.reason,
    };
  });
}
