import type { DataLoadProc, LnsEventResult } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { requireMonthPartitions, writeIntoMonths } from '../partitions/partitions.js';
import { readingsStatement } from '../readings/store-readings.js';
import { parseTime } from '../time.js';
import { DECODERS, type DecodeResult, type Decoders, decodeFor, type FieldMapping } from './decoding.js';
import { isUplink, type LnsEvent, type OtherEvent, type UplinkEvent } from './envelopes.js';

/**
 * Takes in one LNS event (docs/lorawan.md): an uplink of a device of the connection's buildings is
 * decoded by the device's decoder and stored with what it gave; its register value becomes a
 * reading through the one reading writer (services/readings/store-readings.ts), as a telegram's
 * does, so month ends, anomalies, statements and the billing export follow. One statement: the
 * answer comes after it is committed. Idempotent: the same uplink again (ChirpStack's
 * deduplicationId, or the same DevEUI, session address, frame counter and payload) stores nothing.
 */

/** A device an uplink's DevEUI names, with what decoding it needs. */
interface Device {
  id: number;
  kind: DataLoadProc;
  model: string | null;
  decoder: string | null;
  mapping: FieldMapping | null;
  served: boolean;
}

const MODEL_KEY = (m: string) => `lower(regexp_replace(trim(${m}), '\\s+', ' ', 'g'))`;

/** The device with this DevEUI, whether the connection serves its building, its model's mapping. */
async function findDevice(db: Queryable, devEui: string, connectionId: number): Promise<Device | undefined> {
  const { rows } = await db.query<{
    id: number;
    kind: DataLoadProc;
    model: string | null;
    decoder: string | null;
    value_field: string | null;
    unit: string | null;
    scale: number | null;
    time_field: string | null;
    served: boolean;
  }>(
    `SELECT d.id, t.data_load_proc AS kind, d.model, d.decoder,
            m.value_field, m.unit, m.scale::float8 AS scale, m.time_field,
            EXISTS (SELECT FROM lns_connection_location cl
                     WHERE cl.connection_id = $2 AND cl.location_id = ANY (l.path)) AS served
       FROM device d JOIN device_type t ON t.id = d.device_type_id JOIN location l ON l.id = d.location_id
       LEFT JOIN lorawan_mapping m ON m.model_key = ${MODEL_KEY('d.model')}
      WHERE d.dev_eui = $1`,
    [devEui, connectionId],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id,
    kind: r.kind,
    model: r.model,
    decoder: r.decoder,
    served: r.served,
    mapping:
      r.value_field === null
        ? null
        : {
            registerField: r.value_field,
            unit: r.unit!,
            scale: r.scale!,
            ...(r.time_field ? { timeField: r.time_field } : {}),
          },
  };
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

/** Months known to have their partitions (checked once per process, docs/scaling.md). */
const monthsReady = new Set<string>();

/** An uplink made ready to store: its decoding and the reading's time. */
export interface Prepared {
  deviceId: number | null;
  decoder: string | null;
  value: string | null;
  decoded: Record<string, unknown>;
  alarms: string[];
  reason: string | null;
  meterTs: string | null;
  /** The reading's time: the meter's own when it has one within the clock tolerance, else the LNS's. */
  ts: string;
}

/** Decodes an uplink for its device, and picks the reading's time (never the server's clock). */
export function prepare(
  decoders: Decoders,
  device: Omit<Device, 'served'> | null,
  up: Pick<UplinkEvent, 'fPort' | 'payload' | 'object' | 'time'>,
  skewMinutes: number,
): Prepared {
  if (!device)
    return {
      deviceId: null,
      decoder: null,
      value: null,
      decoded: {},
      alarms: [],
      reason: 'unknown-dev-eui',
      meterTs: null,
      ts: up.time,
    };
  const { decoder, result } = decodeFor(decoders, device, up);
  return { deviceId: device.id, decoder, ...decodedParts(result, up.time, skewMinutes) };
}

function decodedParts(result: DecodeResult, lnsTime: string, skewMinutes: number) {
  if (!result.ok)
    return {
      value: null,
      decoded: result.detail ? { detail: result.detail } : {},
      alarms: [],
      reason: result.reason,
      meterTs: null,
      ts: lnsTime,
    };
  const meter = result.register.meterTime;
  const meterTs = meter && Number.isFinite(meter.getTime()) ? meter.toISOString() : null;
  const lnsMs = parseTime(lnsTime)!.approxMs;
  const inTolerance = meter !== undefined && Math.abs(meter.getTime() - lnsMs) <= skewMinutes * 60_000;
  return {
    value: String(result.register.value),
    decoded: { ...result.values, ...(result.problems?.length ? { problems: result.problems } : {}) },
    alarms: [...new Set(result.alarms.map((a) => a.toUpperCase()))].sort(),
    reason: null,
    meterTs,
    ts: meterTs && inTolerance ? meterTs : lnsTime,
  };
}

/** The uplinks stored, their readings and device_status as a telegram's, in one statement. */
const STORE_UPLINK = readingsStatement({
  with: `u AS (
       INSERT INTO lorawan_uplink (connection_id, dev_eui, dev_addr, f_cnt, f_port, payload, dedup_id, received_at,
                                   meter_ts, device_id, device_name, decoder, value, decoded, alarms, reason, rssi, snr,
                                   gateways, lns_object)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
       ON CONFLICT DO NOTHING
       RETURNING device_id, value, alarms, meter_ts, $21::timestamptz AS ts
     )`,
  rows: 'SELECT device_id, ts, meter_ts, value FROM u WHERE device_id IS NOT NULL AND value IS NOT NULL',
  onConflict: 'keep',
  telegrams: {
    latest: 'SELECT device_id, ts, alarms AS flags FROM u WHERE device_id IS NOT NULL',
    setDay: 'SELECT device_id, NULL::date AS set_date, NULL::numeric AS set_value FROM u WHERE false',
  },
  result: 'SELECT (SELECT count(*) FROM u)::int AS stored, (SELECT count(*) FROM written)::int AS readings',
});

async function storeUplink(
  db: Db,
  connectionId: number,
  up: UplinkEvent,
  p: Prepared,
): Promise<{ stored: number; readings: number }> {
  const best = up.gateways[0];
  const params = [
    connectionId,
    up.devEui,
    up.devAddr,
    up.fCnt,
    up.fPort,
    up.payload,
    up.dedupId,
    up.time,
    p.meterTs,
    p.deviceId,
    up.deviceName,
    p.decoder,
    p.value,
    JSON.stringify(p.decoded),
    p.alarms,
    p.reason,
    best?.rssi ?? null,
    best?.snr ?? null,
    JSON.stringify(up.gateways),
    up.object ? JSON.stringify(up.object) : null,
    p.ts,
  ];
  const month = p.ts.slice(0, 7);
  return writeIntoMonths(db, async () => {
    if (!monthsReady.has(month)) {
      await db.transaction((tx) => requireMonthPartitions(tx, [p.ts]));
      monthsReady.add(month);
    }
    const { rows } = await db.query<{ stored: number; readings: number }>(STORE_UPLINK, params);
    return rows[0]!;
  });
}

/** Takes in one event of an authenticated connection. */
export async function ingestLnsEvent(
  db: Db,
  /** The authenticated connection (its key's). */
  connection: { id: number },
  event: LnsEvent,
  decoders: Decoders = DECODERS,
): Promise<LnsEventResult> {
  if (!isUplink(event)) {
    await noteEvent(db, connection.id, event);
    return { Event: event.kind, Outcome: 'counted', Reading: false, Reason: null };
  }
  const device = await findDevice(db, event.devEui, connection.id);
  // A device of another connection's buildings is, for this key, an unknown DevEUI.
  const mine = device?.served ? device : null;
  const prepared = prepare(decoders, mine, event, mine ? await clockSkewMinutes(db) : 0);
  const { stored, readings } = await storeUplink(db, connection.id, event, prepared);
  return {
    Event: 'up',
    Outcome: !mine ? 'unmatched' : stored ? 'stored' : 'duplicate',
    Reading: readings > 0,
    Reason: stored && mine ? prepared.reason : mine ? null : prepared.reason,
  };
}

/** Another event: one row (counted per kind; status and log kept for health). */
async function noteEvent(db: Queryable, connectionId: number, e: OtherEvent): Promise<void> {
  await db.query(
    `INSERT INTO lns_event (connection_id, kind, at, dev_eui, battery, external_power, margin, code, description)
     VALUES ($1, $2, coalesce($3::timestamptz, now()), $4, $5, $6, $7, $8, $9)`,
    [
      connectionId,
      e.kind,
      e.time,
      e.devEui,
      e.battery ?? null,
      e.externalPower ?? null,
      e.margin ?? null,
      e.code ?? null,
      e.description ?? null,
    ],
  );
}
