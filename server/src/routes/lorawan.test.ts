import {
  createLnsConnection,
  DEVICE_TYPE,
  deleteLnsConnection,
  GROUP,
  getLnsConnectionHealth,
  getLorawanDeviceHealth,
  ingestChirpstack,
  ingestTtsJoin,
  ingestTtsUplink,
  listLnsConnections,
  listLorawanDevices,
  listLorawanUnmatched,
  replaceDevice,
  rotateLnsConnectionKey,
  updateDevice,
  updateLnsConnection,
} from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chirpstackUplinkJson,
  chirpstackUplinkProtobuf,
  ttsUplink,
  type UplinkSpec,
} from '../services/lorawan/envelope-writers.js';
import { inject, injectUrl, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn } from '../test/factories.js';

const CMI = Buffer.from('0504065a2600000414f0140a00022d0b00023b2600025a7b02025e7c010c787135496904fd1700000800', 'hex');
const EUI = '70B3D5E75E00A001';
const EUI_TTS = '70B3D5E75E00A002';
const EUI_ELSEWHERE = '70B3D5E75E00A003';
const EUI_LATER = '70B3D5E75E00A004';

const spec = (over: Partial<UplinkSpec> = {}): UplinkSpec => ({
  devEui: EUI,
  fCnt: 10,
  fPort: 2,
  payload: CMI,
  time: '2026-11-20T10:00:00.123456789Z',
  gateways: [
    { id: 'aa555a0000000101', rssi: -97, snr: 6.5 },
    { id: 'aa555a0000000102', rssi: -110, snr: -3 },
  ],
  ...over,
});

describe(`LoRaWAN: connections and the LNS endpoints (${dbKind()})`, () => {
  const t = useApp();
  let operator: string;
  let chirpstack: { id: number; key: string };
  let tts: { id: number; key: string };
  let device: number;
  let later: number;
  let buildingId: number;
  let elsewhereId: number;

  const count = async (sql: string) =>
    (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`)).rows[0]!.n;

  const postJson = (event: string, body: unknown, key = chirpstack.key) =>
    inject(t.app, ingestChirpstack, { query: { event }, body: body as never, headers: { 'x-rodmenys-key': key } });
  const postProto = (event: string, bytes: Buffer, key = chirpstack.key) =>
    injectUrl<typeof ingestChirpstack>(t.app, 'POST', `/api/lorawan/chirpstack?event=${event}`, {
      payload: bytes,
      headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${key}` },
    });

  beforeAll(async () => {
    operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
    const building = await makeBuilding(t.db, { city: 'Kaunas', street: 'Savanorių pr.', number: '45' });
    const elsewhere = await makeBuilding(t.db, { city: 'Vilnius', street: 'Žirmūnų g.', number: '1' });
    const flat = await makeFlat(t.db, building);
    buildingId = building.id;
    elsewhereId = elsewhere.id;
    device = await makeDevice(t.db, building.id, { code: '69493571', typeId: DEVICE_TYPE.buildingHeatMeter });
    later = await makeDevice(t.db, flat, { code: 'W1-LATER', typeId: DEVICE_TYPE.coldWaterMeter });
    const tts1 = await makeDevice(t.db, flat, { code: 'W1-TTS', typeId: DEVICE_TYPE.coldWaterMeter });
    const other = await makeDevice(t.db, await makeFlat(t.db, elsewhere), {
      code: 'W1-ELSE',
      typeId: DEVICE_TYPE.coldWaterMeter,
    });
    await t.db.query("UPDATE device SET dev_eui = $2, model = 'CMi4111' WHERE id = $1", [device, EUI]);
    await t.db.query("UPDATE device SET dev_eui = $2, model = 'Qalcosonic W1' WHERE id = $1", [tts1, EUI_TTS]);
    await t.db.query('UPDATE device SET dev_eui = $2 WHERE id = $1', [other, EUI_ELSEWHERE]);
    const cs = await inject(t.app, createLnsConnection, {
      token: operator,
      body: { kind: 'chirpstack', name: 'ChirpStack Kaunas', locationIds: [building.id] },
    });
    expect(cs.status).toBe(201);
    chirpstack = { id: cs.body.Id, key: cs.body.Key };
    const tt = await inject(t.app, createLnsConnection, {
      token: operator,
      body: { kind: 'tts', name: 'TTN', locationIds: [building.id] },
    });
    tts = { id: tt.body.Id, key: tt.body.Key };
  });

  it('shows a key once and keeps only its hash', async () => {
    expect(chirpstack.key).toMatch(/^rml_[A-Za-z0-9_-]{43}$/);
    const list = await inject(t.app, listLnsConnections, { token: operator });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(chirpstack.key);
    expect(list.body.map((c) => [c.Name, c.Kind, c.EndpointPath])).toEqual([
      ['ChirpStack Kaunas', 'chirpstack', '/api/lorawan/chirpstack'],
      ['TTN', 'tts', '/api/lorawan/tts'],
    ]);
    const stored = await t.db.query<{ h: string }>("SELECT encode(key_hash, 'hex') AS h FROM lns_connection");
    expect(stored.rows.every((r) => !r.h.includes(chirpstack.key))).toBe(true);
  });

  it('refuses a missing or wrong key with 401 and stores nothing', async () => {
    const before = await count('lorawan_uplink');
    const none = await inject(t.app, ingestChirpstack, {
      query: { event: 'up' },
      body: chirpstackUplinkJson(spec()) as never,
    });
    expect([none.status, none.error.code]).toEqual([401, 'lnsKeyMissing']);
    const wrong = await postJson('up', chirpstackUplinkJson(spec()), `${chirpstack.key.slice(0, -1)}x`);
    expect([wrong.status, wrong.error.code]).toEqual([401, 'lnsKeyUnknown']);
    // A collector's or a user's credentials are no connection key.
    const user = await inject(t.app, ingestChirpstack, { query: { event: 'up' }, token: operator, body: {} as never });
    expect(user.status).toBe(401);
    // A key of the other kind reaches only its own endpoint.
    const kind = await postJson('up', chirpstackUplinkJson(spec()), tts.key);
    expect([kind.status, kind.error.code]).toEqual([403, 'lnsKindMismatch']);
    expect(await count('lorawan_uplink')).toBe(before);
    // A connection key is no user's token and no collector key: it reaches only the LNS endpoints.
    const asUser = await inject(t.app, listLnsConnections, { token: chirpstack.key });
    expect(asUser.status).toBe(401);
    const asCollector = await injectUrl(t.app, 'POST', '/api/ingest/wmbusmeters', {
      payload: '{}',
      headers: { 'content-type': 'application/json', 'x-collector-key': chirpstack.key },
    });
    expect(asCollector.status).toBe(401);
  });

  it('takes a ChirpStack JSON uplink of a known DevEUI, once', async () => {
    const first = await postJson(
      'up',
      chirpstackUplinkJson(spec({ deduplicationId: 'b8e4a2c1-0000-4000-8000-000000000001' })),
    );
    expect(first.status).toBe(200);
    expect(first.body.Outcome).toBe('stored');
    const again = await postJson(
      'up',
      chirpstackUplinkJson(spec({ deduplicationId: 'b8e4a2c1-0000-4000-8000-000000000001' })),
    );
    expect(again.body.Outcome).toBe('duplicate');
    // The same uplink through a second integration without deduplicationId: the same DevEUI, session, fCnt, payload.
    const second = await postJson('up', chirpstackUplinkJson(spec()));
    expect(second.body.Outcome).toBe('duplicate');
    const { rows } = await t.db.query<{ n: number; rssi: number; received: boolean; dev_addr: string }>(
      `SELECT count(*) OVER ()::int AS n, rssi, received_at = '2026-11-20T10:00:00.123457Z' AS received, dev_addr
         FROM lorawan_uplink WHERE dev_eui = $1`,
      [EUI],
    );
    expect(rows[0]!.n).toBe(1);
    expect(rows[0]!.rssi).toBe(-97);
    expect(rows[0]!.dev_addr).toBe('01020304');
    // The LNS's time, never the server's clock.
    expect(rows[0]!.received).toBe(true);
    // Heard: the device's status follows its uplinks as a telegram's (counts as read remotely).
    const status = await t.db.query<{ t: boolean }>(
      "SELECT telegram_ts = '2026-11-20T10:00:00.123457Z' AS t FROM device_status WHERE device_id = $1",
      [device],
    );
    expect(status.rows[0]!.t).toBe(true);
  });

  it('takes the same uplink in Protobuf as in JSON (a duplicate), and a new one', async () => {
    const dup = await postProto('up', chirpstackUplinkProtobuf(spec()));
    expect([dup.status, dup.body.Outcome]).toEqual([200, 'duplicate']);
    const next = await postProto('up', chirpstackUplinkProtobuf(spec({ fCnt: 13, time: '2026-11-20T11:00:00Z' })));
    expect([next.status, next.body.Outcome]).toEqual([200, 'stored']);
    const { rows } = await t.db.query<{ f: number; snr: number }>(
      'SELECT f_cnt::int AS f, snr FROM lorawan_uplink WHERE dev_eui = $1 ORDER BY f_cnt',
      [EUI],
    );
    expect(rows).toEqual([
      { f: 10, snr: 6.5 },
      { f: 13, snr: 6.5 },
    ]);
  });

  it('takes a frame counter started again after a rejoin (a new session) as new', async () => {
    const res = await postJson(
      'up',
      chirpstackUplinkJson(spec({ devAddr: '0a0b0c0d', fCnt: 10, time: '2026-11-21T08:00:00Z' })),
    );
    expect(res.body.Outcome).toBe('stored');
  });

  it('counts the events it does not use with 200, and keeps status and log for health', async () => {
    for (const event of ['join', 'ack', 'txack', 'location', 'integration', 'some-future-event']) {
      const res = await postJson(event, { deviceInfo: { devEui: EUI.toLowerCase() }, time: '2026-11-20T10:05:00Z' });
      expect([event, res.status, res.body.Outcome]).toEqual([event, 200, 'counted']);
    }
    const status = await postJson('status', {
      deviceInfo: { devEui: EUI.toLowerCase() },
      time: '2026-11-20T10:06:00Z',
      margin: 7,
      batteryLevel: 87.5,
    });
    expect(status.body.Outcome).toBe('counted');
    const log = await postJson('log', {
      deviceInfo: { devEui: EUI.toLowerCase() },
      time: '2026-11-20T10:07:00Z',
      level: 'ERROR',
      code: 'UPLINK_CODEC',
      description: 'js vm error: ReferenceError',
    });
    expect(log.body.Outcome).toBe('counted');
    const health = await inject(t.app, getLnsConnectionHealth, {
      token: operator,
      params: { id: chirpstack.id },
    });
    expect(health.status).toBe(200);
    expect(health.body.CodecErrors).toEqual([
      { At: expect.any(String), DevEui: EUI, Code: 'UPLINK_CODEC', Description: 'js vm error: ReferenceError' },
    ]);
    expect(health.body.Gateways.map((g) => g.GatewayId)).toEqual(['aa555a0000000101', 'aa555a0000000102']);
    expect(health.body.Expected).toBe(2);
    const radio = await inject(t.app, getLorawanDeviceHealth, { token: operator, params: { id: device } });
    expect(radio.status).toBe(200);
    expect(radio.body.Battery).toMatchObject({ Level: 87.5, ExternalPower: false, Margin: 7 });
    expect(radio.body.DevEui).toBe(EUI);
    expect(radio.body.EffectiveDecoder).toBe('elvaco-cmi41xx');
    // fCnt 10 then 13 in one session: 11 and 12 were lost; the new session's 10 is no gap.
    expect(radio.body.LostLast30d).toBe(2);
    expect(radio.body.Uplinks).toHaveLength(3);
  });

  it('takes a The Things Stack uplink, and counts its join', async () => {
    const res = await inject(t.app, ingestTtsUplink, {
      body: ttsUplink(spec({ devEui: EUI_TTS, fPort: 100, payload: Buffer.from('01', 'hex') })) as never,
      headers: { authorization: `Bearer ${tts.key}` },
    });
    expect([res.status, res.body.Outcome]).toEqual([200, 'stored']);
    const join = await inject(t.app, ingestTtsJoin, {
      body: { end_device_ids: { dev_eui: EUI_TTS }, received_at: '2026-11-20T09:00:00Z', join_accept: {} } as never,
      headers: { 'x-rodmenys-key': tts.key },
    });
    expect([join.status, join.body.Outcome, join.body.Event]).toEqual([200, 'counted', 'join']);
  });

  it('keeps an unknown DevEUI, or one of another connection’s buildings, in the inbox until a device has it', async () => {
    const unknown = await postJson('up', chirpstackUplinkJson(spec({ devEui: EUI_LATER, fCnt: 1 })));
    expect(unknown.body.Outcome).toBe('unmatched');
    const foreign = await postJson('up', chirpstackUplinkJson(spec({ devEui: EUI_ELSEWHERE, fCnt: 1 })));
    expect(foreign.body.Outcome).toBe('unmatched');
    const inbox = await inject(t.app, listLorawanUnmatched, { token: operator });
    expect(inbox.body.Data.map((u) => [u.DevEui, u.Count, u.Connection])).toEqual([
      [EUI_ELSEWHERE, 1, 'ChirpStack Kaunas'],
      [EUI_LATER, 1, 'ChirpStack Kaunas'],
    ]);
    // The device form gives a device that DevEUI: its waiting uplink becomes its own.
    const set = await inject(t.app, updateDevice, {
      token: operator,
      params: { id: later },
      body: { devEui: EUI_LATER.toLowerCase() },
    });
    expect([set.status, set.body.DevEui]).toEqual([200, EUI_LATER]);
    const after = await inject(t.app, listLorawanUnmatched, { token: operator });
    expect(after.body.Data.map((u) => u.DevEui)).toEqual([EUI_ELSEWHERE]);
    const sameBuildings = await inject(t.app, updateLnsConnection, {
      token: operator,
      params: { id: chirpstack.id },
      body: { name: 'ChirpStack Kaunas' },
    });
    expect(sameBuildings.status).toBe(200);
    const own = await t.db.query('SELECT 1 FROM lorawan_uplink WHERE dev_eui = $1 AND device_id = $2', [
      EUI_LATER,
      later,
    ]);
    expect(own.rowCount).toBe(1);
    // The other building's DevEUI is taken in once the connection serves that building too.
    const widened = await inject(t.app, updateLnsConnection, {
      token: operator,
      params: { id: chirpstack.id },
      body: { locationIds: [buildingId, elsewhereId] },
    });
    expect(widened.status).toBe(200);
    expect((await inject(t.app, listLorawanUnmatched, { token: operator })).body.Total).toBe(0);
    const list = await inject(t.app, listLorawanDevices, { token: operator, query: { search: '70b3d5e75e00a00' } });
    expect(list.body.Data.map((d) => d.DevEui).sort()).toEqual([EUI, EUI_TTS, EUI_ELSEWHERE, EUI_LATER].sort());
  });

  it('refuses a DevEUI that is not 16 hex digits, at the device form and at the endpoint', async () => {
    for (const bad of ['70B3D5E75E00A00', '70B3D5E75E00A00\n1', '70B3D5E75E00A0G1']) {
      const form = await inject(t.app, updateDevice, { token: operator, params: { id: later }, body: { devEui: bad } });
      expect([bad, form.status, form.error.errors?.[0]?.field]).toEqual([bad, 400, 'devEui']);
      const up = await postJson('up', chirpstackUplinkJson(spec({ devEui: bad, fCnt: 99 })));
      expect([bad, up.status, up.error.code, up.error.params?.field]).toEqual([
        bad,
        400,
        'devEuiInvalid',
        'deviceInfo.devEui',
      ]);
    }
    const taken = await inject(t.app, updateDevice, { token: operator, params: { id: later }, body: { devEui: EUI } });
    expect([taken.status, taken.error.code]).toEqual([409, 'devEuiTaken']);
  });

  it('moves the DevEUI to the new device of a replacement only when the operator says so', async () => {
    const both = await inject(t.app, replaceDevice, {
      token: operator,
      params: { id: later },
      body: {
        replacedAt: '2026-11-22T09:00:00Z',
        finalReading: 1,
        newDeviceCode: 'W1-NEW-1',
        initialReading: 0,
        keepDevEui: true,
        newDevEui: '70B3D5E75E00A0FF',
      },
    });
    expect([both.status, both.error.code]).toEqual([400, 'devEuiBothGiven']);
    const kept = await inject(t.app, replaceDevice, {
      token: operator,
      params: { id: later },
      body: {
        replacedAt: '2026-11-22T09:00:00Z',
        finalReading: 1,
        newDeviceCode: 'W1-NEW-1',
        initialReading: 0,
        keepDevEui: true,
      },
    });
    expect(kept.status).toBe(201);
    expect([kept.body.Old.DevEui, kept.body.New.DevEui]).toEqual([null, EUI_LATER]);
    // Without saying so, the new device has none and the old keeps its own.
    const plain = await inject(t.app, replaceDevice, {
      token: operator,
      params: { id: kept.body.New.DeviceId },
      body: { replacedAt: '2026-11-23T09:00:00Z', finalReading: 2, newDeviceCode: 'W1-NEW-2', initialReading: 0 },
    });
    expect([plain.status, plain.body.Old.DevEui, plain.body.New.DevEui]).toEqual([201, EUI_LATER, null]);
  });

  it('refuses hostile bodies with a 400 naming the fault, never a 500', async () => {
    const base = chirpstackUplinkJson(spec({ fCnt: 500 }));
    const cases: [string, unknown, string][] = [
      ['bad base64', { ...base, data: 'AQI$' }, 'data'],
      ['256 bytes', { ...base, data: Buffer.alloc(256, 1).toString('base64') }, 'data'],
      ['no time', { ...base, time: undefined }, 'time'],
      ['a time without zone', { ...base, time: '2026-11-20T10:00:00' }, 'time'],
      ['U+0000 in a name', { ...base, deviceInfo: { devEui: EUI, deviceName: 'a\u0000b' } }, 'deviceInfo.deviceName'],
      ['U+0000 in the object', { ...base, object: { a: 'x\u0000' } }, 'object'],
      ['fCnt beyond 32 bits', { ...base, fCnt: 2 ** 32 }, 'fCnt'],
    ];
    for (const [name, body, field] of cases) {
      const res = await postJson('up', body);
      expect([name, res.status, res.error.params?.field]).toEqual([name, 400, field]);
    }
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const tooDeep = await injectUrl(t.app, 'POST', '/api/lorawan/chirpstack?event=up', {
      payload: deep,
      headers: { 'content-type': 'application/json', 'x-rodmenys-key': chirpstack.key },
    });
    expect([tooDeep.status, tooDeep.error.code]).toEqual([400, 'lnsBodyTooDeep']);
    const huge = await injectUrl(t.app, 'POST', '/api/lorawan/chirpstack?event=up', {
      payload: JSON.stringify({ ...base, pad: 'x'.repeat(70 * 1024) }),
      headers: { 'content-type': 'application/json', 'x-rodmenys-key': chirpstack.key },
    });
    expect(huge.status).toBe(413);
    const notJson = await injectUrl(t.app, 'POST', '/api/lorawan/chirpstack?event=up', {
      payload: '{"deviceInfo":',
      headers: { 'content-type': 'application/json', 'x-rodmenys-key': chirpstack.key },
    });
    expect([notJson.status, notJson.error.code]).toEqual([400, 'lnsBodyNotJson']);
    const garbage = await postProto('up', Buffer.from('ffffffffffffffff0a', 'hex'));
    expect([garbage.status, garbage.error.code, garbage.error.params?.message]).toEqual([
      400,
      'lnsBodyNotProtobuf',
      'UplinkEvent',
    ]);
    // A payload of 0 bytes is kept, undecoded, with its reason.
    const empty = await postJson('up', chirpstackUplinkJson(spec({ fCnt: 600, payload: Buffer.alloc(0) })));
    expect([empty.status, empty.body.Outcome, empty.body.Reading]).toEqual([200, 'stored', false]);
    expect(empty.body.Reason).toEqual(expect.any(String));
  });

  it('rotates and deletes a key: the old one answers 401 at once', async () => {
    const rotated = await inject(t.app, rotateLnsConnectionKey, { token: operator, params: { id: chirpstack.id } });
    expect(rotated.status).toBe(201);
    const old = await postJson('join', {}, chirpstack.key);
    expect(old.status).toBe(401);
    const fresh = await postJson('join', {}, rotated.body.Key);
    expect(fresh.status).toBe(200);
    await inject(t.app, deleteLnsConnection, { token: operator, params: { id: chirpstack.id } });
    expect((await postJson('join', {}, rotated.body.Key)).status).toBe(401);
  });
});
