import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP, type MasterDevice } from '@rodmenys/contract';
import { afterAll, beforeAll, expect } from 'vitest';
import { inject, type TestApp, useApp } from './app.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn, type SignedIn } from './factories.js';

/*
 * The world of the device-lifetime tests (docs/device-lifetime.md), one per test file: building A
 * with one device of each rule, building B with devices due relative to today, an operator, a
 * group 2 admin of B and a group 3 user of B; and the helpers the tests share.
 */

/** A day `years` years and `months` months from `day` (YYYY-MM-DD), the day of month kept (clamped to the month's end). */
export function shift(day: string, years: number, months = 0): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y + years, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10);
}

/** A day of the month of `day` `months` months on. */
export const dayOfMonth = (day: string, months: number, dom: number) =>
  shift(`${day.slice(0, 8)}${String(dom).padStart(2, '0')}`, 0, months);

export interface LifetimeWorld {
  t: TestApp;
  operator: SignedIn;
  adminB: SignedIn;
  user: SignedIn;
  today: string;
  buildingA: number;
  buildingB: number;
  flatA1: number;
  /** Device ids by the tests' names. */
  id: Record<string, number>;
  /** The text of a PDF as poppler's pdftotext extracts it (-layout). */
  pdfText: (bytes: Uint8Array, name: string) => string;
  setSetting: (key: string, value: unknown) => Promise<void>;
  devicesAt: (locationId: number) => Promise<Map<number, MasterDevice>>;
  device: (name: string) => Promise<MasterDevice>;
  setVerified: (name: string, day: string | null) => Promise<unknown>;
  /**
   * Building A as the rules' tests (lifetime-rules.test.ts) leave it, for the files that count it:
   * CW-A1 heard 10 days ago and then replaced by CW-A1-NEW today; HCA-A1 marked walk-by, heard 40
   * days ago; HM-A1 marked remote, verified 2021-05-01; HW-A1 added (walk-by, verified 2023-09-01).
   */
  asTheRulesLeaveIt: () => Promise<void>;
}

/** The world, made before the file's tests (its members are set once its beforeAll has run). */
export function useLifetimeWorld(): LifetimeWorld {
  const t = useApp({ smtpUrl: 'smtp://127.0.0.1:1' });
  const dir = mkdtempSync(path.join(tmpdir(), 'lifetime-pdf-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const id: Record<string, number> = {};
  const w = { t, id } as LifetimeWorld;
  w.pdfText = (bytes, name) => {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  };
  w.setSetting = async (key, value) => {
    const res = await inject(t.app, contract.updateDqSetting, {
      params: { key },
      body: { value },
      token: w.operator.token,
    });
    expect(res.status, res.text).toBe(200);
  };
  w.devicesAt = async (locationId) => {
    const res = await inject(t.app, contract.getLocation, { params: { id: locationId }, token: w.operator.token });
    expect(res.status, res.text).toBe(200);
    return new Map(res.body.Devices.map((d) => [d.DeviceId, d]));
  };
  w.device = async (name) => {
    const { rows } = await t.db.query<{ location_id: number }>('SELECT location_id FROM device WHERE id = $1', [
      id[name],
    ]);
    return (await w.devicesAt(rows[0]!.location_id)).get(id[name]!)!;
  };
  w.setVerified = (name, day) => t.db.query('UPDATE device SET verified_on = $2 WHERE id = $1', [id[name], day]);
  const setVerified = w.setVerified;
  w.asTheRulesLeaveIt = async () => {
    for (const [name, days] of [
      ['coldA1', 10],
      ['allocA1', 40],
    ] as const)
      await t.db.query(
        `INSERT INTO device_status (device_id, last_seen, telegram_ts) VALUES ($1, now() - make_interval(days => $2), now() - make_interval(days => $2))
         ON CONFLICT (device_id) DO UPDATE SET telegram_ts = excluded.telegram_ts`,
        [id[name], days],
      );
    await t.db.query(`UPDATE device SET read_method = 'walkby' WHERE id = $1`, [id.allocA1]);
    const marked = await inject(t.app, contract.updateDevice, {
      params: { id: id.heatA1! },
      body: { readMethod: 'remote', verifiedOn: '2021-05-01' },
      token: w.operator.token,
    });
    expect(marked.status, marked.text).toBe(200);
    const replaced = await inject(t.app, contract.replaceDevice, {
      params: { id: id.coldA1! },
      body: { replacedAt: `${w.today}T00:00:00`, finalReading: 10, newDeviceCode: 'CW-A1-NEW', initialReading: 0 },
      token: w.operator.token,
    });
    expect(replaced.status, replaced.text).toBe(201);
    const added = await inject(t.app, contract.addDevice, {
      body: {
        locationId: w.flatA1,
        deviceTypeId: DEVICE_TYPE.hotWaterMeter,
        deviceCode: 'HW-A1',
        installedAt: '2024-01-10T12:00:00',
        verifiedOn: '2023-09-01',
        readMethod: 'walkby',
      },
      token: w.operator.token,
    });
    expect(added.status, added.text).toBe(201);
  };
  beforeAll(async () => {
    const { rows } = await t.db.query<{ today: string }>(`SELECT to_char(current_date, 'YYYY-MM-DD') AS today`);
    w.today = rows[0]!.today;
    const today = w.today;
    const a = await makeBuilding(t.db, { city: 'Kaunas', street: 'Ąžuolų g.', number: '1' });
    const b = await makeBuilding(t.db, { city: 'Kaunas', street: 'Ąžuolų g.', number: '2' });
    w.buildingA = a.id;
    w.buildingB = b.id;
    const a1 = await makeFlat(t.db, a, { name: '1', order: 1 });
    w.flatA1 = a1.id;
    // Building A: one device of each rule.
    id.coldA1 = await makeDevice(t.db, a1, {
      typeId: DEVICE_TYPE.coldWaterMeter,
      code: 'CW-A1',
      installedAt: '2020-04-01T12:00:00+03:00',
    });
    await setVerified('coldA1', '2020-03-15');
    id.heatA1 = await makeDevice(t.db, a1, {
      typeId: DEVICE_TYPE.heatMeter,
      code: 'HM-A1',
      installedAt: '2021-05-10T12:00:00+03:00',
    });
    id.allocA1 = await makeDevice(t.db, a1, { code: 'HCA-A1', installedAt: '2016-06-01T12:00:00+03:00' });
    await t.db.query(`UPDATE device SET model = 'Q caloric 5.5' WHERE id = $1`, [id.allocA1]);
    // A building-inlet water meter: a water meter on the building itself.
    id.inletA = await makeDevice(t.db, a, {
      typeId: DEVICE_TYPE.coldWaterMeter,
      code: 'CW-INLET-A',
      installedAt: '2025-02-01T12:00:00+02:00',
    });
    await setVerified('inletA', '2025-02-01');
    id.bhmA = await makeDevice(t.db, a, {
      typeId: DEVICE_TYPE.buildingHeatMeter,
      code: 'BHM-A',
      installedAt: '2022-07-01T12:00:00+03:00',
    });
    // Building B: devices due relative to today, flats in their order (10 before 2).
    const b10 = await makeFlat(t.db, b, { name: '10', order: 1 });
    const b2 = await makeFlat(t.db, b, { name: '2', order: 2 });
    const cold = (flat: typeof b2, code: string, due: string) =>
      makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code, installedAt: `${shift(due, -6)}T12:00:00Z` });
    id.overdueB = await cold(b2, 'B-OVERDUE', dayOfMonth(today, -1, 1));
    // This month, on or after today: the 28th, or today itself late in a month.
    const thisMonth = Number(today.slice(8)) <= 28 ? dayOfMonth(today, 0, 28) : today;
    id.thisMonthB = await cold(b10, 'B-THISMONTH', thisMonth);
    id.soonB = await cold(b2, 'B-SOON', dayOfMonth(today, 2, 15));
    id.laterB = await cold(b10, 'B-LATER', dayOfMonth(today, 5, 15));
    for (const name of ['overdueB', 'thisMonthB', 'soonB', 'laterB']) await setVerified(name, null);
    w.operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    w.adminB = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [b] });
    w.user = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [b] });
  }, 120_000);
  return w;
}
