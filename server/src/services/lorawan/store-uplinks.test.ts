import { DEVICE_TYPE } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../db/db.js';
import { w1Payload } from '../../demo/seed/lorawan.js';
import { dbKind, useDb } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat } from '../../test/factories.js';
import { readChirpstack } from './chirpstack.js';
import { DECODERS } from './decoding.js';
import { chirpstackUplinkJson } from './envelope-writers.js';
import type { UplinkEvent } from './envelopes.js';
import { PartlyStored, storeUplinks, type UplinkItem } from './store-uplinks.js';

// docs/lorawan.md, "How uplinks are written": a batch's uplinks decoded with a remembered device that
// changed are written by a second round. When that round fails, the first round's uplinks are
// committed: they keep their answers (PartlyStored), and only the others meet the error.

const START = Date.UTC(2026, 10, 2, 6);

describe(`a LoRaWAN batch stored in part (${dbKind()})`, () => {
  const t = useDb();
  let connectionId: number;
  const ids: number[] = [];
  const euis = ['A8B2C3D4E5F10001', 'A8B2C3D4E5F10002'];

  const uplink = (devEui: string, n: number): UplinkItem => {
    const at = new Date(START + n * 86_400_000);
    const event = readChirpstack(
      'up',
      JSON.stringify(
        chirpstackUplinkJson({
          devEui,
          devAddr: '0a000046',
          fCnt: n,
          fPort: 100,
          payload: w1Payload(at, 20_000 + n * 100, Array(23).fill(0), 0),
          time: new Date(at.getTime() + 1_500).toISOString(),
        }),
      ),
    ) as UplinkEvent;
    return { connectionId, event, decoders: DECODERS };
  };

  beforeAll(async () => {
    const place = await makeBuilding(t.db, { city: 'Kaunas', street: 'Pramonės pr.', number: '46' });
    const flat = await makeFlat(t.db, place);
    for (const [k, devEui] of euis.entries()) {
      const id = await makeDevice(t.db, flat, { code: `W1-P${k}`, typeId: DEVICE_TYPE.coldWaterMeter });
      await t.db.query("UPDATE device SET dev_eui = $2, model = 'Qalcosonic W1' WHERE id = $1", [id, devEui]);
      ids.push(id);
    }
    connectionId = (
      await t.db.query<{ id: number }>(
        "INSERT INTO lns_connection (kind, name, key_hash, prefix) VALUES ('chirpstack', 'LNS P', '\\x46', 'p') RETURNING id",
      )
    ).rows[0]!.id;
    await t.db.query('INSERT INTO lns_connection_location (connection_id, location_id) VALUES ($1, $2)', [
      connectionId,
      place.id,
    ]);
  });

  it('answers the committed uplinks and hands the later round’s error on for the rest', async () => {
    // Both devices looked up and remembered.
    expect((await storeUplinks(t.db, [uplink(euis[0]!, 1), uplink(euis[1]!, 1)])).map((r) => r.Outcome)).toEqual([
      'stored',
      'stored',
    ]);
    // The real database, but the second device changes just before the first write, and the second
    // write meets an error of the database (a division by zero, as a refused value would be).
    let writes = 0;
    const db: Queryable = {
      query: async (sql, params) => {
        if (sql.includes('lorawan_store_uplinks')) {
          writes++;
          if (writes === 1) await t.db.query("UPDATE device SET decoder = 'lnsMapping' WHERE id = $1", [ids[1]]);
          if (writes === 2) await t.db.query('SELECT 1 / 0');
        }
        return t.db.query(sql, params);
      },
    };
    const err = await storeUplinks(db, [uplink(euis[0]!, 2), uplink(euis[1]!, 2)]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartlyStored);
    const partly = err as PartlyStored;
    expect(partly.results).toEqual([{ Event: 'up', Outcome: 'stored', Reading: true, Reason: null }, undefined]);
    expect(String(partly.cause)).toMatch(/division by zero/);
    // The first is stored once; the second not at all (its LNS sends it again).
    const { rows } = await t.db.query<{ dev_eui: string }>(
      'SELECT dev_eui FROM lorawan_uplink WHERE f_cnt = 2 ORDER BY dev_eui',
    );
    expect(rows).toEqual([{ dev_eui: euis[0] }]);
    // Written again alone, the second is decoded as the database now says.
    expect(await storeUplinks(t.db, [uplink(euis[1]!, 2)])).toEqual([
      { Event: 'up', Outcome: 'stored', Reading: false, Reason: 'no-mapping' },
    ]);
  });
});
