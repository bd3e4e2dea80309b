import type { ReadingRow } from '@rodmenys/contract';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn, type SignedIn } from '../test/factories.js';

// The flagged devices of a selection, every type at once: exactly the flagged rows GetDevicesData
// gives for each type, with the type, in the same scope.
const t = useApp();
const loc: Record<string, number> = {};
const users: Record<string, SignedIn> = {};
const MARCH = 'dateFrom=2026-03-01&dateTill=2026-03-31';

beforeAll(async () => {
  const v12 = await makeBuilding(t.db, { city: 'Vilnius', street: 'Gedimino pr.', number: '12' });
  loc.V12 = v12.id;
  loc.V12f1 = (await makeFlat(t.db, v12, { name: '1', order: 1 })).id;
  loc.V12f2 = (await makeFlat(t.db, v12, { name: '2', order: 2 })).id;
  const k3 = await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: '3' });
  loc.K3f1 = (await makeFlat(t.db, k3, { name: '1', order: 1 })).id;
  const march = (from: number, till: number, lastDay = '31'): [string, number][] => [
    ['2026-02-28T12:00:00+02:00', from],
    [`2026-03-${lastDay}T12:00:00+03:00`, till],
  ];
  // Flat 1: an allocator that reads well, a silent cold water meter (no reading at all).
  await makeReadings(
    t.db,
    await makeDevice(t.db, loc.V12f1, { typeId: DEVICE_TYPE.allocator, code: 'HCA-OK' }),
    march(1, 2),
  );
  await makeDevice(t.db, loc.V12f1, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'CWM-SILENT' });
  // Flat 2: a hot water meter gone quiet on the 10th, a heat meter running backwards.
  await makeReadings(
    t.db,
    await makeDevice(t.db, loc.V12f2, { typeId: DEVICE_TYPE.hotWaterMeter, code: 'HWM-STALE' }),
    march(5, 6, '10'),
  );
  await makeReadings(
    t.db,
    await makeDevice(t.db, loc.V12f2, { typeId: DEVICE_TYPE.heatMeter, code: 'HM-NEG' }),
    march(9, 8),
  );
  // Kaunas: a silent meter nobody in Vilnius may see.
  await makeDevice(t.db, loc.K3f1, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'CWM-K3' });
  users.v12 = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [loc.V12] });
  users.operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
}, 120_000);

const codes = (rows: ReadingRow[]) => rows.map((r) => `${r.DeviceTypeId} ${r.DeviceCode} ${r.Flags.join('+')}`);

describe(`GET /api/devices/flagged (${dbKind()})`, () => {
  const askFlagged = (query: string, token?: string) => inject(t.app, contract.getFlaggedDevices, { query, token });

  it('lists the flagged devices of every type, by type, with the reason', async () => {
    const res = await askFlagged(MARCH, users.v12!.token);
    expect(res.status).toBe(200);
    expect(codes(res.body)).toEqual(['2 HM-NEG NEGATIVE', '3 CWM-SILENT NO_READING', '4 HWM-STALE STALE']);
    expect(res.body[1]).toMatchObject({ DeviceTypeId: DEVICE_TYPE.coldWaterMeter, DataLoadProc: 'volume', Flat: '1' });
  });

  it('is GetDevicesData of each type with only its flagged rows kept', async () => {
    const token = users.v12!.token;
    const flagged: ReadingRow[] = (await askFlagged(MARCH, token)).body;
    for (const typeId of [1, 2, 3, 4]) {
      const all: ReadingRow[] = (
        await inject(t.app, contract.getDevicesData, { query: `${MARCH}&deviceTypeId=${typeId}`, token })
      ).body;
      const ofType = flagged.filter((r) => r.DeviceTypeId === typeId);
      const expected = all.filter((r) => r.Flags.length > 0);
      expect(ofType).toEqual(expected);
    }
  });

  it('narrows to the selected subtrees and stays in the caller scope', async () => {
    const token = users.v12!.token;
    const flat1 = await askFlagged(`${MARCH}&locationParentId=${loc.V12f1}`, token);
    expect(codes(flat1.body)).toEqual(['3 CWM-SILENT NO_READING']);
    const outside = await askFlagged(`${MARCH}&locationParentId=${loc.K3f1}`, token);
    expect(outside.body).toEqual([]);
    const operator = await askFlagged(MARCH, users.operator!.token);
    expect(codes(operator.body)).toContain('3 CWM-K3 NO_READING');
    const asUser = await askFlagged(`${MARCH}&userId=${users.operator!.id}`, token);
    expect(asUser.status).toBe(404);
  });

  it('answers 401 without a token and 400 naming the field on bad input', async () => {
    expect((await askFlagged(MARCH)).status).toBe(401);
    const token = users.v12!.token;
    for (const [query, field] of [
      ['dateFrom=2026-03-01', 'dateTill'],
      ['dateFrom=2026-02-30&dateTill=2026-03-01', 'dateFrom'],
      ['dateFrom=2026-03-02&dateTill=2026-03-01', 'dateTill'],
      [`${MARCH}&locationParentId=x`, 'locationParentId'],
    ] as const) {
      const res = await askFlagged(query, token);
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body), query).toContain(field);
    }
  });
});
