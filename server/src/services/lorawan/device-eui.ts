import { type DataLoadProc, LNS_MAPPING_DECODER } from '@rodmenys/contract';
import type { Queryable, Tx } from '../../db/db.js';
import { badRequest, conflict } from '../../errors.js';
import { requireMonthPartitions } from '../partitions/partitions.js';
import { readingsStatement } from '../readings/store-readings.js';
import { DECODERS, type Decoders } from './decoding.js';
import { type MappingColumns, mappingOf, prepare } from './prepare.js';

/**
 * A device's DevEUI and decoder (docs/lorawan.md, "Devices"): checked where they are set (the
 * device forms, the register import), and the uplinks that waited for that DevEUI taken in.
 */

/** A DevEUI as stored (upper case), or null for none. */
export const devEuiValue = (v: string | null | undefined): string | null => (v ? v.trim().toUpperCase() : null);

/** A DevEUI is unique over all devices: 409 naming the device that has it. */
export async function assertDevEuiFree(tx: Queryable, devEui: string, exceptDeviceId: number | null): Promise<void> {
  const { rows } = await tx.query<{ device_code: string }>(
    'SELECT device_code FROM device WHERE dev_eui = $1 AND id IS DISTINCT FROM $2',
    [devEui, exceptDeviceId],
  );
  if (rows[0]) throw conflict('devEuiTaken', { devEui, deviceCode: rows[0].device_code });
}

/** A decoder a device may name: a built-in one's id, or `lnsMapping` (400 naming `field` otherwise). */
export function checkDecoder(decoder: string | null | undefined, field: string, decoders: Decoders = DECODERS): void {
  if (decoder == null || decoder === LNS_MAPPING_DECODER) return;
  if (!decoders.list.some((d) => d.Id === decoder)) throw badRequest('decoderUnknown', { decoder }, field);
}

const ADOPT = readingsStatement({
  with: `u AS (
       UPDATE lorawan_uplink x SET device_id = i.device_id, decoder = i.decoder, value = i.value, decoded = i.decoded,
              alarms = i.alarms::text[], reason = i.reason, meter_ts = i.meter_ts
         FROM (SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::numeric[], $5::jsonb[], $6::text[],
                                    $7::text[], $8::timestamptz[], $9::timestamptz[])
                 AS t(id, device_id, decoder, value, decoded, alarms, reason, meter_ts, ts)) i
        WHERE x.id = i.id AND x.device_id IS NULL
       RETURNING x.device_id, x.value, x.alarms, x.meter_ts, i.ts
     )`,
  rows: 'SELECT device_id, ts, meter_ts, value FROM u WHERE value IS NOT NULL ORDER BY device_id, ts',
  onConflict: 'keep',
  telegrams: {
    latest: 'SELECT DISTINCT ON (device_id) device_id, ts, alarms AS flags FROM u ORDER BY device_id, ts DESC',
    setDay: 'SELECT device_id, NULL::date AS set_date, NULL::numeric AS set_value FROM u WHERE false',
  },
  result: 'SELECT (SELECT count(*) FROM u)::int AS adopted',
});

/**
 * Takes in the waiting uplinks (the LoRaWAN unmatched inbox) of these devices' DevEUIs that a
 * connection serving their building delivered: decoded now and stored as if they had just come.
 * In the caller's transaction, which runs in writeIntoMonths. Returns how many were taken in.
 */
export async function adoptWaitingUplinks(
  tx: Tx,
  deviceIds: readonly number[],
  decoders: Decoders = DECODERS,
): Promise<number> {
  if (deviceIds.length === 0) return 0;
  const { rows } = await tx.query<
    MappingColumns & {
      id: string;
      device_id: number;
      kind: DataLoadProc;
      model: string | null;
      decoder: string | null;
      f_port: number | null;
      payload: Uint8Array;
      lns_object: Record<string, unknown> | null;
      received_at: string;
    }
  >(
    `SELECT u.id::text AS id, d.id AS device_id, t.data_load_proc AS kind, d.model, d.decoder,
            m.value_field, m.unit, m.scale::float8 AS scale, m.time_field,
            u.f_port::int AS f_port, u.payload, u.lns_object, iso(u.received_at) AS received_at
       FROM device d JOIN device_type t ON t.id = d.device_type_id JOIN location l ON l.id = d.location_id
       JOIN lorawan_uplink u ON u.dev_eui = d.dev_eui AND u.device_id IS NULL
       LEFT JOIN lorawan_mapping m ON m.model_key = lower(regexp_replace(trim(d.model), '\\s+', ' ', 'g'))
      WHERE d.id = ANY ($1::int[])
        AND EXISTS (SELECT FROM lns_connection_location cl
                     WHERE cl.connection_id = u.connection_id AND cl.location_id = ANY (l.path))
      ORDER BY u.id
        FOR UPDATE OF u SKIP LOCKED`,
    [[...deviceIds]],
  );
  if (rows.length === 0) return 0;
  const { rows: skew } = await tx.query<{ v: number | null }>(
    "SELECT (value #>> '{}')::float8 AS v FROM dq_setting WHERE key = 'collector.clockSkewMinutes'",
  );
  const prepared = rows.map((r) => {
    const mapping = mappingOf(r);
    return prepare(
      decoders,
      { id: r.device_id, kind: r.kind, model: r.model, decoder: r.decoder, mapping },
      { fPort: r.f_port, payload: Buffer.from(r.payload), object: r.lns_object, time: r.received_at },
      skew[0]?.v ?? 10,
    );
  });
  await requireMonthPartitions(
    tx,
    prepared.map((p) => p.ts),
  );
  const { rows: done } = await tx.query<{ adopted: number }>(ADOPT, [
    rows.map((r) => r.id),
    prepared.map((p) => p.deviceId),
    prepared.map((p) => p.decoder),
    prepared.map((p) => p.value),
    prepared.map((p) => JSON.stringify(p.decoded)),
    prepared.map((p) => `{${p.alarms.map((a) => `"${a.replace(/["\\]/g, '\\$&')}"`).join(',')}}`),
    prepared.map((p) => p.reason),
    prepared.map((p) => p.meterTs),
    prepared.map((p) => p.ts),
  ]);
  return done[0]!.adopted;
}

/** The devices of these rows (by serial) whose DevEUI has uplinks waiting in the LoRaWAN inbox. */
export async function devicesWithWaitingUplinks(
  tx: Queryable,
  rows: readonly { deviceCode: string; devEui: string | null }[],
): Promise<number[]> {
  const serials = rows.flatMap((r) => (r.devEui ? [r.deviceCode] : []));
  if (serials.length === 0) return [];
  const { rows: found } = await tx.query<{ id: number }>(
    `SELECT d.id FROM device d
      WHERE d.device_code = ANY ($1::text[])
        AND EXISTS (SELECT FROM lorawan_uplink u WHERE u.dev_eui = d.dev_eui AND u.device_id IS NULL)
      ORDER BY d.id`,
    [serials],
  );
  return found.map((r) => r.id);
}
