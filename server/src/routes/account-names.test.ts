import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeHeatMethodVersion } from '../services/heat-methods/heat-methods.js';
import { issueLink } from '../services/occupant-access/secrets.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import {
  makeBuilding,
  makeDevice,
  makeFlat,
  makeOccupancy,
  makeReadings,
  makeSignedIn,
  type SignedIn,
} from '../test/factories.js';
import { heatMethod } from '../test/heat-method.js';
import { dayFromToday } from '../test/months.js';

/*
 * Who did something, as each caller is told (docs/security.md, "Names of accounts"): an operator's
 * name (group 1) where a record says who set a month end, acknowledged an anomaly, changed a heat
 * method, noted a register exception, set a moving-day value, created an integration key or entered a
 * declaration by phone. Group 1 gets it; groups 2 and 3 (where they may read the record at all) get
 * null, and so does the occupant. Campaigns: routes/campaigns.test.ts.
 */

describe(`an operator's name only to group 1 (${dbKind()})`, () => {
  const t = useApp();
  let operator: SignedIn;
  let admin: SignedIn;
  let user: SignedIn;
  const id = { building: 0, device: 0, occupancy: 0, anomaly: 0 };
  const month = new Date().toISOString().slice(0, 7);

  beforeAll(async () => {
    const building = await makeBuilding(t.db, { city: 'Vilnius', street: 'Vardų g.', number: '8' });
    const flat = await makeFlat(t.db, building, { name: '1', order: 1 });
    id.building = building.id;
    id.device = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'NM-COLD' });
    await makeReadings(t.db, id.device, [['2026-01-01T00:00:00+02:00', 10]]);
    id.occupancy = await makeOccupancy(t.db, flat, { name: 'Gyventoja Vardų' });
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator, firstName: 'Ona', lastName: 'Operatoriūtė' });
    admin = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [building.id] });
    user = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [building.id] });
    const by = { token: operator.token };
    // Everything the operator does that is recorded with who did it.
    const set = await inject(t.app, contract.setMonthEnd, {
      ...by,
      params: { deviceId: id.device, month: '2026-01' },
      body: { value: 10.5, reason: 'Read on site' },
    });
    expect(set.status, set.text).toBe(200);
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO anomaly (rule, building_id, device_id, month, evidence)
       VALUES ('SPIKE', $1, $2, '2026-01-01', '{}') RETURNING id`,
      [id.building, id.device],
    );
    id.anomaly = rows[0]!.id;
    const ack = await inject(t.app, contract.acknowledgeAnomaly, {
      ...by,
      params: { id: id.anomaly },
      body: { comment: 'Known' },
    });
    expect(ack.status, ack.text).toBe(200);
    await storeHeatMethodVersion(t.db, id.building, '2026-01', heatMethod(), operator.id);
    const note = await inject(t.app, contract.setRemoteException, {
      ...by,
      params: { buildingId: id.building },
      body: { note: 'Not cost-efficient' },
    });
    expect(note.status, note.text).toBe(200);
    await t.db.query(
      `INSERT INTO move_value (device_id, day, value, source, reason, set_by)
       VALUES ($1, '2026-01-15', 10.2, 'manual', 'Read on site', $2)`,
      [id.device, operator.id],
    );
    const key = await inject(t.app, contract.createIntegrationKey, {
      ...by,
      body: { name: 'Billing', locationIds: [id.building], expiresOn: dayFromToday(1) },
    });
    expect(key.status, key.text).toBe(201);
    const phoned = await inject(t.app, contract.enterPhoneDeclaration, {
      ...by,
      body: { deviceId: id.device, value: 12, day: new Date().toISOString().slice(0, 10), callerName: 'Gyventoja' },
    });
    expect(phoned.status, phoned.text).toBe(201);
  }, 120_000);

  /** Each reader's answer: the name, null, or the status when the group may not read it at all. */
  const each = async (read: (s: SignedIn) => Promise<{ status: number; by: () => unknown }>) => {
    const out: unknown[] = [];
    for (const s of [operator, admin, user]) {
      const res = await read(s);
      out.push(res.status === 200 ? res.by() : res.status);
    }
    return out;
  };

  it('a manual month end: who set it', async () => {
    const got = await each(async (s) => {
      const res = await inject(t.app, contract.getMonthEnds, {
        params: { deviceId: id.device },
        query: { from: '2026-01', till: '2026-01' },
        token: s.token,
      });
      return { status: res.status, by: () => res.body[0]!.SetBy };
    });
    expect(got).toEqual([operator.username, null, null]);
  });

  it('an anomaly: who acknowledged it', async () => {
    const got = await each(async (s) => {
      const res = await inject(t.app, contract.listAnomalies, { token: s.token });
      return { status: res.status, by: () => res.body.find((a) => a.Id === id.anomaly)!.AcknowledgedBy };
    });
    expect(got).toEqual([operator.username, null, null]);
  });

  it('a heat method version: who changed it (group 3 may not read it)', async () => {
    const got = await each(async (s) => {
      const res = await inject(t.app, contract.getBuildingHeatMethods, { params: { id: id.building }, token: s.token });
      return { status: res.status, by: () => res.body.Versions[0]!.ChangedBy };
    });
    expect(got).toEqual([operator.username, null, 403]);
  });

  it('the remote-reading register: who noted the exception (group 3 may not read it)', async () => {
    const got = await each(async (s) => {
      const res = await inject(t.app, contract.getRemoteRegister, {
        query: { buildingId: id.building },
        token: s.token,
      });
      return { status: res.status, by: () => res.body.Buildings[0]!.Exception!.NotedBy };
    });
    expect(got).toEqual(['Ona Operatoriūtė', null, 403]);
  });

  it('a moving-day value: who set it', async () => {
    const got = await each(async (s) => {
      const res = await inject(t.app, contract.getDeviceMoveValues, {
        params: { deviceId: id.device },
        token: s.token,
      });
      return { status: res.status, by: () => res.body[0]!.SetBy };
    });
    expect(got).toEqual([operator.username, null, null]);
  });

  it('an integration key: who created it (group 3 may not list keys)', async () => {
    const got = await each(async (s) => {
      const res = await inject(t.app, contract.listIntegrationKeys, { token: s.token });
      return { status: res.status, by: () => res.body.Keys[0]!.CreatedBy };
    });
    expect(got).toEqual([operator.username, null, 403]);
  });

  it('a declaration by phone: who entered it, to the back office and to the occupant', async () => {
    const got = await each(async (s) => {
      const res = await inject(t.app, contract.listDeclarations, { query: { month }, token: s.token });
      return { status: res.status, by: () => res.body.Rows[0]!.EnteredBy };
    });
    expect(got).toEqual([operator.username, null, 403]);
    await t.db.query(
      `UPDATE dq_setting SET value = CASE key WHEN 'declarations.windowStartDay' THEN '1'::jsonb ELSE '31'::jsonb END
        WHERE key IN ('declarations.windowStartDay', 'declarations.windowEndDay')`,
    );
    const session = await inject(t.app, contract.signInOccupantByLink, {
      body: { token: await issueLink(t.db, id.occupancy) },
    });
    const page = await inject(t.app, contract.getOccupantDeclarations, { token: session.body.Token });
    expect(page.status, page.text).toBe(200);
    const declarations = page.body.Devices.flatMap((d) => d.Declarations);
    expect(declarations.map((d) => [d.Channel, d.EnteredBy])).toEqual([['phone', null]]);
    expect(page.text).not.toContain(operator.username);
  });
});
