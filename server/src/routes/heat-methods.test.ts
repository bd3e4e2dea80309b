import * as contract from '@rodmenys/contract';
import { GROUP, type HeatMethodBody } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeFlat, makeSignedIn, type SignedIn } from '../test/factories.js';
import { heatMethod } from '../test/heat-method.js';

const t = useApp();

/** A method: norm hot water, a season from mid-October, flat `corner` at factor 1.2. */
const body = (over: Partial<HeatMethodBody> = {}): HeatMethodBody =>
  heatMethod({
    CirculationNorm: 80,
    Seasons: [{ From: '2026-10-15', To: null }],
    CommonShare: 0.05,
    BaseShare: 0.3,
    MinimumShare: 0.4,
    ...over,
  });

describe(`GET/PUT /heat-methods/buildings/:id (${dbKind()})`, () => {
  let operator: SignedIn;
  let admin: SignedIn;
  let otherAdmin: SignedIn;
  let user: SignedIn;
  let building: number;
  let other: number;
  let corner: number;
  let otherFlat: number;
  const put = (month: string, b: HeatMethodBody, token = operator.token, id = building) =>
    inject(t.app, contract.setBuildingHeatMethod, { params: { id, month }, payload: b, token });
  const get = (token: string, id = building) =>
    inject(t.app, contract.getBuildingHeatMethods, { params: { id }, token });

  beforeAll(async () => {
    const b = await makeBuilding(t.db, { city: 'Šiauliai', street: 'Vilniaus g.', number: '7' });
    const o = await makeBuilding(t.db, { city: 'Šiauliai', street: 'Vilniaus g.', number: '9' });
    building = b.id;
    other = o.id;
    corner = await makeFlat(t.db, b, { name: '1', order: 1 }).then((f) => f.id);
    await makeFlat(t.db, b, { name: '2', order: 2 });
    otherFlat = await makeFlat(t.db, o, { name: '1', order: 1 }).then((f) => f.id);
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    admin = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [building] });
    otherAdmin = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [other] });
    user = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [building] });
  });

  it('sets a method from October, reads it back with the flats, and audits before and after', async () => {
    const set = await put('2026-10', body({ Flats: [{ FlatId: corner, PositionFactor: 1.2, CirculationClass: 160 }] }));
    expect(set.status).toBe(200);
    expect(set.body.Flats.map((f) => f.Flat)).toEqual(['1', '2']);
    expect(set.body.Versions).toMatchObject([
      {
        ValidFrom: '2026-10',
        HotWaterHeat: 'norm',
        CommonShare: 0.05,
        Seasons: [{ From: '2026-10-15', To: null }],
        Flats: [{ FlatId: corner, PositionFactor: 1.2, CirculationClass: 160 }],
        ChangedBy: operator.username,
      },
    ]);
    // From January the plain rule again: a second version; October's stays.
    await put('2027-01', body({ HotWaterHeat: null }));
    const read = await get(admin.token);
    expect(read.status).toBe(200);
    expect(read.body.Versions.map((v) => [v.ValidFrom, v.HotWaterHeat])).toEqual([
      ['2026-10', 'norm'],
      ['2027-01', null],
    ]);
    // Changing October's base share: one audit entry with the version before and after.
    await put('2026-10', body({ BaseShare: 0.5 }));
    const { rows } = await t.db.query<{ before: { BaseShare: number } | null; after: { BaseShare: number } }>(
      `SELECT before, after FROM audit_log WHERE kind = 'heatMethod.set' AND entity_id = $1 ORDER BY id`,
      [`${building}|2026-10`],
    );
    expect(rows.map((r) => [r.before?.BaseShare ?? null, r.after.BaseShare])).toEqual([
      [null, 0.3],
      [0.3, 0.5],
    ]);
  });

  it('group 2 reads only its buildings (404 otherwise), group 3 not at all (403), only group 1 sets (403)', async () => {
    expect((await get(otherAdmin.token)).status).toBe(404);
    expect((await get(otherAdmin.token, other)).status).toBe(200);
    expect((await get(user.token)).status).toBe(403);
    expect((await put('2026-11', body(), admin.token)).status).toBe(403);
    // A flat is no building.
    expect((await get(operator.token, corner)).status).toBe(404);
  });

  it('refuses out-of-range shares, bad seasons and foreign flats with 400 naming the field', async () => {
    const common = await put('2026-11', body({ CommonShare: 0.6 }));
    expect(common.status).toBe(400);
    expect(common.error.errors?.[0]?.field).toMatch(/CommonShare/);
    const ends = await put('2026-11', body({ Seasons: [{ From: '2026-10-15', To: '2026-10-01' }] }));
    expect([ends.status, ends.error.code, ends.error.errors?.[0]?.field]).toEqual([
      400,
      'heatSeasonEndsBeforeStart',
      'Seasons',
    ]);
    const overlap = await put(
      '2026-11',
      body({
        Seasons: [
          { From: '2026-10-15', To: '2027-04-30' },
          { From: '2027-04-01', To: null },
        ],
      }),
    );
    expect([overlap.status, overlap.error.code]).toEqual([400, 'heatSeasonsOverlap']);
    const foreign = await put(
      '2026-11',
      body({ Flats: [{ FlatId: otherFlat, PositionFactor: 1, CirculationClass: null }] }),
    );
    expect([foreign.status, foreign.error.code, foreign.error.errors?.[0]?.field]).toEqual([
      400,
      'heatMethodFlatNotInBuilding',
      'Flats',
    ]);
    const twice = await put(
      '2026-11',
      body({
        Flats: [
          { FlatId: corner, PositionFactor: 1, CirculationClass: null },
          { FlatId: corner, PositionFactor: 1.1, CirculationClass: null },
        ],
      }),
    );
    expect([twice.status, twice.error.code]).toEqual([400, 'heatMethodFlatTwice']);
    // Nothing of the refused ones was stored.
    expect((await get(operator.token)).body.Versions.map((v) => v.ValidFrom)).not.toContain('2026-11');
  });
});
