/**
 * The LoRaWAN benchmark's world (docs/benchmarks.md, "LoRaWAN ingest"): Axioma Qalcosonic W1
 * water meters with DevEUIs in flats of buildings served by one ChirpStack connection, their
 * uplinks as ChirpStack sends them (JSON and Protobuf, one event per request), and wmbusmeters
 * devices for the collector path beside it.
 */
import { DEVICE_TYPE, LOCATION_LEVEL } from '@rodmenys/contract';
import type { Queryable } from '@rodmenys/server/db/db.js';
import { createCollectorKey } from '@rodmenys/server/services/ingest/collector-keys.js';
import { locationInsert, placeLocations } from '@rodmenys/server/services/locations/insert-locations.js';
import { makePlace } from '@rodmenys/server/services/locations/make-place.js';
import { createConnection } from '@rodmenys/server/services/lorawan/connections.js';
import {
  chirpstackUplinkJson,
  chirpstackUplinkProtobuf,
  type UplinkSpec,
} from '@rodmenys/server/services/lorawan/envelope-writers.js';
import { TELEGRAM_KINDS } from './wmbus-telegrams.js';

/**
 * The device sets. The JSON run's uplinks go to set A's devices, the Protobuf run's to set B's:
 * uplink k of device i is the same in both sets but for the DevEUI (and the deduplicationId, unique
 * per uplink as ChirpStack's), so the two runs must store the same values and readings.
 */
export const SETS = { json: 'A', protobuf: 'B', warmup: 'C' } as const;
export type DeviceSet = (typeof SETS)[keyof typeof SETS];

const hex = (n: number, digits: number) => n.toString(16).toUpperCase().padStart(digits, '0');

/** Device i of a set: 70B3D5E75, the set's letter, then i in 6 hex digits. */
export const devEuiOf = (set: DeviceSet, i: number) => `70B3D5E75${set}${hex(i, 6)}`;
/** Its serial number: the set's letter and i (`A-17`). */
export const serialOf = (set: DeviceSet, i: number) => `${set}-${i}`;
/** The wmbusmeters devices' serials: M0, M1, … (as bench:ingest). */
export const WMBUS_PREFIX = 'M';

/**
 * The Qalcosonic W1 "enhanced 24h" payload (fPort 100, 51 bytes; docs/lorawan.md, "Decoding"):
 * frame version 1, the meter's clock (Unix seconds, little-endian), status, the log volume in
 * litres, then 23 hourly deltas packed in 14 bits each. The deltas are those of Axioma's published
 * example (116 litres in all); the clock and the log volume differ per uplink.
 */
const W1_EXAMPLE = Buffer.from(
  '01aeac986a003217000000000000000000008003800054000e4005100048000240020000200000000000000000000000000000',
  'hex',
);
export const W1_FPORT = 100;
/** The litres the example's 23 deltas add up to: the register is the log volume plus these. */
export const W1_DELTAS_LITRES = 116;

export function w1Payload(meterSeconds: number, logLitres: number, status = 0): Buffer {
  const b = Buffer.from(W1_EXAMPLE);
  b.writeUInt32LE(meterSeconds, 1);
  b[5] = status;
  b.writeUInt32LE(logLitres, 6);
  return b;
}

/** The first uplink's meter time: the W1 sends its enhanced payload once a day. */
const FIRST_DAY = Date.UTC(2026, 10, 2) / 1000;

/** Uplink k (0, 1, …) of device i of a set, as the LNS reports it. */
export function uplinkSpec(set: DeviceSet, i: number, k: number): UplinkSpec {
  // Each device at its own second of the day, once a day; the LNS hears it 1.5 s after the meter's clock.
  const meterSeconds = FIRST_DAY + k * 86_400 + (i % 86_400);
  const uuidTail = `${set === 'A' ? 'a' : set === 'B' ? 'b' : 'c'}${hex(k, 5)}${hex(i, 6)}`.toLowerCase();
  return {
    devEui: devEuiOf(set, i),
    devAddr: hex(0x26000000 + i, 8),
    fCnt: k + 1,
    fPort: W1_FPORT,
    payload: w1Payload(meterSeconds, 100_000 + i * 37 + k * 250),
    time: new Date(meterSeconds * 1000 + 1500).toISOString(),
    deduplicationId: `b3c0e1a0-0000-4000-8000-${uuidTail}`,
    deviceName: `w1-${serialOf(set, i)}`,
    gateways: [
      { id: 'aa555a0000000101', rssi: -90 - (i % 25), snr: 7.5 - (i % 10) },
      { id: 'aa555a0000000102', rssi: -105 - (i % 15), snr: -2 },
    ],
  };
}

/** One request as ChirpStack's HTTP integration sends it (`?event=up`). */
export interface LnsRequest {
  contentType: 'application/json' | 'application/octet-stream';
  /** The bytes as the LNS sends them (its JSON marshaled once, as ChirpStack does). */
  body: Buffer;
}

export function chirpstackRequest(spec: UplinkSpec, marshaler: 'json' | 'protobuf'): LnsRequest {
  return marshaler === 'json'
    ? { contentType: 'application/json', body: Buffer.from(JSON.stringify(chirpstackUplinkJson(spec))) }
    : { contentType: 'application/octet-stream', body: chirpstackUplinkProtobuf(spec) };
}

export interface World {
  /** The ChirpStack connection's key (shown once, stored hashed). */
  lnsKey: string;
  collectorKey: string;
  buildings: number;
}

/**
 * Seeds the world: `perSet` W1 meters in each of the sets A and B, `warmup` in set C, one flat
 * each, 40 flats a building (more when it would take over 1,000 buildings, a connection's
 * limit), one ChirpStack connection serving those buildings; `wmbusDevices` wmbusmeters devices
 * (allocators, heat and water meters) in flats of further buildings, and a collector key.
 */
export async function seedWorld(
  db: Queryable,
  sizes: { perSet: number; warmup: number; wmbusDevices: number },
): Promise<World> {
  const street = await makePlace(db, ['Lietuva', 'Kauno apskritis', 'Kauno m. sav.', 'Kaunas', 'Savanorių pr.']);
  const meters: { set: DeviceSet; i: number }[] = [
    ...Array.from({ length: sizes.perSet }, (_, i) => ({ set: SETS.json, i })),
    ...Array.from({ length: sizes.perSet }, (_, i) => ({ set: SETS.protobuf, i })),
    ...Array.from({ length: sizes.warmup }, (_, i) => ({ set: SETS.warmup, i })),
  ];
  const perBuilding = Math.max(40, Math.ceil(meters.length / 1000));
  const buildings = Math.ceil(meters.length / perBuilding);
  // The wmbusmeters devices in flats of buildings of their own, after the LoRaWAN ones.
  const flatCount = buildings * perBuilding + sizes.wmbusDevices;
  const allBuildings = Math.ceil(flatCount / perBuilding);
  const locs = [
    ...Array.from({ length: allBuildings }, (_, b) => ({ names: [...street.names, String(b + 1)] })),
    ...Array.from({ length: flatCount }, (_, n) => ({
      names: [...street.names, String(Math.floor(n / perBuilding) + 1), `${(n % perBuilding) + 1}`],
      flatOrder: (n % perBuilding) + 1,
    })),
  ];
  const placed = await placeLocations(db, locs, (names) =>
    names.length === LOCATION_LEVEL.street ? street : undefined,
  );
  const { sql, params } = locationInsert(placed);
  await db.query(sql, params);
  const flats = placed.slice(allBuildings).map((p) => p.id);
  await db.query(
    `INSERT INTO device (device_type_id, location_id, device_code, dev_eui, model, decoder)
     SELECT $1, f, c, e, 'Qalcosonic W1', 'axioma-qalcosonic-w1'
       FROM unnest($2::int[], $3::text[], $4::text[]) AS t(f, c, e)`,
    [
      DEVICE_TYPE.coldWaterMeter,
      flats.slice(0, meters.length),
      meters.map((m) => serialOf(m.set, m.i)),
      meters.map((m) => devEuiOf(m.set, m.i)),
    ],
  );
  const connection = await createConnection(
    db,
    { kind: 'chirpstack', name: 'ChirpStack (bench)', locationIds: placed.slice(0, buildings).map((p) => p.id) },
    null,
  );
  await db.query(
    `INSERT INTO device (device_type_id, location_id, device_code)
     SELECT ($1::int[])[d % 3 + 1], ($2::int[])[d + 1], $3 || d FROM generate_series(0, $4 - 1) d`,
    [TELEGRAM_KINDS.map((k) => k.type), flats.slice(buildings * perBuilding), WMBUS_PREFIX, sizes.wmbusDevices],
  );
  const collectorKey = (await createCollectorKey(db, 'bench', null)).Key;
  return { lnsKey: connection.Key, collectorKey, buildings };
}
