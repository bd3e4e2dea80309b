import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/db.js';
import { buildTestApp, call } from '../../test/app.js';
import { createTestDb, dbKind } from '../../test/db.js';
import { address, createPath, createUser } from '../../test/fixtures.js';
import { ingestTelegrams } from '../ingest/ingest-telegrams.js';

describe(`POST /api/masterData/devices for a serial waiting in the unmatched inbox (${dbKind()})`, () => {
  let db: Db;
  let app: FastifyInstance;
  let flat: number;
  let token: string;

  beforeAll(async () => {
    db = await createTestDb();
    app = await buildTestApp(db);
    flat = (await createPath(db, address('Šiauliai', 'Tilžės g.', '5', '2'), 2)).at(-1)!;
    token = (await createUser(app, { groupId: 1 })).token;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const telegram = (ts: string, m3: number, i: number) => {
    const json = { _: 'telegram', meter: 'iperl', id: 'INBOX-1', total_m3: m3, timestamp: ts };
    return { position: i, json, raw: JSON.stringify(json) };
  };

  it('installs the device when it was first heard, so its held readings count and agree with LastSeen', async () => {
    await ingestTelegrams(db, [telegram('2026-02-03T08:00:30Z', 10, 1), telegram('2026-02-05T08:00:00Z', 11, 2)]);
    const added = await call(app, 'POST', '/api/masterData/devices', {
      token,
      body: { locationId: flat, deviceTypeId: 3, deviceCode: 'INBOX-1' },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.InstalledAt).toBe('2026-02-03T10:00:30+02:00');
    // The next collector request takes the held telegrams in.
    await ingestTelegrams(db, []);
    const rows = await call(
      app,
      'GET',
      '/api/devices/GetDevicesData?dateFrom=2026-02-01&dateTill=2026-02-06&deviceTypeId=3',
      { token },
    );
    const row = rows.body.find((r: { DeviceCode: string }) => r.DeviceCode === 'INBOX-1');
    expect(row).toMatchObject({ VolumeFrom: 10, VolumeTill: 11, Flags: [], LastSeen: '2026-02-05T10:00:00+02:00' });
    // A time the operator gives wins.
    await ingestTelegrams(db, [
      {
        ...telegram('2026-02-04T08:00:00Z', 1, 1),
        json: { id: 'INBOX-2', meter: 'iperl', total_m3: 1, timestamp: '2026-02-04T08:00:00Z' },
      },
    ]);
    const chosen = await call(app, 'POST', '/api/masterData/devices', {
      token,
      body: { locationId: flat, deviceTypeId: 3, deviceCode: 'INBOX-2', installedAt: '2026-02-10T09:00' },
    });
    expect(chosen.body.InstalledAt).toBe('2026-02-10T09:00:00+02:00');
    // What the add form asks: does this serial wait in the inbox?
    const held = { id: 'INBOX-3', meter: 'iperl', total_m3: 1, timestamp: '2026-02-04T08:00:00Z' };
    await ingestTelegrams(db, [{ position: 1, json: held, raw: JSON.stringify(held) }]);
    const waiting = await call(app, 'GET', '/api/ingest/unmatched?meterId=INBOX-3', { token });
    expect(waiting.body.Data.map((m: { MeterId: string }) => m.MeterId)).toEqual(['INBOX-3']);
    expect((await call(app, 'GET', '/api/ingest/unmatched?meterId=INBOX-9', { token })).body.Total).toBe(0);
  });
});
