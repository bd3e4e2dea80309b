import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.js';
import { buildTestApp } from '../test/app.js';
import { createTestDb, dbKind } from '../test/db.js';
import { addReadings, address, createDevice, createPath, createUser } from '../test/fixtures.js';

// JSON answers are compressed when the client accepts it (docs/benchmarks.md, "Compression").
let db: Db;
let app: FastifyInstance;
let token: string;
const URL = '/api/devices/GetDevicesData?dateFrom=2025-01-01&dateTill=2025-01-31&deviceTypeId=1';

beforeAll(async () => {
  db = await createTestDb();
  app = await buildTestApp(db);
  const building = address('Vilnius', 'Gedimino pr.', '12');
  for (let flat = 1; flat <= 12; flat++) {
    const flatId = (await createPath(db, [...building, String(flat)], flat)).at(-1)!;
    const device = await createDevice(db, { typeId: 1, locationId: flatId, code: `HCA-${flat}`, ratingFactor: 1 });
    await addReadings(db, device, [
      ['2024-12-31T12:00:00+02:00', 10],
      ['2025-01-31T12:00:00+02:00', 10 + flat],
    ]);
  }
  token = (await createUser(app, { groupId: 1 })).token;
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

const get = (url: string, acceptEncoding?: string) =>
  app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
  });

describe(`GET /api/devices/GetDevicesData compression (${dbKind()})`, () => {
  it('answers uncompressed JSON to a client that accepts no encoding', async () => {
    const res = await get(URL);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect((res.json() as unknown[]).length).toBe(12);
  });

  it('answers gzip to a browser, brotli to a client that asks only for it: the same JSON, fewer bytes', async () => {
    const plain = await get(URL, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const gzip = await get(URL, 'gzip, deflate, br, zstd');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(gzip.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);

    const br = await get(URL, 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
  });

  it('leaves small answers (under 1 KB) uncompressed', async () => {
    const res = await get('/api/users/getAll', 'br');
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
