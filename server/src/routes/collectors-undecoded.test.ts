import {
  createCollectorKey,
  DEVICE_TYPE,
  GROUP,
  listCollectorHealth,
  listJobs,
  setCollectorLocations,
} from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { JOBS } from '../jobs.js';
import { noteCollectorRequest } from '../services/collectors/heard.js';
import { checkCollectors } from '../services/collectors/silence.js';
import { ingestTelegrams } from '../services/ingest/ingest-telegrams.js';
import type { TelegramItem } from '../services/ingest/map-telegram.js';
import { Scheduler } from '../services/jobs/index.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn } from '../test/factories.js';

// An Apator water meter (a real telegram of the shared samples) under a driver that decodes it and one
// that does not: wmbusmeters then prints the telegram without a value (docs/collectors.md).
const APATOR = '00148686';
const DECODED = { _: 'telegram', media: 'water', meter: 'apator162', id: APATOR, total_m3: 21.93 };
const UNDECODED = { _: 'telegram', media: 'water', meter: 'apator162', id: APATOR };
// A meter heard for two hours only, and one decoded all along.
const BRIEF = '11223344';
const FINE = '55667788';
const HOUR = 3_600_000;

describe(`a meter heard but not decoded (${dbKind()})`, () => {
  const t = useApp();
  let operator: string;
  let collector: { id: number; key: string };
  let apator: number;
  const T0 = new Date(Math.floor(Date.now() / HOUR) * HOUR - 4 * 24 * HOUR);
  const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);

  async function hear(ids: readonly string[], hours: number, decoded: boolean) {
    const when = at(hours);
    const items: TelegramItem[] = ids.map((id, i) => {
      const base = id === APATOR ? (decoded ? DECODED : UNDECODED) : { ...DECODED, id, total_m3: 1 + hours / 100 };
      const json = { ...base, timestamp: when.toISOString(), rssi_dbm: -70 };
      return { position: i + 1, json, raw: JSON.stringify(json) };
    });
    await ingestTelegrams(t.db, items, when);
    await noteCollectorRequest(t.db, collector.id, items, when);
  }
  const undecodedAnomalies = async () =>
    (
      await t.db.query<{ device_id: number; collector_id: number; state: string; evidence: Record<string, unknown> }>(
        "SELECT device_id, collector_id, state, evidence FROM anomaly WHERE rule IN ('METER_UNDECODED', 'WRONG_KEY') ORDER BY id",
      )
    ).rows;

  beforeAll(async () => {
    operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
    const building = await makeBuilding(t.db, { city: 'Šiauliai', street: 'Vilniaus g.', number: '12' });
    const flat = await makeFlat(t.db, building);
    apator = await makeDevice(t.db, flat, { code: APATOR, typeId: DEVICE_TYPE.coldWaterMeter });
    await t.db.query("UPDATE device SET model = 'Apator AT-WMBUS-16-2' WHERE id = $1", [apator]);
    for (const code of [BRIEF, FINE]) await makeDevice(t.db, flat, { code, typeId: DEVICE_TYPE.coldWaterMeter });
    const created = await inject(t.app, createCollectorKey, { token: operator, body: { name: 'Vilniaus 12' } });
    collector = { id: created.body.Id, key: created.body.Key };
    await inject(t.app, setCollectorLocations, {
      token: operator,
      params: { id: collector.id },
      body: { locationIds: [building.id] },
    });
    await t.db.query("UPDATE dq_setting SET value = '6' WHERE key = 'collector.undecodedHours'");
  });

  it('opens one anomaly naming the collector and the driver after the setting, shows it in the health table, resolves on a value', async () => {
    // Every hour for 8 hours the Apator is heard without a value; FINE is decoded; BRIEF only from hour 6.
    for (let h = 0; h <= 8; h++) await hear(h >= 6 ? [APATOR, FINE, BRIEF] : [APATOR, FINE], h, false);
    const { rows } = await t.db.query('SELECT 1 FROM reading WHERE device_id = $1', [apator]);
    expect(rows).toEqual([]);
    // Heard for 5 hours without a value: not yet; after 6, one anomaly.
    expect((await checkCollectors(t.db, at(5))).undecoded).toEqual({ undecoded: 0, opened: 0, resolved: 0 });
    expect((await checkCollectors(t.db, at(6))).undecoded).toEqual({ undecoded: 1, opened: 1, resolved: 0 });
    expect((await checkCollectors(t.db, at(8))).undecoded).toEqual({ undecoded: 1, opened: 0, resolved: 0 });
    const [anomaly] = await undecodedAnomalies();
    expect(anomaly).toMatchObject({ device_id: apator, collector_id: collector.id, state: 'open' });
    expect(anomaly!.evidence).toMatchObject({
      heardBy: ['Vilniaus 12'],
      driver: 'apator162',
      limitHours: 6,
      // Hours 3 to 8: those within the last 6 hours.
      telegrams: 6,
    });

    const health = await inject(t.app, listCollectorHealth, { token: operator });
    const row = health.body.find((c) => c.Id === collector.id)!;
    expect(row.Undecoded).toEqual([
      { MeterId: APATOR, Driver: 'apator162', AnomalyId: expect.any(Number), WrongKey: false },
    ]);
    expect(row.LeftOut).toEqual([]);

    // The right driver (or key): a value arrives, the next run resolves the anomaly.
    await hear([APATOR, FINE, BRIEF], 9, true);
    expect((await checkCollectors(t.db, at(9))).undecoded).toEqual({ undecoded: 0, opened: 0, resolved: 1 });
    expect((await undecodedAnomalies()).map((a) => a.state)).toEqual(['resolved']);
    const after = await inject(t.app, listCollectorHealth, { token: operator });
    expect(after.body.find((c) => c.Id === collector.id)!.Undecoded).toEqual([]);
  });

  it('a meter with a stored key that stops decoding: possibly a wrong key, counted by the collectors job', async () => {
    await t.db.query(
      "INSERT INTO meter_key (device_id, manufacturer, nonce, sealed, tag) VALUES ($1, 'APA', '\\x00', '\\x00', '\\x00')",
      [apator],
    );
    await t.db.query("UPDATE job SET next_run_at = $1::timestamptz - interval '1 minute', lease_until = NULL", [
      at(16),
    ]);
    // Undecoded again from hour 10 to 16: the job's run at hour 16 opens a new anomaly.
    for (let h = 10; h <= 16; h++) await hear([APATOR, FINE], h, false);
    const collectorsJob = JOBS.filter((j) => j.name === 'collectors');
    expect(await new Scheduler(t.db, collectorsJob).tick(() => at(16))).toEqual(['collectors']);
    const jobs = await inject(t.app, listJobs, { token: operator });
    expect(jobs.body.find((j) => j.Name === 'collectors')!.LastResult).toMatchObject({ undecoded: 1, opened: 1 });
    const open = (await undecodedAnomalies()).filter((a) => a.state === 'open');
    expect(open.map((a) => [a.device_id, a.evidence.driver])).toEqual([[apator, 'apator162']]);
    const { rows } = await t.db.query(
      "SELECT 1 FROM anomaly WHERE rule = 'WRONG_KEY' AND state = 'open' AND device_id = $1",
      [apator],
    );
    expect(rows).toHaveLength(1);
    const health = await inject(t.app, listCollectorHealth, { token: operator });
    expect(health.body.find((c) => c.Id === collector.id)!.Undecoded).toEqual([
      { MeterId: APATOR, Driver: 'apator162', AnomalyId: expect.any(Number), WrongKey: true },
    ]);
  });
});
