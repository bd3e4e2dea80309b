import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DEVICE_TYPE, type Endpoint, GROUP, getAllUsers, getDevicesData } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { type InjectArgs, inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { addReadings, address, createDevice, createPath, createUser } from '../test/fixtures.js';

// JSON answers are compressed when the client accepts it (docs/benchmarks.md, "Compression").
const t = useApp();
let token: string;
const month: InjectArgs<typeof getDevicesData> = {
  query: { dateFrom: '2025-01-01', dateTill: '2025-01-31', deviceTypeId: DEVICE_TYPE.allocator },
};

beforeAll(async () => {
  const db = t.db;
  const building = address('Vilnius', 'Gedimino pr.', '12');
  for (let flat = 1; flat <= 12; flat++) {
    const flatId = (await createPath(db, [...building, String(flat)], flat)).at(-1)!;
    const device = await createDevice(db, {
      typeId: DEVICE_TYPE.allocator,
      locationId: flatId,
      code: `HCA-${flat}`,
      ratingFactor: 1,
    });
    await addReadings(db, device, [
      ['2024-12-31T12:00:00+02:00', 10],
      ['2025-01-31T12:00:00+02:00', 10 + flat],
    ]);
  }
  token = (await createUser(t.app, { groupId: GROUP.operator })).token;
});

const get = <E extends Endpoint>(endpoint: E, args: InjectArgs<E>, acceptEncoding?: string) =>
  inject(t.app, endpoint, {
    ...args,
    token,
    headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
  });

describe(`GET /api/devices/GetDevicesData compression (${dbKind()})`, () => {
  it('answers uncompressed JSON to a client that accepts no encoding', async () => {
    const res = await get(getDevicesData, month);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.length).toBe(12);
  });

  it('answers gzip to a browser, brotli to a client that asks only for it: the same JSON, fewer bytes', async () => {
    const plain = await get(getDevicesData, month, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.raw.length).toBeGreaterThan(1024);

    const gzip = await get(getDevicesData, month, 'gzip, deflate, br, zstd');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(gzip.raw.length).toBeLessThan(plain.raw.length / 3);
    expect(gunzipSync(gzip.raw).toString()).toBe(plain.text);

    const br = await get(getDevicesData, month, 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.raw).toString()).toBe(plain.text);
  });

  it('leaves small answers (under 1 KB) uncompressed', async () => {
    const res = await get(getAllUsers, {}, 'br');
    expect(res.raw.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
