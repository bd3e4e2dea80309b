import type { ReadingRow } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.js';
import { buildTestApp, call } from '../test/app.js';
import { createTestDb, dbKind } from '../test/db.js';
import { addReadings, address, createDevice, createPath, createUser } from '../test/fixtures.js';

// The flagged devices of a selection, every type at once: exactly the flagged rows GetDevicesData
// gives for each type, with the type, in the same scope.
let db: Db;
let app: FastifyInstance;
const loc: Record<string, number> = {};
const users: Record<string, Awaited<ReturnType<typeof createUser>>> = {};
const MARCH = 'dateFrom=2026-03-01&dateTill=2026-03-31';

beforeAll(async () => {
  db = await createTestDb();
  app = await buildTestApp(db);
  const v12 = address('Vilnius', 'Gedimino pr.', '12');
  loc.V12 = (await createPath(db, v12)).at(-1)!;
  loc.V12f1 = (await createPath(db, [...v12, '1'], 1)).at(-1)!;
  loc.V12f2 = (await createPath(db, [...v12, '2'], 2)).at(-1)!;
  const k3 = address('Kaunas', 'Laisvės al.', '3');
  loc.K3f1 = (await createPath(db, [...k3, '1'], 1)).at(-1)!;
  const march = (from: number, till: number, lastDay = '31'): [string, number][] => [
    ['2026-02-28T12:00:00+02:00', from],
    [`2026-03-${lastDay}T12:00:00+03:00`, till],
  ];
  // Flat 1: an allocator that reads well, a silent cold water meter (no reading at all).
  await addReadings(db, await createDevice(db, { typeId: 1, locationId: loc.V12f1, code: 'HCA-OK' }), march(1, 2));
  await createDevice(db, { typeId: 3, locationId: loc.V12f1, code: 'CWM-SILENT' });
  // Flat 2: a hot water meter gone quiet on the 10th, a heat meter running backwards.
  await addReadings(
    db,
    await createDevice(db, { typeId: 4, locationId: loc.V12f2, code: 'HWM-STALE' }),
    march(5, 6, '10'),
  );
  await addReadings(db, await createDevice(db, { typeId: 2, locationId: loc.V12f2, code: 'HM-NEG' }), march(9, 8));
  // Kaunas: a silent meter nobody in Vilnius may see.
  await createDevice(db, { typeId: 3, locationId: loc.K3f1, code: 'CWM-K3' });
  users.v12 = await createUser(app, { groupId: 3, rights: [loc.V12] });
  users.operator = await createUser(app, { groupId: 1 });
}, 120_000);

afterAll(async () => {
  await app.close();
  await db.close();
});

const codes = (rows: ReadingRow[]) => rows.map((r) => `${r.DeviceTypeId} ${r.DeviceCode} ${r.Flags.join('+')}`);

describe(`GET /api/devices/flagged (${dbKind()})`, () => {
  const url = '/api/devices/flagged';

  it('lists the flagged devices of every type, by type, with the reason', async () => {
    const res = await call(app, 'GET', `${url}?${MARCH}`, { token: users.v12!.token });
    expect(res.status).toBe(200);
    expect(codes(res.body)).toEqual(['2 HM-NEG NEGATIVE', '3 CWM-SILENT NO_READING', '4 HWM-STALE STALE']);
    expect(res.body[1]).toMatchObject({ DeviceTypeId: 3, DataLoadProc: 'volume', Flat: '1' });
  });

  it('is GetDevicesData of each type with only its flagged rows kept', async () => {
    const token = users.v12!.token;
    const flagged: ReadingRow[] = (await call(app, 'GET', `${url}?${MARCH}`, { token })).body;
    for (const typeId of [1, 2, 3, 4]) {
      const all: ReadingRow[] = (
        await call(app, 'GET', `/api/devices/GetDevicesData?${MARCH}&deviceTypeId=${typeId}`, { token })
      ).body;
      const ofType = flagged.filter((r) => r.DeviceTypeId === typeId);
      const expected = all.filter((r) => r.Flags.length > 0);
      expect(ofType).toEqual(expected);
    }
  });

  it('narrows to the selected subtrees and stays in the caller scope', async () => {
    const token = users.v12!.token;
    const flat1 = await call(app, 'GET', `${url}?${MARCH}&locationParentId=${loc.V12f1}`, { token });
    expect(codes(flat1.body)).toEqual(['3 CWM-SILENT NO_READING']);
    const outside = await call(app, 'GET', `${url}?${MARCH}&locationParentId=${loc.K3f1}`, { token });
    expect(outside.body).toEqual([]);
    const operator = await call(app, 'GET', `${url}?${MARCH}`, { token: users.operator!.token });
    expect(codes(operator.body)).toContain('3 CWM-K3 NO_READING');
    const asUser = await call(app, 'GET', `${url}?${MARCH}&userId=${users.operator!.id}`, { token });
    expect(asUser.status).toBe(404);
  });

  it('answers 401 without a token and 400 naming the field on bad input', async () => {
    expect((await call(app, 'GET', `${url}?${MARCH}`)).status).toBe(401);
    const token = users.v12!.token;
    for (const [query, field] of [
      ['dateFrom=2026-03-01', 'dateTill'],
      ['dateFrom=2026-02-30&dateTill=2026-03-01', 'dateFrom'],
      ['dateFrom=2026-03-02&dateTill=2026-03-01', 'dateTill'],
      [`${MARCH}&locationParentId=x`, 'locationParentId'],
    ] as const) {
      const res = await call(app, 'GET', `${url}?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body), query).toContain(field);
    }
  });
});
