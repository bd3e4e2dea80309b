import { createLnsConnection, DEVICE_TYPE, GROUP, ingestChirpstack, ingestTtsUplink } from '@rodmenys/contract';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Rng } from '../demo/random.js';
import { w1Payload } from '../demo/seed/lorawan.js';
import { readChirpstack } from '../services/lorawan/chirpstack.js';
import { createConnection, KEY_CACHE_MS } from '../services/lorawan/connections.js';
import { DECODERS } from '../services/lorawan/decoding.js';
import {
  chirpstackUplinkJson,
  chirpstackUplinkProtobuf,
  ttsUplink,
  type UplinkSpec,
} from '../services/lorawan/envelope-writers.js';
import type { UplinkEvent } from '../services/lorawan/envelopes.js';
import { submitUplink, uplinkBatchStats } from '../services/lorawan/uplink-batch.js';
import { inject, injectUrl, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn } from '../test/factories.js';

// docs/lorawan.md, "How uplinks are written": uplinks arriving together are written in one statement
// and one commit. Each request must still get the answer it would get alone, and the rows must be
// those of the uplinks one by one: copies of one uplink in the same batch, uplinks of two
// connections, a frame counter started again after a rejoin, a malformed request among them.

const LEAK = 0x20;
const START = Date.UTC(2026, 10, 2, 6);

describe(`LoRaWAN uplinks written together (${dbKind()})`, () => {
  const t = useApp();
  /** Meters of building A (served by the ChirpStack connection) and B (by The Things Stack one). */
  const meters: { id: number; devEui: string; building: 'A' | 'B' }[] = [];
  let keys: { A: string; B: string };
  let connections: { A: number; B: number };

  const send = (via: 'json' | 'protobuf' | 'tts', spec: UplinkSpec, key: string) =>
    via === 'tts'
      ? inject(t.app, ingestTtsUplink, { body: ttsUplink(spec) as never, headers: { 'x-rodmenys-key': key } })
      : via === 'json'
        ? inject(t.app, ingestChirpstack, {
            query: { event: 'up' },
            body: chirpstackUplinkJson(spec) as never,
            headers: { 'x-rodmenys-key': key },
          })
        : injectUrl<typeof ingestChirpstack>(t.app, 'POST', '/api/lorawan/chirpstack?event=up', {
            payload: chirpstackUplinkProtobuf(spec),
            headers: { 'content-type': 'application/octet-stream', 'x-rodmenys-key': key },
          });

  beforeAll(async () => {
    const operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
    for (const [building, street] of [
      ['A', 'Kalvarijų g.'],
      ['B', 'Laisvės al.'],
    ] as const) {
      const place = await makeBuilding(t.db, { city: 'Kaunas', street, number: '7' });
      const flat = await makeFlat(t.db, place);
      for (let i = 0; i < 6; i++) {
        const devEui = `A8B2C3D4E5${building === 'A' ? 'A' : 'B'}${String(i).padStart(5, '0')}`;
        const id = await makeDevice(t.db, flat, { code: `W1-${building}${i}`, typeId: DEVICE_TYPE.coldWaterMeter });
        await t.db.query("UPDATE device SET dev_eui = $2, model = 'Qalcosonic W1' WHERE id = $1", [id, devEui]);
        meters.push({ id, devEui, building });
      }
      const created = await inject(t.app, createLnsConnection, {
        token: operator,
        body: { kind: building === 'A' ? 'chirpstack' : 'tts', name: `LNS ${building}`, locationIds: [place.id] },
      });
      if (building === 'A') keys = { A: created.body.Key, B: '' };
      else keys.B = created.body.Key;
      if (building === 'A') connections = { A: created.body.Id, B: 0 };
      else connections.B = created.body.Id;
    }
  });

  it('answers each of many concurrent uplinks as it would alone, and stores each uplink once', async () => {
    const rng = new Rng(45);
    /** An uplink: its meter, its frame, its meter time and volume; `id` names it (copies share it). */
    interface Up {
      id: number;
      meter: (typeof meters)[number];
      spec: UplinkSpec;
      litres: number;
      at: Date;
    }
    const ups: Up[] = [];
    const lastLitres = new Map<number, number>();
    for (let n = 0; n < 48; n++) {
      const meter = meters[n % meters.length]!;
      const k = Math.floor(n / meters.length);
      const at = new Date(START + k * 86_400_000 + rng.int(0, 3_599) * 1000);
      const litres = (lastLitres.get(meter.id) ?? rng.int(10_000, 90_000)) + rng.int(50, 900);
      lastLitres.set(meter.id, litres);
      const last = k === 48 / meters.length - 1;
      const spec: UplinkSpec = {
        devEui: meter.devEui,
        devAddr: `0${meter.building === 'A' ? 'a' : 'b'}0000${String(k).padStart(2, '0')}`,
        fCnt: k + 1,
        fPort: 100,
        // The last uplink of every third meter reports a leak: its status flags follow the latest uplink.
        payload: w1Payload(at, litres, Array(23).fill(0), last && meter.id % 3 === 0 ? LEAK : 0),
        time: new Date(at.getTime() + 1_500).toISOString(),
        ...(meter.building === 'A'
          ? { deduplicationId: `4545${String(n).padStart(4, '0')}-0000-4000-8000-000000000000` }
          : {}),
      };
      ups.push({ id: n, meter, spec, litres, at });
    }
    // After a rejoin (a new session address) meter A0's frame counter starts again, with the same payload
    // and counter as its first uplink: a new uplink, not a duplicate (the meter's clock moved on, so its reading
    // is at another time too).
    const first = ups[0]!;
    const rejoinAt = new Date(first.at.getTime() + 30 * 86_400_000);
    const rejoin: Up = {
      id: 100,
      meter: first.meter,
      litres: first.litres,
      at: rejoinAt,
      spec: {
        ...first.spec,
        devAddr: '0a00ffff',
        payload: w1Payload(rejoinAt, first.litres, Array(23).fill(0)),
        time: new Date(rejoinAt.getTime() + 1_500).toISOString(),
        deduplicationId: '45450100-0000-4000-8000-000000000000',
      },
    };

    type Request = { up: Up; via: 'json' | 'protobuf' | 'tts'; key: string };
    const viaOf = (up: Up, r: number): Request['via'] =>
      up.meter.building === 'B' ? 'tts' : r < 0.5 ? 'json' : 'protobuf';
    const requests: Request[] = [...ups, rejoin].map((up) => ({
      up,
      via: viaOf(up, rng.next()),
      key: up.meter.building === 'A' ? keys.A : keys.B,
    }));
    // Copies: a third of the uplinks again (ChirpStack's retry in the other marshaler, The Things Stack's twice).
    for (const up of ups.filter(() => rng.chance(1 / 3)))
      requests.push({ up, via: viaOf(up, rng.next()), key: up.meter.building === 'A' ? keys.A : keys.B });
    // A meter of building B heard through A's ChirpStack connection: unknown to that connection (the inbox).
    const stray: Up = {
      id: 200,
      meter: meters.find((m) => m.building === 'B')!,
      litres: 1,
      at: new Date(START),
      spec: {
        devEui: meters.find((m) => m.building === 'B')!.devEui,
        devAddr: '0c000001',
        fCnt: 9,
        fPort: 100,
        payload: w1Payload(new Date(START), 1, Array(23).fill(0)),
        time: new Date(START + 1_500).toISOString(),
      },
    };
    requests.push({ up: stray, via: 'json', key: keys.A });
    // Shuffled (seeded), so that copies land in the same batch as their first.
    for (let i = requests.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [requests[i], requests[j]] = [requests[j]!, requests[i]!];
    }

    const before = uplinkBatchStats(t.db);
    const [answers, malformed] = await Promise.all([
      Promise.all(requests.map((r) => send(r.via, r.up.spec, r.key))),
      // A DevEUI of 15 digits among them: refused alone, naming the field.
      send('json', { ...first.spec, devEui: first.spec.devEui.slice(1), deduplicationId: undefined }, keys.A),
    ]);
    const after = uplinkBatchStats(t.db);

    expect([malformed.status, malformed.error.code]).toEqual([400, 'devEuiInvalid']);
    // Written in batches (fewer than the requests), none of them refused and written again one by one.
    expect(after.uplinks - before.uplinks).toBe(requests.length);
    expect(after.batches - before.batches).toBeLessThan(requests.length / 2);
    expect(after.oneByOne).toBe(before.oneByOne);

    // Per uplink: exactly one request answered `stored` with a reading, its copies `duplicate`; the stray one `unmatched`.
    const byUp = new Map<number, { outcome: string; reading: boolean; status: number }[]>();
    for (const [i, r] of requests.entries()) {
      const a = answers[i]!;
      byUp.set(r.up.id, [
        ...(byUp.get(r.up.id) ?? []),
        { outcome: a.body.Outcome, reading: a.body.Reading, status: a.status },
      ]);
    }
    for (const [id, got] of byUp) {
      const stray = id === 200;
      const sorted = got.map((g) => `${g.status} ${g.outcome} ${g.reading}`).sort();
      const want = stray
        ? ['200 unmatched false']
        : ['200 stored true', ...Array(got.length - 1).fill('200 duplicate false')].sort();
      expect([id, sorted]).toEqual([id, want]);
    }

    // The rows: each uplink once (the stray one in the inbox), one reading per uplink at the meter's time.
    const { rows: stored } = await t.db.query<{ n: number; unmatched: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE device_id IS NULL)::int AS unmatched FROM lorawan_uplink
        WHERE connection_id = ANY ($1::int[])`,
      [[connections.A, connections.B]],
    );
    expect(stored[0]).toEqual({ n: ups.length + 2, unmatched: 1 });
    for (const m of meters) {
      const want = [...ups, rejoin]
        .filter((u) => u.meter.id === m.id)
        .map((u) => ({ ts: new Date(Math.floor(u.at.getTime() / 1000) * 1000).toISOString(), litres: u.litres }))
        .sort((a, b) => a.ts.localeCompare(b.ts));
      const { rows } = await t.db.query<{ ts: string; litres: number }>(
        `SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"') AS ts, (value * 1000)::int AS litres
           FROM reading WHERE device_id = $1 ORDER BY ts`,
        [m.id],
      );
      expect([m.devEui, rows]).toEqual([m.devEui, want]);
    }
    // device_status follows each meter's latest uplink: its time and its alarms.
    const { rows: status } = await t.db.query<{ device_id: number; flags: string[] | null; last_seen: string }>(
      `SELECT device_id, flags, to_char(last_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"') AS last_seen
         FROM device_status WHERE device_id = ANY ($1::int[]) ORDER BY device_id`,
      [meters.map((m) => m.id)],
    );
    expect(status).toEqual(
      meters
        .map((m) => {
          const latest = [...ups, rejoin].filter((u) => u.meter.id === m.id).sort((a, b) => +b.at - +a.at)[0]!;
          const leak = latest.spec.payload[5] === LEAK;
          return {
            device_id: m.id,
            flags: leak ? ['LEAK'] : [],
            last_seen: new Date(Math.floor(latest.at.getTime() / 1000) * 1000).toISOString(),
          };
        })
        .sort((a, b) => a.device_id - b.device_id),
    );
  });

  it('stores copies within one batch once, and a batch refused for one uplink fails only that one', async () => {
    const meter = meters.find((m) => m.building === 'A')!;
    const event = (fCnt: number, at: Date, litres: number, dedup?: string) =>
      readChirpstack(
        'up',
        JSON.stringify(
          chirpstackUplinkJson({
            devEui: meter.devEui,
            devAddr: '0a0b0c0d',
            fCnt,
            fPort: 100,
            payload: w1Payload(at, litres, Array(23).fill(0)),
            time: new Date(at.getTime() + 1_000).toISOString(),
            ...(dedup ? { deduplicationId: dedup } : {}),
          }),
        ),
      ) as UplinkEvent;
    const at = new Date(Date.UTC(2026, 11, 1, 9));
    const a = event(500, at, 70_000, '45450500-0000-4000-8000-000000000000');
    // Another uplink at the same meter time (a meter sending its register twice): one reading, the first's.
    const b = event(501, at, 70_000);
    const c = event(502, new Date(at.getTime() + 3_600_000), 70_100);
    const item = (e: UplinkEvent) => ({ connectionId: connections.A, event: e, decoders: DECODERS });

    // Submitted in one turn of the event loop: one batch (docs/lorawan.md, "How uplinks are written").
    const before = uplinkBatchStats(t.db);
    const results = await Promise.all([a, a, b, c, a, c].map((e) => submitUplink(t.db, item(e))));
    const after = uplinkBatchStats(t.db);
    expect([after.batches - before.batches, after.uplinks - before.uplinks, after.oneByOne - before.oneByOne]).toEqual([
      1, 6, 0,
    ]);
    expect(results.map((r) => `${r.Outcome} ${r.Reading}`)).toEqual([
      'stored true',
      'duplicate false',
      'stored false',
      'stored true',
      'duplicate false',
      'duplicate false',
    ]);

    // An uplink the database refuses (a DevEUI in lower case breaks the table's check; the envelope
    // never lets one through) among valid ones: written again one by one, only it fails.
    const bad = { ...event(600, at, 1), devEui: meter.devEui.toLowerCase() };
    const d = event(601, new Date(at.getTime() + 7_200_000), 70_200);
    const e = event(602, new Date(at.getTime() + 10_800_000), 70_300);
    const settled = await Promise.allSettled([d, bad, e, a].map((x) => submitUplink(t.db, item(x))));
    expect(uplinkBatchStats(t.db).oneByOne - after.oneByOne).toBe(1);
    expect(settled.map((s) => (s.status === 'fulfilled' ? `${s.value.Outcome} ${s.value.Reading}` : 'failed'))).toEqual(
      ['stored true', 'failed', 'stored true', 'duplicate false'],
    );
    const { rows } = await t.db.query<{ f_cnt: string }>(
      'SELECT f_cnt::text FROM lorawan_uplink WHERE dev_addr = $1 ORDER BY f_cnt',
      ['0A0B0C0D'],
    );
    expect(rows.map((r) => r.f_cnt)).toEqual(['500', '501', '502', '601', '602']);
  });

  it('remembers a key KEY_CACHE_MS: rotated by another instance, it stops here after that time', async () => {
    const connection = await createConnection(t.db, { kind: 'chirpstack', name: 'Cache', locationIds: [] }, null);
    const join = (key: string) =>
      inject(t.app, ingestChirpstack, {
        query: { event: 'join' },
        body: {} as never,
        headers: { 'x-rodmenys-key': key },
      });
    expect((await join(connection.Key)).status).toBe(200);
    // Another instance rotates the key: only the database knows.
    await t.db.query("UPDATE lns_connection SET key_hash = sha256('elsewhere'::bytea) WHERE id = $1", [connection.Id]);
    expect((await join(connection.Key)).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + KEY_CACHE_MS + 1);
      expect((await join(connection.Key)).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });
});
