import { createLnsConnection, DEVICE_TYPE, GROUP, ingestChirpstack } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { w1Payload } from '../demo/seed/lorawan.js';
import { chirpstackUplinkJson, type UplinkSpec } from '../services/lorawan/envelope-writers.js';
import { uplinkBatchStats } from '../services/lorawan/uplink-batch.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn } from '../test/factories.js';

// docs/lorawan.md, "How uplinks are written": the server remembers the devices its lookups gave and
// skips the lookup when every uplink of a batch has one, but the write checks each remembered device
// against the database in its own snapshot. A device changed behind the server's back (here by SQL,
// as another instance or a register import would) must decode and store the uplink as the database
// says now, never as remembered.

const START = Date.UTC(2026, 10, 2, 6);
const DEV_EUI = 'A8B2C3D4E5F00045';

describe(`LoRaWAN devices remembered between batches (${dbKind()})`, () => {
  const t = useApp();
  let key: string;
  let connectionId: number;
  let first: number;
  let second: number;
  let placeId: number;
  let n = 0;

  /** The next uplink of the DevEUI, one day later each (so each gives its own reading). */
  const send = async () => {
    n++;
    const at = new Date(START + n * 86_400_000);
    const spec: UplinkSpec = {
      devEui: DEV_EUI,
      devAddr: '0a000045',
      fCnt: n,
      fPort: 100,
      payload: w1Payload(at, 10_000 + n * 100, Array(23).fill(0), 0),
      time: new Date(at.getTime() + 1_500).toISOString(),
      deduplicationId: `45450000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    };
    const res = await inject(t.app, ingestChirpstack, {
      query: { event: 'up' },
      body: chirpstackUplinkJson(spec) as never,
      headers: { 'x-rodmenys-key': key },
    });
    expect(res.status).toBe(200);
    const row = (
      await t.db.query<{ device_id: number | null; reason: string | null }>(
        'SELECT device_id, reason FROM lorawan_uplink WHERE dev_eui = $1 AND f_cnt = $2',
        [DEV_EUI, n],
      )
    ).rows;
    return { answer: res.body, rows: row };
  };

  beforeAll(async () => {
    const operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
    const place = await makeBuilding(t.db, { city: 'Kaunas', street: 'Savanorių pr.', number: '45' });
    placeId = place.id;
    const flat = await makeFlat(t.db, place);
    first = await makeDevice(t.db, flat, { code: 'W1-R1', typeId: DEVICE_TYPE.coldWaterMeter });
    second = await makeDevice(t.db, flat, { code: 'W1-R2', typeId: DEVICE_TYPE.coldWaterMeter });
    await t.db.query("UPDATE device SET dev_eui = $2, model = 'Qalcosonic W1' WHERE id = $1", [first, DEV_EUI]);
    await t.db.query("UPDATE device SET model = 'Qalcosonic W1' WHERE id = $1", [second]);
    const created = await inject(t.app, createLnsConnection, {
      token: operator,
      body: { kind: 'chirpstack', name: 'LNS remembered', locationIds: [place.id] },
    });
    key = created.body.Key;
    connectionId = created.body.Id;
  });

  it('writes with the device, decoder and buildings the database has at the write, whatever was remembered', async () => {
    // Looked up and remembered; then taken from memory (its write checks it still holds).
    expect(await send()).toEqual({
      answer: { Event: 'up', Outcome: 'stored', Reading: true, Reason: null },
      rows: [{ device_id: first, reason: null }],
    });
    const statements = uplinkBatchStats(t.db).batches;
    expect(await send()).toEqual({
      answer: { Event: 'up', Outcome: 'stored', Reading: true, Reason: null },
      rows: [{ device_id: first, reason: null }],
    });
    expect(uplinkBatchStats(t.db).batches).toBe(statements + 1);

    // Its decoder changed: the LNS's mapping, which its model does not have.
    await t.db.query("UPDATE device SET decoder = 'lnsMapping' WHERE id = $1", [first]);
    expect(await send()).toEqual({
      answer: { Event: 'up', Outcome: 'stored', Reading: false, Reason: 'no-mapping' },
      rows: [{ device_id: first, reason: 'no-mapping' }],
    });
    await t.db.query('UPDATE device SET decoder = NULL WHERE id = $1', [first]);
    expect((await send()).rows).toEqual([{ device_id: first, reason: null }]);

    // The DevEUI moved to the other meter.
    await t.db.query('UPDATE device SET dev_eui = NULL WHERE id = $1', [first]);
    await t.db.query('UPDATE device SET dev_eui = $2 WHERE id = $1', [second, DEV_EUI]);
    expect(await send()).toEqual({
      answer: { Event: 'up', Outcome: 'stored', Reading: true, Reason: null },
      rows: [{ device_id: second, reason: null }],
    });

    // The connection no longer serves the building: an unknown DevEUI for it (the inbox).
    await t.db.query('DELETE FROM lns_connection_location WHERE connection_id = $1 AND location_id = $2', [
      connectionId,
      placeId,
    ]);
    expect(await send()).toEqual({
      answer: { Event: 'up', Outcome: 'unmatched', Reading: false, Reason: 'unknown-dev-eui' },
      rows: [{ device_id: null, reason: 'unknown-dev-eui' }],
    });
    // Each uplink once, each reading once: the stale writes stored nothing.
    const { rows } = await t.db.query<{ uplinks: number; readings: number }>(
      `SELECT (SELECT count(*)::int FROM lorawan_uplink WHERE dev_eui = $1) AS uplinks,
              (SELECT count(*)::int FROM reading WHERE device_id IN ($2, $3)) AS readings`,
      [DEV_EUI, first, second],
    );
    expect(rows[0]).toEqual({ uplinks: 6, readings: 4 });
  });
});
