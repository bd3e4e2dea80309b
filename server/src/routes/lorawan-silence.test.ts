import {
  countAnomalies,
  createLnsConnection,
  DEVICE_TYPE,
  deleteLnsConnection,
  GROUP,
  getLnsConnectionHealth,
  ingestChirpstack,
  listAnomalies,
  updateLnsConnection,
} from '@rodmenys/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { w1Payload } from '../demo/seed/lorawan.js';
import { checkCollectors } from '../services/collectors/silence.js';
import { sendDigests } from '../services/data-quality/digest.js';
import { validate } from '../services/data-quality/validate.js';
import { chirpstackUplinkJson } from '../services/lorawan/envelope-writers.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn, type Place, type SignedIn } from '../test/factories.js';
import { type Delivered, decodeMail, mailerFor, startSmtp } from '../test/smtp.js';

const MINUTE = 60_000;
const LIMIT = 15;

/**
 * A silent LoRaWAN connection (docs/lorawan.md, "A silent connection"): the collectors job opens
 * one LNS_SILENT per connection after `collector.silentMinutes` without an event (from its
 * creation when it never sent one), the SILENT rule leaves its meters alone meanwhile, the digest
 * names it, managers see it only in their buildings, and it resolves when the connection is heard
 * again, deleted or left without buildings. Uplinks go through the real LNS endpoints.
 */
describe(`a silent LoRaWAN connection (${dbKind()})`, () => {
  const t = useApp();
  let operator: SignedIn;
  // Liepų g. 7 comes first by address: the anomaly of a connection serving both is on it.
  let liepu: Place;
  let tiltu: Place;
  let kauno: Place;
  const conn: Record<'cs' | 'tts' | 'bare', { id: number; key: string }> = {} as never;
  const meter: Record<'liepuW1' | 'tiltuW1' | 'tiltuPlain' | 'kaunoW1', number> = {} as never;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let delivered: Delivered[];
  // A whole hour three days ago: the connections were created then (LNS times never lie ahead of now).
  const T0 = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 86_400_000);
  const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);
  let fCnt = 0;

  /** One W1 uplink of `devEui` through ChirpStack's real endpoint, stamped `when` by the LNS. */
  async function uplink(devEui: string, when: Date) {
    const spec = {
      devEui,
      fCnt: ++fCnt,
      fPort: 100,
      payload: w1Payload(when, 1000 + fCnt, Array(23).fill(0)),
      time: when.toISOString(),
    };
    const res = await inject(t.app, ingestChirpstack, {
      query: { event: 'up' },
      body: chirpstackUplinkJson(spec) as never,
      headers: { 'x-rodmenys-key': conn.cs.key },
    });
    expect([res.status, res.body.Outcome]).toEqual([200, 'stored']);
  }

  const open = async () =>
    (
      await t.db.query<{
        id: number;
        building_id: number;
        lns_connection_id: number;
        evidence: Record<string, unknown>;
      }>(
        `SELECT id, building_id, lns_connection_id, evidence FROM anomaly
          WHERE rule = 'LNS_SILENT' AND state <> 'resolved' ORDER BY lns_connection_id`,
      )
    ).rows;
  const silentDevices = async () =>
    (
      await t.db.query<{ device_id: number }>(
        "SELECT device_id FROM anomaly WHERE rule = 'SILENT' AND state <> 'resolved' ORDER BY device_id",
      )
    ).rows.map((r) => r.device_id);
  const isoOf = async (d: Date) => (await t.db.query<{ t: string }>('SELECT iso($1) AS t', [d])).rows[0]!.t;

  beforeAll(async () => {
    smtp = await startSmtp();
    delivered = smtp.delivered;
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    tiltu = await makeBuilding(t.db, { city: 'Klaipėda', street: 'Tiltų g.', number: '1' });
    liepu = await makeBuilding(t.db, { city: 'Klaipėda', street: 'Liepų g.', number: '7' });
    kauno = await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: '3' });
    const lora = async (b: Place, devEui: string) => {
      const id = await makeDevice(t.db, await makeFlat(t.db, b), {
        typeId: DEVICE_TYPE.coldWaterMeter,
        installedAt: '2026-01-01T00:00:00+02:00',
      });
      await t.db.query("UPDATE device SET dev_eui = $2, model = 'Qalcosonic W1' WHERE id = $1", [id, devEui]);
      return id;
    };
    meter.liepuW1 = await lora(liepu, 'A1B2C3D4E5F60001');
    meter.tiltuW1 = await lora(tiltu, 'A1B2C3D4E5F60002');
    meter.kaunoW1 = await lora(kauno, 'A1B2C3D4E5F60003');
    // A water meter read by other means in a building the LNS serves: its silence is its own.
    meter.tiltuPlain = await makeDevice(t.db, await makeFlat(t.db, tiltu), {
      typeId: DEVICE_TYPE.coldWaterMeter,
      installedAt: '2026-01-01T00:00:00+02:00',
    });
    const create = async (kind: 'chirpstack' | 'tts', name: string, locationIds: number[]) => {
      const res = await inject(t.app, createLnsConnection, {
        token: operator.token,
        body: { kind, name, locationIds },
      });
      expect(res.status).toBe(201);
      return { id: res.body.Id, key: res.body.Key };
    };
    conn.cs = await create('chirpstack', 'Miesto ChirpStack', [tiltu.id, liepu.id]);
    conn.tts = await create('tts', 'Kauno TTS', [kauno.id]);
    conn.bare = await create('chirpstack', 'Be pastatų', []);
    // Created at T0 (counted from creation while they never sent anything).
    await t.db.query('UPDATE lns_connection SET created_at = $1', [T0]);
    await t.db.query(`UPDATE dq_setting SET value = '${LIMIT}' WHERE key = 'collector.silentMinutes'`);
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('opens one anomaly per connection once it is past the limit, not before, counted from creation when never heard', async () => {
    // The ChirpStack connection is heard at minute 10; the other two never.
    await uplink('A1B2C3D4E5F60001', at(10));
    // Minute 15: the never-heard connections are exactly at the limit, not past it.
    expect((await checkCollectors(t.db, at(LIMIT))).connections).toEqual({ silent: 0, opened: 0, resolved: 0 });
    // Minute 16: the TTS connection is silent; the one without buildings opens nothing.
    expect((await checkCollectors(t.db, at(LIMIT + 1))).connections).toEqual({ silent: 1, opened: 1, resolved: 0 });
    // Minute 25: ChirpStack, last heard at 10, is exactly at the limit.
    expect((await checkCollectors(t.db, at(10 + LIMIT))).connections).toEqual({ silent: 1, opened: 0, resolved: 0 });
    expect((await checkCollectors(t.db, at(10 + LIMIT + 1))).connections).toEqual({
      silent: 2,
      opened: 1,
      resolved: 0,
    });
    // Runs after that refresh them: still one each.
    for (const m of [30, 45, 60]) expect((await checkCollectors(t.db, at(m))).connections.opened).toBe(0);

    const rows = await open();
    expect(rows.map((r) => r.lns_connection_id)).toEqual([conn.cs.id, conn.tts.id]);
    const [cs, tts] = rows;
    expect(cs!.building_id).toBe(liepu.id);
    expect(cs!.evidence).toEqual({
      connection: 'Miesto ChirpStack',
      buildings: [expect.stringContaining('Liepų g. 7'), expect.stringContaining('Tiltų g. 1')],
      lastContact: await isoOf(at(10)),
      limitMinutes: LIMIT,
    });
    expect(tts!.building_id).toBe(kauno.id);
    expect(tts!.evidence).toMatchObject({ connection: 'Kauno TTS', lastContact: null, limitMinutes: LIMIT });

    // The health screen says so.
    const health = async (id: number) =>
      (await inject(t.app, getLnsConnectionHealth, { token: operator.token, params: { id } })).body.Silent;
    expect([await health(conn.cs.id), await health(conn.tts.id), await health(conn.bare.id)]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("leaves the connection's LoRaWAN meters out of SILENT while it is open, not the building's other meters", async () => {
    await t.db.query(`UPDATE dq_setting SET value = '{"1": 1, "2": 1, "3": 1, "4": 1}' WHERE key = 'silent.days'`);
    const later = at(2 * 24 * 60);
    expect((await checkCollectors(t.db, later)).connections.silent).toBe(2);
    await validate(t.db, null, later);
    expect(await silentDevices()).toEqual([meter.tiltuPlain]);
  });

  it('is seen by operators and by managers of its building only; the digest names the connection', async () => {
    const [cs, tts] = await open();
    const list = async (who: SignedIn) =>
      (await inject(t.app, listAnomalies, { token: who.token, query: { rule: 'LNS_SILENT' } })).body.map((a) => a.Id);
    expect(await list(operator)).toEqual(expect.arrayContaining([cs!.id, tts!.id]));
    const kaunoManager = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [kauno] });
    expect(await list(kaunoManager)).toEqual([tts!.id]);
    const counts = await inject(t.app, countAnomalies, { token: kaunoManager.token, query: { rule: 'LNS_SILENT' } });
    expect(counts.body.map((c) => [c.BuildingId, c.Open])).toEqual([[kauno.id, 1]]);
    // The anomaly lies on its first building: a manager of another building sees none of it.
    const elsewhere = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [await makeBuilding(t.db)] });
    expect(await list(elsewhere)).toEqual([]);
    // A manager of the first building sees the anomaly naming only the buildings in their scope: the
    // connection's other building may be another manager's.
    const liepuManager = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [liepu] });
    const seen = await inject(t.app, listAnomalies, { token: liepuManager.token, query: { rule: 'LNS_SILENT' } });
    expect(seen.body.map((a) => [a.Id, a.Evidence])).toEqual([
      [cs!.id, { ...cs!.evidence, buildings: [expect.stringContaining('Liepų g. 7')] }],
    ]);
    const everything = await inject(t.app, listAnomalies, { token: operator.token, query: { rule: 'LNS_SILENT' } });
    expect(everything.body.find((a) => a.Id === cs!.id)!.Evidence).toEqual(cs!.evidence);

    await t.db.query(
      "UPDATE app_user SET email = 'ops@example.lt', digest_opt_in = true, language = 'en', digest_sent_at = $2 WHERE id = $1",
      [operator.id, at(0)],
    );
    await t.db.query(
      "UPDATE app_user SET email = 'liepu@example.lt', digest_opt_in = true, language = 'en', digest_sent_at = $2 WHERE id = $1",
      [liepuManager.id, at(0)],
    );
    const mailer = mailerFor(smtp.port);
    expect(await sendDigests(t.db, mailer, at(3 * 24 * 60))).toEqual({ sent: 2, subscribers: 2 });
    const mailTo = (address: string) => decodeMail(delivered.find((d) => d.to.includes(address))!.raw);
    const theirs = mailTo('liepu@example.lt');
    expect(theirs).toContain('LoRaWAN connection silent: connection Miesto ChirpStack (');
    expect(theirs).toContain('Liepų g. 7');
    expect(theirs).not.toContain('Tiltų g. 1');
    const mail = mailTo('ops@example.lt');
    expect(mail).toContain('LoRaWAN connection silent: connection Miesto ChirpStack (');
    expect(mail).toMatch(/Liepų g\. 7.*; .*Tiltų g\. 1/);
    expect(mail).toContain(`https://rodmenys.example.lt/anomalies?id=${cs!.id}`);
    expect(mail).toContain('LoRaWAN connection silent: connection Kauno TTS (');
  });

  it('resolves when heard again, when deleted and when left without buildings', async () => {
    const now = at(2 * 24 * 60 + 10);
    await uplink('A1B2C3D4E5F60002', at(2 * 24 * 60 + 5));
    expect((await checkCollectors(t.db, now)).connections).toEqual({ silent: 1, opened: 0, resolved: 1 });
    expect((await open()).map((r) => r.lns_connection_id)).toEqual([conn.tts.id]);
    // Its meters are judged on their own again: heard, not silent.
    await validate(t.db, null, now);
    // Kaunas's meter is still its connection's (open until the deletion below).
    expect(await silentDevices()).toEqual([meter.liepuW1, meter.tiltuPlain].sort((a, b) => a - b));

    const del = await inject(t.app, deleteLnsConnection, { token: operator.token, params: { id: conn.tts.id } });
    expect(del.status).toBe(200);
    expect((await checkCollectors(t.db, now)).connections).toEqual({ silent: 0, opened: 0, resolved: 1 });

    // ChirpStack falls silent again, then loses its buildings.
    const quiet = at(2 * 24 * 60 + 5 + LIMIT + 1);
    expect((await checkCollectors(t.db, quiet)).connections).toEqual({ silent: 1, opened: 1, resolved: 0 });
    const put = await inject(t.app, updateLnsConnection, {
      token: operator.token,
      params: { id: conn.cs.id },
      body: { locationIds: [] },
    });
    expect(put.status).toBe(200);
    expect((await checkCollectors(t.db, quiet)).connections).toEqual({ silent: 0, opened: 0, resolved: 1 });
    expect(await open()).toEqual([]);
    const { rows } = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM anomaly WHERE rule = 'LNS_SILENT' AND state = 'resolved'",
    );
    expect(rows[0]!.n).toBe(3);
  });
});
