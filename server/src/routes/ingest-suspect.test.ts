import { DEVICE_TYPE, GROUP, listAnomalies } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestTelegrams } from '../services/ingest/ingest-telegrams.js';
import type { TelegramItem } from '../services/ingest/map-telegram.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn } from '../test/factories.js';

// An Apator water meter's real value, and what a wrong key decoded for it (docs/collectors.md, "A wrong key").
const REAL = 21.93;
const GARBAGE = 8_066_816;
const HOUR = 3_600_000;

describe(`a value beyond the device's plausible range is held back (${dbKind()})`, () => {
  const t = useApp();
  let operator: string;
  const T0 = new Date(Math.floor(Date.now() / HOUR) * HOUR - 3 * 24 * HOUR);
  const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);
  const devices: Record<'plain' | 'keyed', { id: number; code: string }> = {} as never;

  const send = (code: string, hours: number, value: number) => {
    const json = {
      _: 'telegram',
      media: 'water',
      meter: 'apator162',
      id: code,
      total_m3: value,
      timestamp: at(hours).toISOString(),
    };
    const item: TelegramItem = { position: 1, json, raw: JSON.stringify(json) };
    return ingestTelegrams(t.db, [item], at(hours));
  };
  const readings = async (id: number) =>
    (
      await t.db.query<{ v: string }>('SELECT value::text AS v FROM reading WHERE device_id = $1 ORDER BY ts', [id])
    ).rows.map((r) => Number(r.v));

  beforeAll(async () => {
    operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
    const flat = await makeFlat(
      t.db,
      await makeBuilding(t.db, { city: 'Panevėžys', street: 'Ramygalos g.', number: '4' }),
    );
    for (const [kind, code] of [
      ['plain', '00148686'],
      ['keyed', '00148687'],
    ] as const) {
      devices[kind] = { id: await makeDevice(t.db, flat, { code, typeId: DEVICE_TYPE.coldWaterMeter }), code };
    }
    // A stored key (its bytes do not matter here: the ingest only asks whether there is one).
    await t.db.query(
      "INSERT INTO meter_key (device_id, manufacturer, nonce, sealed, tag) VALUES ($1, 'APA', '\\x00', '\\x00', '\\x00')",
      [devices.keyed.id],
    );
  });

  it('keeps the telegram flagged, stores no reading, opens SUSPECT_VALUE or WRONG_KEY; a plausible value goes in', async () => {
    for (const kind of ['plain', 'keyed'] as const) {
      const { id, code } = devices[kind];
      expect((await send(code, 0, REAL)).Readings).toBe(1);
      const held = await send(code, 1, GARBAGE);
      expect(held).toMatchObject({ Stored: 1, Readings: 0, Rejected: [] });
      expect(await readings(id)).toEqual([REAL]);
      const { rows } = await t.db.query<{ flags: string[]; total: number }>(
        "SELECT flags, (raw ->> 'total_m3')::float8 AS total FROM telegram WHERE device_id = $1 ORDER BY ts",
        [id],
      );
      expect(rows.at(-1)).toEqual({ flags: ['SUSPECT_VALUE'], total: GARBAGE });
      // The next plausible value is measured against the last reading, not the held-back one.
      expect((await send(code, 2, REAL + 0.07)).Readings).toBe(1);
      expect(await readings(id)).toEqual([REAL, REAL + 0.07]);
    }
    const { rows } = await t.db.query<{ rule: string; device_id: number; evidence: Record<string, unknown> }>(
      "SELECT rule, device_id, evidence FROM anomaly WHERE rule IN ('SUSPECT_VALUE', 'WRONG_KEY') ORDER BY device_id",
    );
    expect(rows.map((r) => [r.rule, r.device_id])).toEqual([
      ['SUSPECT_VALUE', devices.plain.id],
      ['WRONG_KEY', devices.keyed.id],
    ]);
    expect(rows[0]!.evidence).toMatchObject({
      reading: { value: GARBAGE },
      previous: { value: REAL },
      maxPerDay: 20,
      count: 1,
    });
    // A second held-back value counts on the same anomaly.
    await send(devices.keyed.code, 3, GARBAGE * 2);
    const again = await t.db.query<{ evidence: { count: number } }>(
      "SELECT evidence FROM anomaly WHERE rule = 'WRONG_KEY' AND state <> 'resolved'",
    );
    expect(again.rows.map((r) => r.evidence.count)).toEqual([2]);
    // The Anomalies page lists them by name.
    const listed = await inject(t.app, listAnomalies, { token: operator, query: { rule: 'WRONG_KEY' } });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain(devices.keyed.code);
  });

  it('holds back the value of a device whose place has no building, without an anomaly (it has no building to be on)', async () => {
    const building = await makeBuilding(t.db, { city: 'Panevėžys', street: 'Smėlynės g.', number: '9' });
    // The building's street: a place above the building level, as a device is registered before its building.
    const { rows: street } = await t.db.query<{ id: number }>(
      'SELECT path[array_length(path, 1) - 1] AS id FROM location WHERE id = $1',
      [building.id],
    );
    const code = '00148688';
    const id = await makeDevice(t.db, street[0]!.id, { code, typeId: DEVICE_TYPE.coldWaterMeter });
    expect((await send(code, 0, REAL)).Readings).toBe(1);
    expect(await send(code, 1, GARBAGE)).toMatchObject({ Stored: 1, Readings: 0, Rejected: [] });
    expect(await readings(id)).toEqual([REAL]);
    const { rows } = await t.db.query('SELECT id FROM anomaly WHERE device_id = $1', [id]);
    expect(rows).toEqual([]);
  });
});
