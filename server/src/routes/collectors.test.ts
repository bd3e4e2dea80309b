import { readFileSync } from 'node:fs';
import {
  createCollectorKey,
  DEVICE_TYPE,
  type DeviceTypeId,
  GROUP,
  getCollectorConfig,
  importMeterKeys,
  ingestWmbusmeters,
  LOCATION_LEVEL,
  listCollectorHealth,
  listCollectorMeters,
  postCollectorAlarm,
  setCollectorLocations,
  updateDevice,
} from '@rodmenys/contract';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCollectorHealth as health, listCollectorMeters as meters } from '../services/collectors/health.js';
import { noteCollectorRequest } from '../services/collectors/heard.js';
import { checkCollectors } from '../services/collectors/silence.js';
import { sendDigests } from '../services/data-quality/digest.js';
import { validate } from '../services/data-quality/validate.js';
import { ingestTelegrams } from '../services/ingest/ingest-telegrams.js';
import type { TelegramItem } from '../services/ingest/map-telegram.js';
import { Mailer } from '../services/mail/index.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn, type Place, type SignedIn } from '../test/factories.js';
import { type Delivered, decodeMail, startSmtp } from '../test/smtp.js';

/** Real telegrams as wmbusmeters decodes them (the shared data set of real meters). */
const SAMPLES = readFileSync(new URL('../services/ingest/testdata/wmbusmeters-samples.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { meter_type: string; expected_json: Record<string, unknown> });
const sample = (id: string) => SAMPLES.find((s) => s.expected_json.id === id)!;
const TYPE_OF: Record<string, DeviceTypeId> = {
  hca: DEVICE_TYPE.allocator,
  heat: DEVICE_TYPE.heatMeter,
  water: DEVICE_TYPE.coldWaterMeter,
};

// Building A's meters (collector A) and building B's (collector B). SHARED lies in A but only B hears it;
// BOTH lies in A and both collectors hear it.
const A_METERS = ['78563412', '67676767'];
const BOTH = '00148686';
const SHARED = '76348799';
const B_METERS = ['27282728', '21242472'];

const MINUTE = 60_000;

describe(`collectors as a fleet: keys, configuration, health, silence (${dbKind()})`, () => {
  const t = useApp();
  let operator: SignedIn;
  let buildingA: Place;
  let buildingB: Place;
  const keys: Record<'A' | 'B', { id: number; key: string; name: string }> = {} as never;
  const device: Record<string, number> = {};
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let delivered: Delivered[];
  // An hour of fake time, three days ago (reception times must not lie ahead of now).
  const T0 = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 86_400_000);
  const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);

  /** A collector request as the ingest route takes it: the telegrams, then the collector's health notes. */
  async function send(who: 'A' | 'B', ids: string[], when: Date, rssi: (i: number) => number) {
    const items: TelegramItem[] = ids.map((id, i) => {
      const json = { ...sample(id).expected_json, timestamp: when.toISOString(), rssi_dbm: rssi(i) };
      return { position: i + 1, json, raw: JSON.stringify(json) };
    });
    const result = await ingestTelegrams(t.db, items, when);
    expect(result.Rejected).toEqual([]);
    await noteCollectorRequest(t.db, keys[who].id, items, when);
  }

  const silentAnomalies = async () =>
    (
      await t.db.query<{ rule: string; device_id: number | null; collector_id: number | null; state: string }>(
        "SELECT rule, device_id, collector_id, state FROM anomaly WHERE rule IN ('SILENT', 'COLLECTOR_SILENT') ORDER BY id",
      )
    ).rows;

  beforeAll(async () => {
    smtp = await startSmtp();
    delivered = smtp.delivered;
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    buildingA = await makeBuilding(t.db, { city: 'Klaipėda', street: 'Tiltų g.', number: '1' });
    buildingB = await makeBuilding(t.db, { city: 'Klaipėda', street: 'Liepų g.', number: '7' });
    const flatA = await makeFlat(t.db, buildingA);
    const flatB = await makeFlat(t.db, buildingB);
    for (const id of [...A_METERS, BOTH, SHARED, ...B_METERS]) {
      const flat = B_METERS.includes(id) ? flatB : flatA;
      device[id] = await makeDevice(t.db, flat, { code: id, typeId: TYPE_OF[sample(id).meter_type]! });
    }
    for (const who of ['A', 'B'] as const) {
      const res = await inject(t.app, createCollectorKey, {
        token: operator.token,
        body: { name: `Collector ${who}` },
      });
      keys[who] = { id: res.body.Id, key: res.body.Key, name: res.body.Name };
    }
    await t.db.query("UPDATE dq_setting SET value = '15' WHERE key = 'collector.silentMinutes'");
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('assigns a building to A and a street to B; anything else is refused naming the field', async () => {
    const a = await inject(t.app, setCollectorLocations, {
      token: operator.token,
      params: { id: keys.A.id },
      body: { locationIds: [buildingA.id] },
    });
    expect(a.status).toBe(200);
    expect(a.body).toEqual([
      { Id: buildingA.id, Label: expect.stringContaining('Tiltų g. 1'), Level: LOCATION_LEVEL.building },
    ]);
    const street = buildingB.path[LOCATION_LEVEL.street - 1]!;
    const b = await inject(t.app, setCollectorLocations, {
      token: operator.token,
      params: { id: keys.B.id },
      body: { locationIds: [street] },
    });
    expect(b.body.map((l) => l.Id)).toEqual([street]);
    const flat = await inject(t.app, setCollectorLocations, {
      token: operator.token,
      params: { id: keys.B.id },
      body: { locationIds: [street, buildingB.path[LOCATION_LEVEL.flat - 1] ?? (await makeFlat(t.db, buildingB)).id] },
    });
    expect(flat.status).toBe(400);
    expect(flat.error.errors?.[0]?.field).toBe('locationIds');
    const user = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [buildingA] });
    const denied = await inject(t.app, setCollectorLocations, {
      token: user.token,
      params: { id: keys.A.id },
      body: { locationIds: [] },
    });
    expect(denied.status).toBe(403);
    // The refused change left B's street in place.
    const rows = await t.db.query('SELECT location_id FROM collector_location WHERE collector_id = $1', [keys.B.id]);
    expect(rows.rows).toEqual([{ location_id: street }]);
  });

  it('imports meter keys all or nothing, names every bad line, shows a changed key as a change', async () => {
    const keyOf = (id: string, v = 'A') => `${v.repeat(8)}${id}${id}${id}`.slice(0, 32);
    const bad = [
      'manufacturer;meter id;key',
      `QDS;${A_METERS[0]};${keyOf(A_METERS[0]!)}`,
      `KAM;99999999;${keyOf('99999999')}`,
      `KAM;${A_METERS[1]};${keyOf(A_METERS[1]!).slice(1)}`,
      `KAM;${A_METERS[0]};${keyOf(A_METERS[0]!)}`,
      'oops',
    ].join('\n');
    const refused = await inject(t.app, importMeterKeys, {
      token: operator.token,
      query: { apply: true },
      payload: bad,
      headers: { 'content-type': 'text/csv' },
    });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ Lines: 5, Applied: false, New: 1, ProblemCount: 4 });
    expect(refused.body.Problems).toEqual([
      { Line: 3, MeterId: '99999999', Problem: 'unknownMeter' },
      { Line: 4, MeterId: A_METERS[1], Problem: 'malformedKey' },
      { Line: 5, MeterId: A_METERS[0], Problem: 'duplicate' },
      { Line: 6, MeterId: null, Problem: 'fields' },
    ]);
    expect((await t.db.query('SELECT * FROM meter_key')).rows).toEqual([]);

    const good = [`QDS;${A_METERS[0]};${keyOf(A_METERS[0]!)}`, `KAM;${A_METERS[1]};${keyOf(A_METERS[1]!)}`];
    good.push(`APA;${BOTH};${keyOf(BOTH)}`, `SAP;${B_METERS[1]};${keyOf(B_METERS[1]!)}`);
    const stored = await inject(t.app, importMeterKeys, {
      token: operator.token,
      query: { apply: true },
      payload: good.join('\r\n'),
      headers: { 'content-type': 'text/csv' },
    });
    expect(stored.body).toMatchObject({ Lines: 4, Applied: true, New: 4, Changed: 0, Problems: [] });
    expect(JSON.stringify(stored.body)).not.toContain(keyOf(A_METERS[0]!));

    // A new key for one meter, the same for another: previewed, nothing stored.
    const change = [`QDS;${A_METERS[0]};${keyOf(A_METERS[0]!, 'B')}`, `KAM;${A_METERS[1]};${keyOf(A_METERS[1]!)}`];
    const preview = await inject(t.app, importMeterKeys, {
      token: operator.token,
      payload: change.join('\n'),
      headers: { 'content-type': 'text/csv' },
    });
    expect(preview.body).toMatchObject({ Applied: false, New: 0, Changed: 1, Unchanged: 1 });
    expect(preview.body.Rows.map((r) => [r.MeterId, r.Change])).toEqual([
      [A_METERS[0], 'changed'],
      [A_METERS[1], 'unchanged'],
    ]);

    // No table holds a key in clear (every row of every table as text, bytea as hex).
    const { rows: tables } = await t.db.query<{ name: string }>(
      "SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    expect(tables.length).toBeGreaterThan(10);
    for (const { name } of tables) {
      for (const id of [A_METERS[0]!, A_METERS[1]!, BOTH, B_METERS[1]!]) {
        const { rows } = await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${name} x WHERE lower(x::text) LIKE '%' || lower($1) || '%'`,
          [keyOf(id)],
        );
        expect(rows[0]!.n, `${name} holds the key of ${id}`).toBe(0);
      }
    }
    const audit = await t.db.query<{ after: { NewKeys: string[] } }>(
      "SELECT after FROM audit_log WHERE kind = 'meterKey.import'",
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]!.after.NewKeys.sort()).toEqual([A_METERS[0], A_METERS[1], BOTH, B_METERS[1]].sort());
  });

  it("gives each collector its own wmbusmeters files with its meters' keys, audited", async () => {
    const a = await inject(t.app, getCollectorConfig, { token: keys.A.key });
    expect(a.status).toBe(200);
    const paths = a.body.Files.map((f) => f.Path);
    expect(paths).toEqual([
      'wmbusmeters.conf',
      ...[BOTH, ...A_METERS, SHARED].sort().map((id) => `wmbusmeters.d/m_${id}`),
    ]);
    const conf = a.body.Files[0]!.Content;
    expect(conf).toMatch(/^format=json$/m);
    expect(conf).toMatch(
      new RegExp(
        `^shell=curl .*-H 'X-Collector-Key: ${keys.A.key}' --data-binary "\\$METER_JSON" '.*/api/ingest/wmbusmeters'$`,
        'm',
      ),
    );
    expect(conf).toMatch(
      /^alarmshell=curl .*"type=\$ALARM_TYPE".*"message=\$ALARM_MESSAGE" '.*\/api\/collectors\/alarms'$/m,
    );
    const file = (id: string) => a.body.Files.find((f) => f.Path === `wmbusmeters.d/m_${id}`)!.Content;
    expect(file(A_METERS[0]!)).toBe(
      `name=m_${A_METERS[0]}\nid=${A_METERS[0]}\nkey=AAAAAAAA${A_METERS[0]!.repeat(3)}\ndriver=auto\n`,
    );
    expect(file(A_METERS[1]!)).toMatch(/^key=[0-9A-F]{32}$/m);
    // No model: auto, never a driver guessed from the key file's manufacturer (KAM here).
    expect(file(A_METERS[1]!)).toMatch(/^driver=auto$/m);
    // No key stored: no key line; no model: auto.
    expect(file(SHARED)).toBe(`name=m_${SHARED}\nid=${SHARED}\ndriver=auto\n`);

    const b = await inject(t.app, getCollectorConfig, { token: keys.B.key });
    expect(b.body.Files.map((f) => f.Path)).toEqual([
      'wmbusmeters.conf',
      ...[...B_METERS].sort().map((id) => `wmbusmeters.d/m_${id}`),
    ]);
    const bText = JSON.stringify(b.body);
    for (const id of [...A_METERS, BOTH, SHARED]) expect(bText).not.toContain(id);
    expect(bText).toContain(`key=AAAAAAAA${B_METERS[1]}`);

    expect((await inject(t.app, getCollectorConfig)).status).toBe(401);
    expect((await inject(t.app, getCollectorConfig, { token: operator.token })).status).toBe(401);
    const reads = await t.db.query<{ entity_id: string; after: { KeysOf: string[] } }>(
      "SELECT entity_id, after FROM audit_log WHERE kind = 'meterKey.read' ORDER BY id",
    );
    expect(reads.rows.map((r) => [r.entity_id, r.after.KeysOf])).toEqual([
      [String(keys.A.id), [BOTH, ...A_METERS].sort()],
      [String(keys.B.id), [B_METERS[1]]],
    ]);
  });

  it("takes a meter's driver from the model set on the master-data form, whatever its case and spacing", async () => {
    const driverOf = async (id: string) => {
      const res = await inject(t.app, getCollectorConfig, { token: keys.A.key });
      expect(res.status).toBe(200);
      return res.body.Files.find((f) => f.Path === `wmbusmeters.d/m_${id}`)!.Content.match(/^driver=(.*)$/m)?.[1];
    };
    const setModel = async (id: string, model: string | null) => {
      const res = await inject(t.app, updateDevice, {
        params: { id: device[id]! },
        token: operator.token,
        body: { model },
      });
      expect(res.status, res.text).toBe(200);
    };
    expect(await driverOf(SHARED)).toBe('auto');
    await setModel(SHARED, 'Multical 21');
    expect(await driverOf(SHARED)).toBe('kamwater');
    await setModel(SHARED, '  MULTICAL   21 ');
    expect(await driverOf(SHARED)).toBe('kamwater');
    // A model the product does not know names no driver: auto, whatever the key file's manufacturer (QDS).
    await setModel(A_METERS[0]!, 'Sontex 868');
    expect(await driverOf(A_METERS[0]!)).toBe('sontex868');
    await setModel(A_METERS[0]!, 'Unknown 9000');
    expect(await driverOf(A_METERS[0]!)).toBe('auto');
    await setModel(SHARED, null);
    expect(await driverOf(SHARED)).toBe('auto');
  });

  it('replays an hour from two collectors; A stops: one anomaly names it, its meters open none, the digest says so, resuming resolves it', async () => {
    // Every 5 minutes B sends its meters, SHARED and BOTH (signal unknown: 999); A sends its own and BOTH until minute 25.
    for (let m = 0; m < 60; m += 5) {
      if (m < 30) await send('A', [...A_METERS, BOTH], at(m), (i) => -70 - 10 * i);
      await send('B', [...B_METERS, SHARED, BOTH], at(m), () => 999);
      if (m <= 40) expect(await checkCollectors(t.db, at(m))).toMatchObject({ silent: 0, opened: 0 });
    }
    // A's last telegram came at minute 25: 15 minutes later (40) it is not silent yet, a minute after it is.
    expect(await checkCollectors(t.db, at(40))).toMatchObject({ silent: 0, opened: 0 });
    expect(await checkCollectors(t.db, at(41))).toMatchObject({ silent: 1, opened: 1, resolved: 0 });
    expect(await checkCollectors(t.db, at(50))).toMatchObject({ silent: 1, opened: 0, resolved: 0 });
    const [anomaly] = (
      await t.db.query<{ id: number; building_id: number; collector_id: number; evidence: Record<string, unknown> }>(
        "SELECT id, building_id, collector_id, evidence FROM anomaly WHERE rule = 'COLLECTOR_SILENT'",
      )
    ).rows;
    expect(anomaly).toMatchObject({ building_id: buildingA.id, collector_id: keys.A.id });
    expect(anomaly!.evidence).toMatchObject({ collector: 'Collector A', limitMinutes: 15 });
    expect(anomaly!.evidence.buildings).toEqual([expect.stringContaining('Tiltų g. 1')]);

    // Health at minute 55: A silent, its meters heard, SHARED heard only by B, BOTH by both.
    const h = await health(t.db, at(55));
    const a = h.find((c) => c.Id === keys.A.id)!;
    const b = h.find((c) => c.Id === keys.B.id)!;
    expect(a).toMatchObject({ Silent: true, Expected: 4, Heard: 3, HeardElsewhere: [SHARED] });
    expect(a.LastContact).toBe((await t.db.query<{ t: string }>('SELECT iso($1) AS t', [at(25)])).rows[0]!.t);
    expect(a.TelegramsPerHour).toHaveLength(24);
    expect(a.TelegramsPerHour.reduce((s, n) => s + n, 0)).toBe(6 * 3);
    expect(a.ClockFlag).toBeNull();
    expect(b).toMatchObject({ Silent: false, Expected: 2, Heard: 2, HeardElsewhere: [] });
    expect(b.TelegramsPerHour.at(-1)).toBe(12 * 4);
    const both = (await meters(t.db, keys.A.id, at(55))).find((m) => m.MeterId === BOTH)!;
    expect(both).toMatchObject({ Expected: true, HasKey: true });
    expect(both.HeardBy).toEqual([
      expect.objectContaining({ Collector: 'Collector A', Telegrams: 6, RssiMedian: -90, RssiMin: -90 }),
      // 999 is "unknown": no signal figures.
      expect.objectContaining({ Collector: 'Collector B', Telegrams: 12, RssiMedian: null, RssiMin: null }),
    ]);
    const own = (await meters(t.db, keys.A.id, at(55))).find((m) => m.MeterId === A_METERS[1])!;
    expect(own.HeardBy).toEqual([expect.objectContaining({ Collector: 'Collector A', RssiMedian: -80, RssiMin: -80 })]);
    const sharedForB = (await meters(t.db, keys.B.id, at(55))).find((m) => m.MeterId === SHARED)!;
    expect(sharedForB).toMatchObject({ Expected: false, HasKey: false, KeySince: null });

    // The digest (a real SMTP server) names the collector and its building.
    await t.db.query(
      "UPDATE app_user SET email = 'ops@example.lt', digest_opt_in = true, language = 'en', digest_sent_at = $2 WHERE id = $1",
      [operator.id, at(-60)],
    );
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
    });
    const mailer = new Mailer(transport, 'rodmenys@example.lt', 'https://rodmenys.example.lt');
    expect(await sendDigests(t.db, mailer, at(55))).toEqual({ sent: 1, subscribers: 1 });
    const mail = decodeMail(delivered[0]!.raw);
    expect(mail).toContain('Collector silent: collector Collector A (');
    expect(mail).toContain('Tiltų g. 1');
    expect(mail).toContain(`https://rodmenys.example.lt/anomalies?id=${anomaly!.id}`);

    // Two days on, every meter is past its silence limit: B's meters open SILENT, A's none (its collector's).
    await t.db.query(`UPDATE dq_setting SET value = '{"1": 1, "2": 1, "3": 1}' WHERE key = 'silent.days'`);
    const later = at(2 * 24 * 60);
    await validate(t.db, null, later);
    const silentDevices = (await silentAnomalies()).filter((r) => r.rule === 'SILENT').map((r) => r.device_id);
    expect(silentDevices.sort()).toEqual(B_METERS.map((id) => device[id]).sort());
    expect((await silentAnomalies()).filter((r) => r.rule === 'COLLECTOR_SILENT')).toHaveLength(1);

    // Both collectors send again: A's anomaly resolves, B stays quiet-free, A's meters are heard.
    await send('A', [...A_METERS, BOTH, SHARED], at(2 * 24 * 60 + 1), () => -75);
    await send('B', [...B_METERS], at(2 * 24 * 60 + 1), () => -60);
    expect(await checkCollectors(t.db, at(2 * 24 * 60 + 2))).toMatchObject({ silent: 0, opened: 0, resolved: 1 });
    await validate(t.db, null, at(2 * 24 * 60 + 2));
    expect((await silentAnomalies()).filter((r) => r.state !== 'resolved')).toEqual([]);
    expect((await health(t.db, at(2 * 24 * 60 + 2))).find((c) => c.Id === keys.A.id)!.Silent).toBe(false);
  });

  it('flags a collector clock stamping 1970, stores rssi 999 as unknown, takes alarmshell events', async () => {
    const json = { ...sample(B_METERS[0]!).expected_json, timestamp: '1970-01-01T00:00:12Z', rssi_dbm: 999 };
    const res = await inject(t.app, ingestWmbusmeters, {
      token: keys.B.key,
      payload: JSON.stringify(json),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    // The reading is refused (no plausible reception time), the collector's clock is noted.
    expect(res.body.Rejected).toHaveLength(1);
    const { rows } = await t.db.query<{ rssi_dbm: number | null; year: number }>(
      'SELECT rssi_dbm, extract(year FROM stamped_at)::int AS year FROM collector_heard WHERE collector_id = $1 ORDER BY received_at DESC LIMIT 1',
      [keys.B.id],
    );
    expect(rows[0]).toEqual({ rssi_dbm: null, year: 1970 });

    const alarm = await inject(t.app, postCollectorAlarm, {
      token: keys.B.key,
      query: { type: 'DeviceInactivity', message: 'No telegrams were received in the last 1h' },
    });
    expect(alarm.status).toBe(201);
    const missing = await inject(t.app, postCollectorAlarm, { token: keys.B.key, query: '' });
    expect(missing.status).toBe(400);
    expect(missing.error.errors?.[0]?.field).toBe('type');
    expect((await inject(t.app, postCollectorAlarm, { query: { type: 'X' } })).status).toBe(401);

    const list = await inject(t.app, listCollectorHealth, { token: operator.token });
    const b = list.body.find((c) => c.Id === keys.B.id)!;
    expect(b.ClockFlag).toBe('noClock');
    expect(b.ClockSkewSeconds).toBeLessThan(-1.7e9);
    expect(b.Events[0]).toMatchObject({
      Type: 'DeviceInactivity',
      Message: 'No telegrams were received in the last 1h',
    });
    const detail = await inject(t.app, listCollectorMeters, { token: operator.token, params: { id: keys.A.id } });
    expect(detail.status).toBe(200);
    expect(JSON.stringify(detail.body)).not.toMatch(/key=|AAAAAAAA/);

    const user = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [buildingA] });
    expect((await inject(t.app, listCollectorHealth, { token: user.token })).status).toBe(403);
    expect((await inject(t.app, listCollectorMeters, { token: operator.token, params: { id: 999999 } })).status).toBe(
      404,
    );
  });
});
