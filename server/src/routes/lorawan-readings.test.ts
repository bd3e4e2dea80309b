import { readFileSync } from 'node:fs';
import {
  createLnsConnection,
  createLorawanMapping,
  DEVICE_TYPE,
  type DeviceTypeId,
  GROUP,
  getLorawanDeviceHealth,
  ingestChirpstack,
  ingestTtsUplink,
} from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { w1Payload } from '../demo/seed/lorawan.js';
import { checkUndecoded } from '../services/collectors/undecoded.js';
import { validate } from '../services/data-quality/validate.js';
import {
  chirpstackUplinkJson,
  chirpstackUplinkProtobuf,
  ttsUplink,
  type UplinkSpec,
} from '../services/lorawan/envelope-writers.js';
import { inject, injectUrl, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn } from '../test/factories.js';

/** The payloads of real meters with what they decode to (the decoders' test data). */
const VECTORS = readFileSync(
  new URL('../services/lorawan/decode/testdata/lorawan-samples.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((l) => l.trim())
  .map(
    (l) =>
      JSON.parse(l) as {
        model: string;
        meter_type: 'water' | 'heat';
        f_port: number;
        payload_hex: string;
        expected: { current_volume_m3?: number; energy_kwh?: number; time_utc?: string };
      },
  );
const ENVELOPES = ['chirpstack-json', 'chirpstack-protobuf', 'tts'] as const;
type Envelope = (typeof ENVELOPES)[number];

describe(`LoRaWAN uplinks become readings (${dbKind()})`, () => {
  const t = useApp();
  let operator: string;
  let keys: { chirpstack: string; tts: string };
  let flat: Awaited<ReturnType<typeof makeFlat>>;
  let serial = 0;

  const send = (envelope: Envelope, spec: UplinkSpec) => {
    if (envelope === 'tts')
      return inject(t.app, ingestTtsUplink, {
        body: ttsUplink(spec) as never,
        headers: { 'x-rodmenys-key': keys.tts },
      });
    if (envelope === 'chirpstack-json')
      return inject(t.app, ingestChirpstack, {
        query: { event: 'up' },
        body: chirpstackUplinkJson(spec) as never,
        headers: { 'x-rodmenys-key': keys.chirpstack },
      });
    return injectUrl<typeof ingestChirpstack>(t.app, 'POST', '/api/lorawan/chirpstack?event=up', {
      payload: chirpstackUplinkProtobuf(spec),
      headers: { 'content-type': 'application/protobuf', authorization: `Bearer ${keys.chirpstack}` },
    });
  };
  /** A meter of a model with a DevEUI in the served building. */
  const meter = async (model: string, typeId: DeviceTypeId) => {
    const n = ++serial;
    const devEui = `A8B2C3D4E5F6${n.toString(16).toUpperCase().padStart(4, '0')}`;
    const id = await makeDevice(t.db, typeId === DEVICE_TYPE.buildingHeatMeter ? flat.path.at(-2)! : flat, {
      code: `LORA-${n}`,
      typeId,
    });
    await t.db.query('UPDATE device SET dev_eui = $2, model = $3 WHERE id = $1', [id, devEui, model]);
    return { id, devEui };
  };
  const readings = async (deviceId: number) =>
    (
      await t.db.query<{ ts: string; value: number }>(
        'SELECT to_char(ts AT TIME ZONE \'UTC\', \'YYYY-MM-DD"T"HH24:MI:SS"Z"\') AS ts, value::float8 AS value FROM reading WHERE device_id = $1 ORDER BY ts',
        [deviceId],
      )
    ).rows;

  beforeAll(async () => {
    operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
    const building = await makeBuilding(t.db, { city: 'Kaunas', street: 'Raudondvario pl.', number: '101' });
    flat = await makeFlat(t.db, building);
    const conn = async (kind: 'chirpstack' | 'tts') =>
      (
        await inject(t.app, createLnsConnection, {
          token: operator,
          body: { kind, name: `LNS ${kind}`, locationIds: [building.id] },
        })
      ).body.Key;
    keys = { chirpstack: await conn('chirpstack'), tts: await conn('tts') };
  });

  it('gives every sample vector its expected reading through each envelope', async () => {
    expect(VECTORS.length).toBeGreaterThanOrEqual(3);
    for (const [i, v] of VECTORS.entries()) {
      for (const envelope of ENVELOPES) {
        const water = v.meter_type === 'water';
        const model = water ? 'Qalcosonic W1' : 'CMi4111';
        const d = await meter(model, water ? DEVICE_TYPE.coldWaterMeter : DEVICE_TYPE.buildingHeatMeter);
        // The LNS's time: half a minute after the meter's own (the W1 has one), or a time of its own.
        const lnsTime = v.expected.time_utc
          ? new Date(Date.parse(v.expected.time_utc) + 30_000).toISOString()
          : `2026-10-0${i + 1}T08:15:00.5Z`;
        const res = await send(envelope, {
          devEui: d.devEui,
          fCnt: 7,
          fPort: v.f_port,
          payload: Buffer.from(v.payload_hex, 'hex'),
          time: lnsTime,
        });
        const what = `${v.model} via ${envelope}`;
        expect([what, res.status, res.body.Outcome, res.body.Reading, res.body.Reason]).toEqual([
          what,
          200,
          'stored',
          true,
          null,
        ]);
        const expected = water ? v.expected.current_volume_m3! : v.expected.energy_kwh!;
        const ts = (v.expected.time_utc ?? lnsTime).replace(/\.\d+Z$/, 'Z');
        expect([what, await readings(d.id)]).toEqual([what, [{ ts, value: expected }]]);
      }
    }
  });

  it('changes nothing when a day of uplinks is sent twice more, in JSON, Protobuf and through a second LNS', async () => {
    const meters = await Promise.all([1, 2, 3].map(() => meter('Qalcosonic W1', DEVICE_TYPE.coldWaterMeter)));
    const day = Date.parse('2026-11-10T00:00:00Z');
    const specs = meters.flatMap((m, i) =>
      Array.from({ length: 8 }, (_, h) => {
        const at = new Date(day + h * 3 * 3_600_000 + i * 1000);
        return {
          devEui: m.devEui,
          fCnt: 100 + h,
          fPort: 100,
          payload: w1Payload(at, 10_000 + i * 1000 + h * 50, Array(23).fill(1)),
          time: new Date(at.getTime() + 2000).toISOString(),
          deduplicationId: `6a1e0000-0000-4000-8000-${String(i * 100 + h).padStart(12, '0')}`,
        };
      }),
    );
    for (const s of specs) expect((await send('chirpstack-json', s)).body.Outcome).toBe('stored');
    const snapshot = async () =>
      (
        await t.db.query<{ s: string }>(
          `SELECT json_build_object(
             'readings', (SELECT json_agg(r ORDER BY r.device_id, r.ts) FROM reading r),
             'uplinks', (SELECT count(*) FROM lorawan_uplink),
             'status', (SELECT json_agg(s ORDER BY s.device_id) FROM device_status s),
             'pending', (SELECT count(*) FROM dq_pending))::text AS s`,
        )
      ).rows[0]!.s;
    const before = await snapshot();
    for (const envelope of ['chirpstack-protobuf', 'chirpstack-json', 'tts'] as const)
      for (const s of specs) {
        // Through The Things Stack there is no deduplicationId: the uplink itself is the key.
        const res = await send(envelope, envelope === 'tts' ? { ...s, deduplicationId: undefined } : s);
        expect([envelope, res.status, res.body.Outcome]).toEqual([envelope, 200, 'duplicate']);
      }
    expect(await snapshot()).toBe(before);
    expect((await readings(meters[0]!.id)).length).toBe(8);
  });

  it('turns a W1 leak into the device status flag and the METER_STATUS anomaly', async () => {
    const m = await meter('Qalcosonic W1', DEVICE_TYPE.coldWaterMeter);
    const at = new Date(Date.now() - 3_600_000);
    const res = await send('tts', {
      devEui: m.devEui,
      fCnt: 1,
      fPort: 100,
      payload: w1Payload(at, 5000, Array(23).fill(0), 0x20),
      time: at.toISOString(),
    });
    expect(res.body.Reading).toBe(true);
    const { rows } = await t.db.query<{ flags: string[] }>('SELECT flags FROM device_status WHERE device_id = $1', [
      m.id,
    ]);
    expect(rows[0]!.flags).toEqual(['LEAK']);
    await validate(t.db, [m.id]);
    const anomaly = await t.db.query<{ evidence: { flags: string[] } }>(
      "SELECT evidence FROM anomaly WHERE rule = 'METER_STATUS' AND device_id = $1",
      [m.id],
    );
    expect(anomaly.rows.map((r) => r.evidence.flags)).toEqual([['LEAK']]);
  });

  it('takes the LNS time when the meter clock is far off, and flags the clock', async () => {
    const m = await meter('Qalcosonic W1', DEVICE_TYPE.coldWaterMeter);
    const lns = '2026-11-15T12:00:00Z';
    // The meter thinks it is 2001.
    await send('chirpstack-json', {
      devEui: m.devEui,
      fCnt: 3,
      fPort: 100,
      payload: w1Payload(new Date('2001-01-01T00:00:00Z'), 7000, Array(23).fill(0)),
      time: lns,
    });
    expect(await readings(m.id)).toEqual([{ ts: lns, value: 7 }]);
    const health = await inject(t.app, getLorawanDeviceHealth, { token: operator, params: { id: m.id } });
    expect(health.body.ClockFlag).toBe('skew');
    expect(health.body.Uplinks[0]!.MeterTime).toMatch(/^2001-01-0[12]/);
  });

  it('opens METER_UNDECODED for a meter heard for a day without a reading, naming its connection', async () => {
    const m = await meter('Qalcosonic W1', DEVICE_TYPE.coldWaterMeter);
    const now = new Date();
    for (const [i, hoursAgo] of [30, 12, 1].entries()) {
      const at = new Date(now.getTime() - hoursAgo * 3_600_000);
      // 50 bytes: a W1 payload one byte short.
      const res = await send('tts', {
        devEui: m.devEui,
        fCnt: i + 1,
        fPort: 100,
        payload: w1Payload(at, 1000, Array(23).fill(0)).subarray(0, 50),
        time: at.toISOString(),
      });
      expect([res.body.Outcome, res.body.Reason]).toEqual(['stored', 'wrong-length']);
    }
    await t.db.transaction((tx) => checkUndecoded(tx, now, 24));
    const { rows } = await t.db.query<{ rule: string; collector_id: number | null; evidence: { heardBy: string[] } }>(
      "SELECT rule, collector_id, evidence FROM anomaly WHERE device_id = $1 AND state <> 'resolved'",
      [m.id],
    );
    expect(rows.map((r) => [r.rule, r.collector_id, r.evidence.heardBy])).toEqual([
      ['METER_UNDECODED', null, ['LNS tts']],
    ]);
  });

  it("reads a model's LNS-decoded object through its field mapping", async () => {
    const created = await inject(t.app, createLorawanMapping, {
      token: operator,
      body: { model: 'Some Meter 9', valueField: 'meter.total_l', unit: 'l', timeField: 'meter.time' },
    });
    expect(created.status).toBe(201);
    const m = await meter('some  meter 9', DEVICE_TYPE.coldWaterMeter);
    const res = await send('chirpstack-json', {
      devEui: m.devEui,
      fCnt: 4,
      fPort: 9,
      payload: Buffer.from('0102', 'hex'),
      time: '2026-11-16T10:00:05Z',
      object: { meter: { total_l: 123_456, time: '2026-11-16T10:00:00Z' } },
    });
    expect([res.body.Reading, res.body.Reason]).toEqual([true, null]);
    expect(await readings(m.id)).toEqual([{ ts: '2026-11-16T10:00:00Z', value: 123.456 }]);
  });
});
