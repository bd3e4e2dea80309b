import { DEVICE_TYPE, LOCATION_LEVEL } from '@rodmenys/contract';
import type { Db } from '../../db/db.js';
import { readChirpstack } from '../../services/lorawan/chirpstack.js';
import { createConnection } from '../../services/lorawan/connections.js';
import { chirpstackUplinkJson, chirpstackUplinkProtobuf, ttsUplink } from '../../services/lorawan/envelope-writers.js';
import { ingestLnsEvent } from '../../services/lorawan/ingest.js';
import { readTts } from '../../services/lorawan/tts.js';
import { type DemoCases, META } from '../cases.js';

/**
 * The demo's building on LoRaWAN (docs/lorawan.md, "In the demo"): a demo building's cold-water
 * meters become Axioma Qalcosonic W1s and its heat meter gets an Elvaco CMi4111 module. Their
 * uplinks of the last days come through the same code as a real LNS's requests (the endpoints'
 * envelope readers and ingest): the W1s through The Things Stack, the CMi through ChirpStack
 * (JSON and Protobuf in turn), each uplink sent twice as LNSs retry, one of them undecodable.
 */

const DAY = 86_400_000;
/** Days of uplinks the demo sends (one a day per meter, as these meters report). */
const DAYS = 21;

export interface LorawanDemo {
  buildingId: number;
  connections: number;
  devices: number;
  uplinks: number;
  /** Readings the uplinks gave. */
  readings: number;
}

/** A W1 enhanced payload: frame 1, the meter's clock, status, log volume (litres) and 23 hourly deltas. */
export function w1Payload(at: Date, litres: number, deltas: readonly number[], status = 0): Buffer {
  const b = Buffer.alloc(51);
  b[0] = 1;
  b.writeUInt32LE(Math.floor(at.getTime() / 1000), 1);
  b[5] = status;
  b.writeUInt32LE(litres, 6);
  deltas.slice(0, 23).forEach((d, i) => {
    for (let k = 0; k < 14; k++) if ((d >> k) & 1) b[10 + ((i * 14 + k) >> 3)]! |= 1 << ((i * 14 + k) & 7);
  });
  return b;
}

/** `n` decimal digits as BCD, least significant byte first (EN 13757-3). */
const bcd = (value: number, bytes: number) => {
  const digits = String(Math.round(value))
    .padStart(bytes * 2, '0')
    .slice(-bytes * 2);
  return Buffer.from(
    Array.from({ length: bytes }, (_, i) =>
      Number.parseInt(digits.slice(digits.length - 2 * i - 2, digits.length - 2 * i), 16),
    ),
  );
};

/** A CMi4111 standard message (fPort 2): energy kWh, volume 0.01 m³, temperatures, fabrication number, error flags. */
export function cmiPayload(kwh: number, m3: number, flowC: number, returnC: number, serial: string): Buffer {
  return Buffer.concat([
    Buffer.from([0x00]),
    Buffer.from([0x0c, 0x06]),
    bcd(kwh, 4),
    Buffer.from([0x0c, 0x14]),
    bcd(m3 * 100, 4),
    Buffer.from([0x0a, 0x5a]),
    bcd(flowC * 10, 2),
    Buffer.from([0x0a, 0x5e]),
    bcd(returnC * 10, 2),
    Buffer.from([0x0c, 0x78]),
    bcd(Number(serial), 4),
    Buffer.from([0x02, 0xfd, 0x17, 0x00, 0x00]),
  ]);
}

const devEuiOf = (prefix: string, n: number) => `${prefix}${n.toString(16).toUpperCase().padStart(6, '0')}`;

/** Puts the demo's last building on LoRaWAN and feeds it `DAYS` days of uplinks up to `now`. */
export async function seedLorawanDemo(db: Db, now: Date): Promise<LorawanDemo | null> {
  // The demo's cases (a silent meter, a reset, a gap, the manager's building) stay as they are.
  const { rows: meta } = await db.query<{ value: string }>('SELECT value FROM app_meta WHERE key = $1', [META.cases]);
  const cases = meta[0] ? (JSON.parse(meta[0].value) as Partial<DemoCases>) : {};
  const kept = [cases.silent?.deviceId, cases.reset?.deviceId, cases.gap?.deviceId].filter((x) => x !== undefined);
  const { rows: buildings } = await db.query<{ id: number }>(
    // A building with a heat meter and cold-water meters, outside the demo's other stories (heat methods,
    // declarations, the exchange campaign), every meter reporting.
    `SELECT l.id FROM location l WHERE l.level = ${LOCATION_LEVEL.building}
        AND EXISTS (SELECT FROM device d WHERE d.location_id = l.id AND d.device_type_id = ${DEVICE_TYPE.buildingHeatMeter}
                       AND d.removed_at IS NULL)
        AND NOT EXISTS (SELECT FROM building_heat_method h WHERE h.building_id = l.id)
        AND NOT EXISTS (SELECT FROM campaign_device c WHERE c.building_id = l.id)
        AND NOT EXISTS (SELECT FROM declaration x JOIN device d ON d.id = x.device_id JOIN location f ON f.id = d.location_id
                         WHERE l.id = ANY (f.path))
        AND NOT EXISTS (SELECT FROM device d JOIN location f ON f.id = d.location_id
                         WHERE l.id = ANY (f.path)
                           AND (d.id = ANY ($1::int[]) OR NOT EXISTS (SELECT FROM device_status s WHERE s.device_id = d.id)))
        AND l.id IS DISTINCT FROM $2
      ORDER BY l.id DESC LIMIT 1`,
    [kept, cases.buildingId ?? null],
  );
  const buildingId = buildings[0]?.id;
  if (buildingId === undefined) return null;
  const { rows: devices } = await db.query<{ id: number; type: number; code: string }>(
    `SELECT d.id, d.device_type_id AS type, d.device_code AS code FROM device d JOIN location l ON l.id = d.location_id
      WHERE $1 = ANY (l.path) AND d.removed_at IS NULL
        AND d.device_type_id IN (${DEVICE_TYPE.coldWaterMeter}, ${DEVICE_TYPE.buildingHeatMeter})
      ORDER BY d.id`,
    [buildingId],
  );
  const w1 = devices.filter((d) => d.type === DEVICE_TYPE.coldWaterMeter);
  const heat = devices.find((d) => d.type === DEVICE_TYPE.buildingHeatMeter)!;
  for (const [i, d] of w1.entries())
    await db.query("UPDATE device SET dev_eui = $2, model = 'Qalcosonic W1', decoder = NULL WHERE id = $1", [
      d.id,
      devEuiOf('A8B2000000', i + 1),
    ]);
  const heatEui = 'A8B2100000000001';
  await db.query("UPDATE device SET dev_eui = $2, model = 'CMi4111' WHERE id = $1", [heat.id, heatEui]);
  const [tts, chirpstack] = await db.transaction(async (tx) => [
    await createConnection(tx, { kind: 'tts', name: 'The Things Stack (demo)', locationIds: [buildingId] }, null),
    await createConnection(tx, { kind: 'chirpstack', name: 'ChirpStack (demo)', locationIds: [buildingId] }, null),
  ]);
  const ttsCaller = { id: tts.Id, kind: tts.Kind, name: tts.Name };
  const csCaller = { id: chirpstack.Id, kind: chirpstack.Kind, name: chirpstack.Name };
  const gateways = [
    { id: 'a84041ffff1f7a01', rssi: -96, snr: 7.25 },
    { id: 'a84041ffff1f7a02', rssi: -108, snr: -2.5 },
  ];
  /** The meter's value at a moment: its latest demo reading then, so the LoRaWAN readings continue its series. */
  const valueAt = async (deviceId: number, at: Date) =>
    Number(
      (
        await db.query<{ v: string }>(
          'SELECT value::text AS v FROM reading WHERE device_id = $1 AND ts <= $2 ORDER BY ts DESC LIMIT 1',
          [deviceId, at],
        )
      ).rows[0]?.v ?? 0,
    );
  let uplinks = 0;
  let readings = 0;
  const start = Math.floor(now.getTime() / DAY) * DAY - DAYS * DAY;
  for (let day = 0; day < DAYS; day++) {
    const at = new Date(start + day * DAY + 6 * 3_600_000);
    if (at > now) break;
    for (const [i, d] of w1.entries()) {
      // Litres: a start per meter, a few hundred litres a day; one meter reports a leak on the last day.
      const deltas = Array.from({ length: 23 }, (_, h) => (h >= 6 && h <= 22 ? 8 + ((i * 7 + h * 3 + day) % 11) : 0));
      const litres = Math.max(0, Math.floor((await valueAt(d.id, at)) * 1000) - deltas.reduce((a, b) => a + b, 0));
      const leak = i === 0 && day === DAYS - 1 ? 0x20 : 0;
      const spec = {
        devEui: devEuiOf('A8B2000000', i + 1),
        fCnt: day + 1,
        fPort: 100,
        payload: w1Payload(at, litres, deltas, leak),
        time: new Date(at.getTime() + 1_500).toISOString(),
        deviceName: `w1-${d.code}`,
        gateways,
      };
      const body = JSON.stringify(ttsUplink(spec));
      // Sent twice, as an LNS retries: the second stores nothing.
      for (let k = 0; k < 2; k++) if ((await ingestLnsEvent(db, ttsCaller, readTts(body))).Reading) readings++;
      uplinks++;
    }
    const spec = {
      devEui: heatEui,
      fCnt: day + 1,
      fPort: 2,
      // One day's uplink is cut short: kept undecoded with its reason.
      payload:
        day === DAYS - 2
          ? Buffer.from('000c0652', 'hex')
          : cmiPayload(Math.floor(await valueAt(heat.id, at)), 9_900 + day * 4.5, 63.3, 41.1, '66031129'),
      time: at.toISOString(),
      deduplicationId: `00000000-0000-4000-8000-${String(day).padStart(12, '0')}`,
      gateways,
    };
    const event =
      day % 2
        ? readChirpstack('up', chirpstackUplinkProtobuf(spec))
        : readChirpstack('up', JSON.stringify(chirpstackUplinkJson(spec)));
    if ((await ingestLnsEvent(db, csCaller, event)).Reading) readings++;
    uplinks++;
  }
  await ingestLnsEvent(
    db,
    csCaller,
    readChirpstack('status', JSON.stringify({ deviceInfo: { devEui: heatEui }, margin: 9, batteryLevel: 92 })),
  );
  return { buildingId, connections: 2, devices: w1.length + 1, uplinks, readings };
}
