import { readFileSync } from 'node:fs';
import { createLnsConnection, DEVICE_TYPE, type DeviceTypeId, GROUP, ingestChirpstack } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { dataQualityJobs } from '../services/data-quality/jobs.js';
import { METER_STATUS_FLAGS } from '../services/data-quality/validate.js';
import { ingestTelegrams } from '../services/ingest/ingest-telegrams.js';
import { w1Alarms } from '../services/lorawan/decode/qalcosonic-w1.js';
import { chirpstackUplinkJson } from '../services/lorawan/envelope-writers.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn, type Place } from '../test/factories.js';

const lines = (file: string) =>
  readFileSync(new URL(file, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
/** Payloads of real LoRaWAN meters and telegrams of real wM-Bus meters as wmbusmeters prints them. */
const LORAWAN = lines('../services/lorawan/decode/testdata/lorawan-samples.jsonl') as {
  model: string;
  payload_hex: string;
  expected: { time_utc?: string; error_flags?: number };
}[];
const WMBUS = lines('../services/ingest/testdata/wmbusmeters-samples.jsonl') as {
  driver: string;
  expected_json: Record<string, unknown>;
}[];

const W1 = LORAWAN.find((v) => v.model === 'Qalcosonic W1')!;
/** The real W1 payload with another status byte (byte 5). */
const w1WithStatus = (status: number) => {
  const b = Buffer.from(W1.payload_hex, 'hex');
  b[5] = status;
  return b;
};
const CMI_FLAGGED = LORAWAN.find((v) => v.model.startsWith('CMi') && v.expected.error_flags)!;
const CMI_CLEAN = LORAWAN.find((v) => v.model.startsWith('CMi') && v.expected.error_flags === 0)!;

/**
 * Each alarm a LoRaWAN payload carries, beside the status a wmbusmeters telegram gives for the same
 * condition (docs/lorawan.md, "Alarms"): the W1's status byte is the M-Bus status byte, whose bits
 * 0x04, 0x08 and 0x10 wmbusmeters calls POWER_LOW, PERMANENT_ERROR and TEMPORARY_ERROR; its alarm
 * codes are wmbusmeters' water-meter words (kamwater: DRY, REVERSE, LEAK, BURST); a heat meter's
 * error flags are ERROR_FLAGS_<hex> (elf, real). null: a condition wmbusmeters has no word for.
 */
const CASES: {
  name: string;
  payload: Buffer;
  fPort: number;
  typeId: DeviceTypeId;
  flags: string[];
  wmbus: { sample: string; status: string } | null;
}[] = [
  ...(
    [
      [0x20, ['LEAK'], 'LEAK'],
      [0xa0, ['BURST'], 'BURST'],
      [0x60, ['BACKFLOW'], 'REVERSE'],
      [0x04, ['LOW_BATTERY'], 'POWER_LOW'],
      [0x08, ['PERMANENT_ERROR'], 'PERMANENT_ERROR'],
      [0x10, ['DRY', 'TEMPORARY_ERROR'], 'DRY TEMPORARY_ERROR'],
      [0x80, ['LOW_TEMPERATURE'], null],
      [0x00, [], 'OK'],
    ] as const
  ).map(([status, flags, word]) => ({
    name: `W1 status 0x${status.toString(16).padStart(2, '0')}`,
    payload: w1WithStatus(status),
    fPort: 100,
    typeId: DEVICE_TYPE.coldWaterMeter,
    flags: [...flags],
    wmbus: word === null ? null : { sample: 'kamwater', status: word },
  })),
  {
    name: 'CMi4111 error flags',
    payload: Buffer.from(CMI_FLAGGED.payload_hex, 'hex'),
    fPort: 2,
    typeId: DEVICE_TYPE.heatMeter,
    flags: ['ERROR_FLAGS'],
    wmbus: { sample: 'elf', status: 'ERROR_FLAGS_2000000' },
  },
  {
    name: 'CMi41xx no error flags',
    payload: Buffer.from(CMI_CLEAN.payload_hex, 'hex'),
    fPort: 2,
    typeId: DEVICE_TYPE.heatMeter,
    flags: [],
    wmbus: { sample: 'elf', status: 'OK' },
  },
];

describe(`alarms in LoRaWAN payloads open what wmbusmeters' status flags open (${dbKind()})`, () => {
  const t = useApp();
  let key: string;
  let building: Place;
  let n = 0;

  const deviceIn = async (typeId: DeviceTypeId, devEui: string | null) => {
    const code = `ALRM${String(++n).padStart(4, '0')}`;
    const id = await makeDevice(t.db, await makeFlat(t.db, building), {
      code,
      typeId,
      installedAt: '2026-01-01T00:00:00+02:00',
    });
    if (devEui) {
      const model = typeId === DEVICE_TYPE.coldWaterMeter ? 'Qalcosonic W1' : 'CMi4111';
      await t.db.query('UPDATE device SET dev_eui = $2, model = $3 WHERE id = $1', [id, devEui, model]);
    }
    return { id, code };
  };
  const meterStatus = async (deviceId: number) =>
    (
      await t.db.query<{ flags: string[] }>(
        "SELECT evidence -> 'flags' AS flags FROM anomaly WHERE rule = 'METER_STATUS' AND state = 'open' AND device_id = $1",
        [deviceId],
      )
    ).rows.map((r) => r.flags);

  beforeAll(async () => {
    const operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
    building = await makeBuilding(t.db, { city: 'Kaunas', street: 'Taikos pr.', number: '88' });
    const res = await inject(t.app, createLnsConnection, {
      token: operator,
      body: { kind: 'chirpstack', name: 'ChirpStack', locationIds: [building.id] },
    });
    key = res.body.Key;
  });

  it('matches every alarm the decoders can raise with the METER_STATUS rule', () => {
    const pattern = new RegExp(METER_STATUS_FLAGS);
    const raised = new Set(['ERROR_FLAGS']);
    for (let status = 0; status < 256; status++) for (const a of w1Alarms(status)) raised.add(a);
    expect([...raised].sort()).toEqual([
      'BACKFLOW',
      'BURST',
      'DRY',
      'ERROR_FLAGS',
      'LEAK',
      'LOW_BATTERY',
      'LOW_TEMPERATURE',
      'PERMANENT_ERROR',
      'TEMPORARY_ERROR',
    ]);
    expect([...raised].filter((a) => !pattern.test(a))).toEqual([]);
  });

  it('opens METER_STATUS from a ChirpStack uplink exactly as from the same status in a wmbusmeters telegram', async () => {
    const now = new Date();
    const lorawan: number[] = [];
    const wmbus: (number | null)[] = [];
    for (const [i, c] of CASES.entries()) {
      const devEui = `70B3D5E75E00${String(i).padStart(4, '0')}`;
      const lora = await deviceIn(c.typeId, devEui);
      // The LNS's time: half a minute after the W1's own clock; for the CMi, an hour ago.
      const time =
        c.fPort === 100 ? new Date(Date.parse(W1.expected.time_utc!) + 30_000) : new Date(now.getTime() - 3_600_000);
      const res = await inject(t.app, ingestChirpstack, {
        query: { event: 'up' },
        body: chirpstackUplinkJson({
          devEui,
          fCnt: i + 1,
          fPort: c.fPort,
          payload: c.payload,
          time: time.toISOString(),
        }) as never,
        headers: { authorization: `Bearer ${key}` },
      });
      expect([c.name, res.status, res.body.Outcome, res.body.Reading]).toEqual([c.name, 200, 'stored', true]);
      lorawan.push(lora.id);

      if (c.wmbus) {
        const meter = await deviceIn(c.typeId, null);
        const sample = WMBUS.find((s) => s.driver === c.wmbus!.sample)!.expected_json;
        const json = {
          ...sample,
          id: meter.code,
          status: c.wmbus.status,
          ...('current_status' in sample ? { current_status: c.wmbus.status } : {}),
          timestamp: new Date(now.getTime() - 3_600_000).toISOString(),
        };
        const result = await ingestTelegrams(t.db, [{ position: 1, json, raw: JSON.stringify(json) }], now);
        expect([c.name, result.Rejected]).toEqual([c.name, []]);
        wmbus.push(meter.id);
      } else wmbus.push(null);
    }

    // The month-end job takes the queued devices and runs the rules over them, as in production.
    const job = dataQualityJobs.find((j) => j.name === 'month-ends')!;
    await job.run(t.db, now, {} as never);

    for (const [i, c] of CASES.entries()) {
      const fromLorawan = await meterStatus(lorawan[i]!);
      expect([c.name, fromLorawan]).toEqual([c.name, c.flags.length ? [c.flags] : []]);
      if (wmbus[i] === null) continue;
      // The same condition through wmbusmeters: an anomaly exactly when the uplink opened one.
      const fromWmbus = await meterStatus(wmbus[i]!);
      expect([c.name, fromWmbus.length]).toEqual([c.name, fromLorawan.length]);
    }
  });
});
