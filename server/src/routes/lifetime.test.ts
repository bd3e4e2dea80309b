import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP, type MasterDevice } from '@rodmenys/contract';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDigests } from '../services/data-quality/digest.js';
import { validate } from '../services/data-quality/validate.js';
import { Mailer } from '../services/mail/index.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn, type SignedIn } from '../test/factories.js';
import { decodeMail, startSmtp } from '../test/smtp.js';

const t = useApp({ smtpUrl: 'smtp://127.0.0.1:1' });
const dir = mkdtempSync(path.join(tmpdir(), 'lifetime-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The text of a PDF as poppler's pdftotext extracts it. */
function pdfText(bytes: Uint8Array, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** A day `years` years and `months` months from `day` (YYYY-MM-DD), the day of month kept (clamped to the month's end). */
function shift(day: string, years: number, months = 0): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y + years, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10);
}

/** A day of the month of `day` `months` months on. */
const dayOfMonth = (day: string, months: number, dom: number) =>
  shift(`${day.slice(0, 8)}${String(dom).padStart(2, '0')}`, 0, months);

describe(`devices over their lifetime (${dbKind()})`, { timeout: 120_000 }, () => {
  let operator: SignedIn;
  let adminB: SignedIn;
  let user: SignedIn;
  let today: string;
  let buildingA: number;
  let buildingB: number;
  let flatA1: number;
  const id: Record<string, number> = {};

  const setSetting = async (key: string, value: unknown) => {
    const res = await inject(t.app, contract.updateDqSetting, {
      params: { key },
      body: { value },
      token: operator.token,
    });
    expect(res.status, res.text).toBe(200);
  };
  const devicesAt = async (locationId: number): Promise<Map<number, MasterDevice>> => {
    const res = await inject(t.app, contract.getLocation, { params: { id: locationId }, token: operator.token });
    expect(res.status, res.text).toBe(200);
    return new Map(res.body.Devices.map((d) => [d.DeviceId, d]));
  };
  const device = async (name: string) => {
    const { rows } = await t.db.query<{ location_id: number }>('SELECT location_id FROM device WHERE id = $1', [
      id[name],
    ]);
    return (await devicesAt(rows[0]!.location_id)).get(id[name]!)!;
  };
  const setVerified = (name: string, day: string | null) =>
    t.db.query('UPDATE device SET verified_on = $2 WHERE id = $1', [id[name], day]);

  beforeAll(async () => {
    const { rows } = await t.db.query<{ today: string }>(`SELECT to_char(current_date, 'YYYY-MM-DD') AS today`);
    today = rows[0]!.today;
    const a = await makeBuilding(t.db, { city: 'Kaunas', street: 'Ąžuolų g.', number: '1' });
    const b = await makeBuilding(t.db, { city: 'Kaunas', street: 'Ąžuolų g.', number: '2' });
    buildingA = a.id;
    buildingB = b.id;
    const a1 = await makeFlat(t.db, a, { name: '1', order: 1 });
    flatA1 = a1.id;
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
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    adminB = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [b] });
    user = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [b] });
  }, 120_000);

  describe('the rules, on hand-built devices', () => {
    it('gives a verification interval by type and level: flat water 6, flat heat 5, inlet water 2, building heat 5', async () => {
      expect((await device('coldA1')).VerificationDue).toBe('2026-03-15');
      expect((await device('heatA1')).VerificationDue).toBe('2026-05-10');
      expect((await device('inletA')).VerificationDue).toBe('2027-02-01');
      expect((await device('bhmA')).VerificationDue).toBe('2027-07-01');
      // An allocator is not verified.
      expect((await device('allocA1')).VerificationDue).toBeNull();
    });

    it('counts from the verification day, else from the installation day', async () => {
      await setVerified('heatA1', '2023-01-20');
      expect((await device('heatA1')).VerificationDue).toBe('2028-01-20');
      await setVerified('heatA1', null);
      expect((await device('heatA1')).VerificationDue).toBe('2026-05-10');
    });

    it('takes the interval from the setting', async () => {
      await setSetting('lifetime.verificationYears.flat', { 2: 5, 3: 4, 4: 6 });
      expect((await device('coldA1')).VerificationDue).toBe('2024-03-15');
      // The building-level interval of the same type is its own.
      expect((await device('inletA')).VerificationDue).toBe('2027-02-01');
      await setSetting('lifetime.verificationYears.flat', { 2: 5, 3: 6, 4: 6 });
    });

    it('runs to the end of that year under the end-of-year rule', async () => {
      await setSetting('lifetime.endOfYear', true);
      expect((await device('coldA1')).VerificationDue).toBe('2026-12-31');
      expect((await device('inletA')).VerificationDue).toBe('2027-12-31');
      await setSetting('lifetime.endOfYear', false);
      expect((await device('coldA1')).VerificationDue).toBe('2026-03-15');
    });

    it("ends an allocator's battery after its model's life, else the default", async () => {
      expect((await device('allocA1')).BatteryEnd).toBe('2026-06-01');
      await setSetting('lifetime.batteryYears', { default: 10, 'Q caloric 5.5': 8 });
      expect((await device('allocA1')).BatteryEnd).toBe('2024-06-01');
      await setSetting('lifetime.batteryYears', { default: 10 });
      expect((await device('coldA1')).BatteryEnd).toBeNull();
    });

    it('refuses settings of the wrong shape, naming the setting', async () => {
      for (const [key, value] of [
        ['lifetime.verificationYears.flat', { 3: 0 }],
        ['lifetime.batteryYears', { 'Q caloric 5.5': 8 }],
        ['lifetime.endOfYear', 'yes'],
        ['lifetime.remoteDays', 0],
      ] as const) {
        const res = await inject(t.app, contract.updateDqSetting, {
          params: { key },
          body: { value },
          token: operator.token,
        });
        expect(res.status, key).toBe(400);
      }
    });

    it('reads a device heard by a collector within the days set as remote, else as marked, else manual', async () => {
      const heard = (name: string, daysAgo: number) =>
        t.db.query(
          `INSERT INTO device_status (device_id, last_seen, telegram_ts) VALUES ($1, now() - make_interval(days => $2), now() - make_interval(days => $2))
           ON CONFLICT (device_id) DO UPDATE SET telegram_ts = excluded.telegram_ts`,
          [id[name], daysAgo],
        );
      await heard('coldA1', 10);
      await heard('allocA1', 40);
      await t.db.query(`UPDATE device SET read_method = 'walkby' WHERE id = $1`, [id.allocA1]);
      expect((await device('coldA1')).ReadNow).toBe('remote');
      expect((await device('allocA1')).ReadNow).toBe('walkby');
      expect((await device('heatA1')).ReadNow).toBe('manual');
      await setSetting('lifetime.remoteDays', 50);
      expect((await device('allocA1')).ReadNow).toBe('remote');
      await setSetting('lifetime.remoteDays', 30);
      expect((await device('allocA1')).ReadNow).toBe('walkby');
      // Marked remote by the device form: remote without a collector.
      const marked = await inject(t.app, contract.updateDevice, {
        params: { id: id.heatA1! },
        body: { readMethod: 'remote', verifiedOn: '2021-05-01' },
        token: operator.token,
      });
      expect(marked.status, marked.text).toBe(200);
      expect(marked.body).toMatchObject({ ReadMethod: 'remote', ReadNow: 'remote', VerifiedOn: '2021-05-01' });
      expect(marked.body.VerificationDue).toBe('2026-05-01');
    });

    it("starts the new device's dates with a replacement", async () => {
      const res = await inject(t.app, contract.replaceDevice, {
        params: { id: id.coldA1! },
        body: { replacedAt: `${today}T00:00:00`, finalReading: 10, newDeviceCode: 'CW-A1-NEW', initialReading: 0 },
        token: operator.token,
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.New.VerifiedOn).toBe(today);
      expect(res.body.New.VerificationDue).toBe(shift(today, 6));
      // The old one was overdue; neither is due now.
      const due = await inject(t.app, contract.getDueDevices, {
        query: { buildingId: buildingA },
        token: operator.token,
      });
      expect(due.body.Rows.map((r) => r.DeviceCode)).not.toContain('CW-A1');
      expect(due.body.Rows.map((r) => r.DeviceCode)).not.toContain('CW-A1-NEW');
      // A device added with a verification day keeps it.
      const added = await inject(t.app, contract.addDevice, {
        body: {
          locationId: flatA1,
          deviceTypeId: DEVICE_TYPE.hotWaterMeter,
          deviceCode: 'HW-A1',
          installedAt: '2024-01-10T12:00:00',
          verifiedOn: '2023-09-01',
          readMethod: 'walkby',
        },
        token: operator.token,
      });
      expect(added.status, added.text).toBe(201);
      expect(added.body).toMatchObject({ VerifiedOn: '2023-09-01', VerificationDue: '2029-09-01', ReadNow: 'walkby' });
    });
  });

  describe('GET /lifetime/due', () => {
    it('lists overdue, this month and the next months in address order, with the reason', async () => {
      const res = await inject(t.app, contract.getDueDevices, {
        query: { buildingId: buildingB },
        token: operator.token,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.Today).toBe(today);
      expect(res.body.Rows.map((r) => [r.DeviceCode, r.Flat, r.Bucket, r.Reason])).toEqual([
        ['B-THISMONTH', '10', 'thisMonth', 'verification'],
        ['B-OVERDUE', '2', 'overdue', 'verification'],
        ['B-SOON', '2', 'soon', 'verification'],
      ]);
      const wider = await inject(t.app, contract.getDueDevices, {
        query: { buildingId: buildingB, months: 6 },
        token: operator.token,
      });
      expect(wider.body.Rows.map((r) => r.DeviceCode)).toContain('B-LATER');
      const narrow = await inject(t.app, contract.getDueDevices, {
        query: { buildingId: buildingB, months: 0 },
        token: operator.token,
      });
      expect(narrow.body.Rows.map((r) => r.DeviceCode)).toEqual(['B-THISMONTH', 'B-OVERDUE']);
    });

    it('gives an allocator its battery end as the reason, and filters by type', async () => {
      const res = await inject(t.app, contract.getDueDevices, {
        query: { deviceTypeId: DEVICE_TYPE.allocator },
        token: operator.token,
      });
      expect(res.body.Rows.map((r) => [r.DeviceCode, r.DueDate, r.Reason])).toEqual([
        ['HCA-A1', '2026-06-01', 'battery'],
      ]);
    });

    it('shows group 2 its scope only and refuses group 3', async () => {
      const admin = await inject(t.app, contract.getDueDevices, { query: { months: 60 }, token: adminB.token });
      expect(admin.status).toBe(200);
      expect(new Set(admin.body.Rows.map((r) => r.BuildingId))).toEqual(new Set([buildingB]));
      const denied = await inject(t.app, contract.getDueDevices, { token: user.token });
      expect(denied.status).toBe(403);
      expect(denied.error.code).toBe('lifetimeAdminsOnly');
    });

    it("prints the fitter's work list in the list's order, in both languages", async () => {
      for (const lang of ['lt', 'en'] as const) {
        const res = await inject(t.app, contract.getDueWorkList, {
          query: { buildingId: buildingB, lang },
          token: operator.token,
        });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('application/pdf');
        const text = pdfText(res.raw, `work-${lang}.pdf`);
        expect(text).toContain(lang === 'lt' ? 'Prietaisų keitimo darbų sąrašas' : 'Device exchange work list');
        const at = ['B-THISMONTH', 'B-OVERDUE', 'B-SOON'].map((s) => text.indexOf(s));
        expect(at.every((i) => i >= 0)).toBe(true);
        expect([...at].sort((x, y) => x - y)).toEqual(at);
        expect(text).toContain(lang === 'lt' ? 'Šalto vandens' : 'Cold water');
      }
    });
  });

  describe('GET /lifetime/remote-register', () => {
    it('counts devices by how they are read, and the ones installed after 2020-10-25 not remote', async () => {
      const res = await inject(t.app, contract.getRemoteRegister, { token: operator.token });
      expect(res.status, res.text).toBe(200);
      const a = res.body.Buildings.find((b) => b.BuildingId === buildingA)!;
      const b = res.body.Buildings.find((x) => x.BuildingId === buildingB)!;
      // A: CW-A1-NEW (manual, new), HM-A1 (marked remote), HCA-A1 (walk-by, heard 40 days ago), HW-A1 (walk-by),
      // CW-INLET-A and BHM-A (manual). B: four manual cold water meters.
      expect(a).toMatchObject({ Devices: 6, Remote: 1, RemotePercent: 16.7 });
      expect(a.LateNotRemote.map((d) => d.DeviceCode).sort()).toEqual(
        ['BHM-A', 'CW-A1-NEW', 'CW-INLET-A', 'HW-A1'].sort(),
      );
      expect(b).toMatchObject({ Devices: 4, Remote: 0, RemotePercent: 0 });
      expect(res.body.Summary).toMatchObject({ Buildings: 2, Devices: 10, Remote: 1, RemotePercent: 10 });
      expect(res.body.Deadline).toBe('2027-01-01');
      const left = Math.max(0, Math.round((Date.parse('2027-01-01') - Date.parse(today)) / 86_400_000));
      expect(res.body.DaysLeft).toBe(left);
      const cold = a.ByType.find((x) => x.DeviceTypeId === DEVICE_TYPE.coldWaterMeter)!;
      expect(cold).toEqual({ DeviceTypeId: DEVICE_TYPE.coldWaterMeter, Remote: 0, WalkBy: 0, Manual: 2 });
    });

    it("keeps a building's exception note with who and when, audited; group 1 only", async () => {
      const res = await inject(t.app, contract.setRemoteException, {
        params: { buildingId: buildingB },
        body: { note: 'Radio modules cost more than the heat they save' },
        token: operator.token,
      });
      expect(res.status, res.text).toBe(200);
      const reg = await inject(t.app, contract.getRemoteRegister, {
        query: { buildingId: buildingB },
        token: adminB.token,
      });
      expect(reg.body.Buildings[0]!.Exception).toMatchObject({
        Note: 'Radio modules cost more than the heat they save',
      });
      expect(reg.body.Buildings[0]!.Exception!.NotedBy).toBeTruthy();
      expect(reg.body.Summary.BuildingsWithException).toBe(1);
      const { rows } = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_log WHERE kind = 'remoteException.set' AND entity_id = $1`,
        [String(buildingB)],
      );
      expect(rows[0]!.n).toBe(1);
      const byAdmin = await inject(t.app, contract.setRemoteException, {
        params: { buildingId: buildingB },
        body: { note: null },
        token: adminB.token,
      });
      expect(byAdmin.status).toBe(403);
      const onFlat = await inject(t.app, contract.setRemoteException, {
        params: { buildingId: flatA1 },
        body: { note: 'x' },
        token: operator.token,
      });
      expect(onFlat.status).toBe(400);
      expect(onFlat.error.code).toBe('lifetimeNotBuilding');
    });

    it('prints the register with the summary and each building', async () => {
      const res = await inject(t.app, contract.getRemoteRegisterPdf, { query: { lang: 'en' }, token: operator.token });
      expect(res.status).toBe(200);
      const text = pdfText(res.raw, 'register-en.pdf');
      expect(text).toContain('Remote-reading register');
      expect(text).toContain('Devices: 10, read remotely: 1 (10 %)');
      expect(text).toContain('Radio modules cost more');
    });
  });

  describe('GET /lifetime/walk-by', () => {
    it('lists flats whose month ends were not measured for the months in a row', async () => {
      const res0 = await inject(t.app, contract.getWalkByList, { query: { months: 2 }, token: operator.token });
      expect(res0.status, res0.text).toBe(200);
      const [m1, m2] = res0.body.Months.map((m) => `${m}-01`);
      // B-OVERDUE measured in the later month only; B-SOON never measured; B-THISMONTH measured in both.
      const monthEnd = (name: string, month: string, source: string) =>
        t.db.query(`INSERT INTO month_end (device_id, month, value, source) VALUES ($1, $2::date, 1, $3)`, [
          id[name],
          month,
          source,
        ]);
      await monthEnd('overdueB', m1!, 'estimated');
      await monthEnd('overdueB', m2!, 'measured');
      await monthEnd('soonB', m1!, 'estimated');
      await monthEnd('thisMonthB', m1!, 'measured');
      await monthEnd('thisMonthB', m2!, 'memory');
      const res = await inject(t.app, contract.getWalkByList, { query: { months: 2 }, token: adminB.token });
      expect(res.status).toBe(200);
      const b = res.body.Flats.filter((f) => f.BuildingId === buildingB);
      // Flat 10: B-LATER is never measured (B-THISMONTH is); flat 2: B-SOON.
      expect(b.map((f) => [f.Flat, f.DeviceCodes])).toEqual([
        ['10', ['B-LATER']],
        ['2', ['B-SOON']],
      ]);
      const denied = await inject(t.app, contract.getWalkByList, { token: user.token });
      expect(denied.status).toBe(403);
    });
  });

  describe('POST /masterData/register/apply: VerifiedOn and ReadMethod', () => {
    const file = (rows: string[][]) => {
      const header = ['Country', 'County', 'Region', 'City', 'Street', 'Building', 'Flat', 'ObjectCode', 'ClientCode'];
      const head = [...header, 'DeviceType', 'DeviceCode', 'InstalledAt', 'VerifiedOn', 'ReadMethod'];
      const address = [
        'Lietuva',
        'Kauno apskritis',
        'Kauno m. sav.',
        'Kaunas',
        'Ąžuolų g.',
        '9',
        '1',
        'OBJ-9',
        'CL-9-1',
      ];
      return Buffer.from([head, ...rows.map((r) => [...address, ...r])].map((r) => r.join(';')).join('\r\n'), 'utf8');
    };
    const send = (rows: string[][]) =>
      inject(t.app, contract.applyRegisterImport, {
        token: operator.token,
        payload: file(rows),
        headers: { 'content-type': 'text/csv' },
      });

    it('stores the verification day and the read method, and refuses a bad one naming the column', async () => {
      const bad = await send([
        ['CWM', 'IMP-1', '2024-01-10', '2023-13-01', 'walkby'],
        ['CWM', 'IMP-2', '2024-01-10', '2023-09-01', 'pigeon'],
      ]);
      expect(bad.status, bad.text).toBe(200);
      expect(bad.body.Applied).toBe(false);
      expect(bad.body.Errors.map((e) => [e.Line, e.Code, e.Params.column])).toEqual([
        [2, 'INVALID_DATE', 'VerifiedOn'],
        [3, 'INVALID_CHOICE', 'ReadMethod'],
      ]);
      const good = await send([
        ['CWM', 'IMP-1', '2024-01-10', '2023-09-01', 'WalkBy'],
        ['CWM', 'IMP-2', '2024-01-10', '', ''],
      ]);
      expect(good.body.Applied, JSON.stringify(good.body.Errors)).toBe(true);
      const { rows } = await t.db.query<{ code: string; verified: string | null; method: string | null; due: string }>(
        `SELECT d.device_code AS code, to_char(d.verified_on, 'YYYY-MM-DD') AS verified, d.read_method AS method,
                to_char(verification_due(d.device_type_id, l.level, coalesce(d.verified_on, d.installed_at::date)), 'YYYY-MM-DD') AS due
           FROM device d JOIN location l ON l.id = d.location_id WHERE d.device_code LIKE 'IMP-%' ORDER BY 1`,
      );
      expect(rows).toEqual([
        { code: 'IMP-1', verified: '2023-09-01', method: 'walkby', due: '2029-09-01' },
        { code: 'IMP-2', verified: null, method: null, due: '2030-01-10' },
      ]);
      // An empty cell keeps what is stored; a new day changes it.
      const again = await send([
        ['CWM', 'IMP-1', '2024-01-10', '', ''],
        ['CWM', 'IMP-2', '2024-01-10', '2024-01-05', 'manual'],
      ]);
      expect(again.body.Devices).toMatchObject({ Changed: 1, Unchanged: 1 });
    });
  });

  describe('DEVICE_OVERDUE anomalies', () => {
    const overdue = async () => {
      const { rows } = await t.db.query<{ code: string; state: string; evidence: { dueDate: string; reason: string } }>(
        `SELECT d.device_code AS code, a.state, a.evidence FROM anomaly a JOIN device d ON d.id = a.device_id
          WHERE a.rule = 'DEVICE_OVERDUE' ORDER BY d.device_code, a.id`,
      );
      return rows;
    };

    it('opens one per device past its date, once, in the digest; a re-verification resolves it', async () => {
      await validate(t.db, null, new Date());
      await validate(t.db, null, new Date());
      const open = (await overdue()).filter((r) => r.state === 'open');
      // Past due today: B-OVERDUE (verification), HCA-A1 (battery), HM-A1 (verified 2021-05-01).
      expect(open.map((r) => [r.code, r.evidence.reason])).toEqual([
        ['B-OVERDUE', 'verification'],
        ['HCA-A1', 'battery'],
        ['HM-A1', 'verification'],
      ]);
      expect(open[0]!.evidence.dueDate).toBe(dayOfMonth(today, -1, 1));
      // The digest names it.
      await t.db.query(`UPDATE app_user SET email = 'ops@example.lt' WHERE id = $1`, [operator.id]);
      const on = await inject(t.app, contract.updateDigestSubscription, {
        token: operator.token,
        body: { optIn: true, language: 'en' },
      });
      expect(on.status, on.text).toBe(200);
      const smtp = await startSmtp();
      try {
        const mailer = new Mailer(
          nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true }),
          'rodmenys@example.lt',
          'https://rodmenys.example.lt',
        );
        await t.db.query(`UPDATE app_user SET digest_sent_at = now() - interval '1 hour' WHERE id = $1`, [operator.id]);
        await sendDigests(t.db, mailer, new Date(Date.now() + 1000));
        const mail = decodeMail(smtp.delivered.find((d) => d.to[0] === 'ops@example.lt')!.raw);
        expect(mail).toContain('Verification or battery overdue');
        expect(mail).toContain('B-OVERDUE');
      } finally {
        await smtp.close();
      }
      // Re-verified: resolved at the next run.
      const reverified = await inject(t.app, contract.updateDevice, {
        params: { id: id.overdueB! },
        body: { verifiedOn: today },
        token: operator.token,
      });
      expect(reverified.status).toBe(200);
      await validate(t.db, null, new Date());
      const after = await overdue();
      expect(after.filter((r) => r.state === 'open').map((r) => r.code)).toEqual(['HCA-A1', 'HM-A1']);
      expect(after.find((r) => r.code === 'B-OVERDUE')!.state).toBe('resolved');
    });
  });
});
