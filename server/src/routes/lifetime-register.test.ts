import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { type LifetimeWorld, useLifetimeWorld } from '../test/lifetime-world.js';

const w: LifetimeWorld = useLifetimeWorld();
const { t, id, pdfText } = w;
let operator: LifetimeWorld['operator'];
let adminB: LifetimeWorld['adminB'];
let user: LifetimeWorld['user'];
let today: string;
let buildingA: number;
let buildingB: number;
let flatA1: number;
beforeAll(async () => {
  ({ operator, adminB, user, today, buildingA, buildingB, flatA1 } = w);
  await w.asTheRulesLeaveIt();
});

describe(`devices over their lifetime: the remote-reading register and the walk-by list (${dbKind()})`, {
  timeout: 120_000,
}, () => {
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
      // Who noted it (an operator) only to group 1 (docs/security.md, "Names of accounts").
      expect(reg.body.Buildings[0]!.Exception!.NotedBy).toBeNull();
      const operators = await inject(t.app, contract.getRemoteRegister, {
        query: { buildingId: buildingB },
        token: operator.token,
      });
      expect(operators.body.Buildings[0]!.Exception!.NotedBy).toBeTruthy();
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
});
