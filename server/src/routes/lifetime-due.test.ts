import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { type LifetimeWorld, useLifetimeWorld } from '../test/lifetime-world.js';

const w: LifetimeWorld = useLifetimeWorld();
const { t, pdfText } = w;
let operator: LifetimeWorld['operator'];
let adminB: LifetimeWorld['adminB'];
let user: LifetimeWorld['user'];
let today: string;
let buildingB: number;
beforeAll(() => {
  ({ operator, adminB, user, today, buildingB } = w);
});

describe(`devices over their lifetime: the due lists (${dbKind()})`, { timeout: 120_000 }, () => {
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
});
