import type { Endpoint } from '@rodmenys/contract';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP, LOCATION_LEVEL } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn, type SignedIn } from '../test/factories.js';

// The authorisation matrix of every data endpoint (docs/domain.md §6): anonymous,
// group 3 without rights, group 3 with one building, someone else's userId,
// group 2 with a city, group 1. Each endpoint's answer is reduced to the set of
// buildings it reveals, so one table covers them all.
describe(`data endpoints: authorisation matrix (${dbKind()})`, () => {
  const t = useApp();
  const b: Record<string, number> = {};
  const flats: Record<string, number> = {};
  const users: Record<string, SignedIn> = {};

  beforeAll(async () => {
    const places = {
      V12: { city: 'Vilnius', street: 'Gedimino pr.', number: '12' },
      V14: { city: 'Vilnius', street: 'Gedimino pr.', number: '14' },
      K3: { city: 'Kaunas', street: 'Laisvės al.', number: '3' },
    };
    let vilnius = 0;
    for (const [key, address] of Object.entries(places)) {
      const building = await makeBuilding(t.db, address);
      if (address.city === 'Vilnius') vilnius = building.path[LOCATION_LEVEL.city - 1]!;
      b[key] = building.id;
      flats[key] = (await makeFlat(t.db, building, { name: '1', order: 1 })).id;
      await t.db.query(`INSERT INTO object (location_id, code, name) VALUES ($1, $2, $3)`, [
        b[key],
        `OBJ-${key}`,
        `Namas ${key}`,
      ]);
      const hca = await makeDevice(t.db, flats[key]!, {
        typeId: DEVICE_TYPE.allocator,
        code: `HCA-${key}`,
        ratingFactor: 1,
      });
      await makeReadings(t.db, hca, [
        ['2026-01-01T00:00:00+02:00', 1],
        ['2026-01-20T00:00:00+02:00', 2],
      ]);
    }
    users.none = await makeSignedIn(t.app, { groupId: GROUP.user });
    users.one = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [b.V12!] });
    users.admin = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [vilnius] });
    users.operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
  });

  // biome-ignore lint/suspicious/noExplicitAny: each endpoint's own rows, read by its own reveal
  type Reveal = (body: any) => string[];
  const byBuilding: Reveal = (rows) => [...new Set<string>(rows.map((r: { Building: string }) => r.Building))].sort();
  const buildingName: Record<string, string> = { V12: '12', V14: '14', K3: '3' };
  const names = (...keys: string[]) => keys.map((k) => buildingName[k]!).sort();

  /** Each data endpoint with a query that selects everything, and how to read the buildings it reveals. */
  const endpoints: { endpoint: Endpoint; query: string; reveal: Reveal }[] = [
    { endpoint: contract.getDeviceDataByUserId, query: '', reveal: byBuilding },
    { endpoint: contract.getDevicesByParams, query: 'country=lietuva&deviceOnly=0', reveal: byBuilding },
    {
      endpoint: contract.getDevicesData,
      query: `dateFrom=2026-01-01&dateTill=2026-01-31&deviceTypeId=${DEVICE_TYPE.allocator}`,
      reveal: byBuilding,
    },
    { endpoint: contract.getAllObjects, query: 'pageSize=500', reveal: (body) => byBuilding(body.Data) },
    {
      // Every device here is stale in January (its last reading on the 20th): all are flagged.
      endpoint: contract.getFlaggedDevices,
      query: 'dateFrom=2026-01-01&dateTill=2026-01-31',
      reveal: byBuilding,
    },
    {
      endpoint: contract.getUserObjects,
      query: 'pageSize=500',
      reveal: (body) =>
        [...new Set<string>(body.Data.map((r: { ObjectCode: string }) => buildingName[r.ObjectCode.slice(4)]!))].sort(),
    },
    {
      endpoint: contract.typeaheadEndpoints.Building,
      query: 'search=1',
      // '12' and '14' start with 1; '3' never does: compare within that.
      reveal: (body) => [...body].sort(),
    },
    {
      endpoint: contract.getLocationTree,
      query: 'maxLevel=6',
      reveal: (body) =>
        body
          .filter((n: { Level: number }) => n.Level === LOCATION_LEVEL.building)
          .map((n: { Name: string }) => n.Name)
          .sort(),
    },
  ];
  const expected: Record<string, string[]> = {
    none: [],
    one: names('V12'),
    admin: names('V12', 'V14'),
    operator: names('V12', 'V14', 'K3'),
  };

  for (const { endpoint, query, reveal } of endpoints) {
    const name = `${endpoint.method} /api${endpoint.path}`;
    const withUser = (id: number) => (query ? `${query}&userId=${id}` : `userId=${id}`);
    describe(name, () => {
      it('refuses anonymous callers with 401', async () => {
        expect((await inject(t.app, endpoint, { query })).status).toBe(401);
      });
      for (const who of Object.keys(expected)) {
        it(`shows ${who} exactly their buildings`, async () => {
          const res = await inject(t.app, endpoint, { query, token: users[who]!.token });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          let want = expected[who]!;
          if (name.endsWith('/Building')) want = want.filter((n) => n.startsWith('1'));
          expect(reveal(res.body)).toEqual(want);
        });
      }
      it("refuses a group 3 user asking with someone else's userId (404, as for no such user)", async () => {
        const res = await inject(t.app, endpoint, { query: withUser(users.operator!.id), token: users.one!.token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(
          (await inject(t.app, endpoint, { query: withUser(987654), token: users.one!.token })).body,
        );
      });
      it('lets group 2 ask with the userId of an account in reach, narrowed to what both may see; 404 otherwise', async () => {
        const res = await inject(t.app, endpoint, { query: withUser(users.one!.id), token: users.admin!.token });
        expect(res.status).toBe(200);
        let want = expected.one!;
        if (name.endsWith('/Building')) want = want.filter((n) => n.startsWith('1'));
        expect(reveal(res.body)).toEqual(want);
        // The operator's account is out of group 2's reach.
        expect(
          (await inject(t.app, endpoint, { query: withUser(users.operator!.id), token: users.admin!.token })).status,
        ).toBe(404);
      });
    });
  }

  describe('GET /api/devices/GetDevicesByLocationId', () => {
    it('answers devices in scope and 404 outside it, revealing nothing', async () => {
      const devicesAt = (locationId: number, token?: string) =>
        inject(t.app, contract.getDevicesByLocationId, { query: { locationId }, token });
      expect((await devicesAt(b.V12!)).status).toBe(401);
      const mine = await devicesAt(b.V12!, users.one!.token);
      expect(mine.status, JSON.stringify(mine.body)).toBe(200);
      expect(mine.body.map((d: { DeviceCode: string }) => d.DeviceCode)).toEqual(['HCA-V12']);
      const notMine = await devicesAt(b.K3!, users.one!.token);
      const missing = await devicesAt(987654, users.one!.token);
      expect(notMine.status).toBe(404);
      expect(notMine.body).toEqual(missing.body);
      expect((await devicesAt(b.K3!, users.operator!.token)).body).toHaveLength(1);
      expect(
        (await inject(t.app, contract.getDevicesByLocationId, { query: { locationId: 'x' }, token: users.one!.token }))
          .status,
      ).toBe(400);
    });
  });

  describe('GET /api/devices/UserLocationRights/:userId', () => {
    it('lists a granted building as selectable', async () => {
      const res = await inject(t.app, contract.userLocationRights, {
        params: { userId: users.one!.id },
        token: users.one!.token,
      });
      expect(res.body).toEqual([
        { VisibleLocationPath: 'Vilnius m. sav., Vilnius, Gedimino pr. 12', VisibleLocationId: b.V12 },
      ]);
    });
    it('lists a granted area as a heading (id 0) followed by its buildings', async () => {
      const res = await inject(t.app, contract.userLocationRights, {
        params: { userId: users.admin!.id },
        token: users.admin!.token,
      });
      expect(res.body).toEqual([
        { VisibleLocationPath: 'Vilnius m. sav., Vilnius', VisibleLocationId: 0 },
        { VisibleLocationPath: 'Vilnius m. sav., Vilnius, Gedimino pr. 12', VisibleLocationId: b.V12 },
        { VisibleLocationPath: 'Vilnius m. sav., Vilnius, Gedimino pr. 14', VisibleLocationId: b.V14 },
      ]);
    });
    it('is empty for a user without rights; 404 for an account out of reach; 401 anonymous', async () => {
      expect(
        (
          await inject(t.app, contract.userLocationRights, {
            params: { userId: users.none!.id },
            token: users.none!.token,
          })
        ).body,
      ).toEqual([]);
      expect(
        (
          await inject(t.app, contract.userLocationRights, {
            params: { userId: users.one!.id },
            token: users.none!.token,
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await inject(t.app, contract.userLocationRights, {
            params: { userId: users.operator!.id },
            token: users.admin!.token,
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await inject(t.app, contract.userLocationRights, {
            params: { userId: users.one!.id },
            token: users.admin!.token,
          })
        ).status,
      ).toBe(200);
      expect((await inject(t.app, contract.userLocationRights, { params: { userId: users.one!.id } })).status).toBe(
        401,
      );
    });
  });

  describe('GET /api/devices/GetDeviceTypeLookUp', () => {
    it('lists the five device types for any signed-in user', async () => {
      expect((await inject(t.app, contract.getDeviceTypeLookUp)).status).toBe(401);
      const res = await inject(t.app, contract.getDeviceTypeLookUp, { token: users.none!.token });
      expect(res.body.map((t: { Id: number }) => t.Id)).toEqual([1, 2, 3, 4, 11]);
      expect(res.body[0]).toMatchObject({
        DeviceTypeCode: 'HCA',
        DeviceCategoryCode: 'HEAT',
        DataLoadProc: 'allocator',
      });
    });
  });

  describe('GET /api/locationData/* filters', () => {
    it('filters buildings by case-insensitive prefixes and pages them', async () => {
      const op = users.operator!.token;
      const res = await inject(t.app, contract.getAllObjects, {
        query: { city: 'VIL', pageSize: 1, page: 2 },
        token: op,
      });
      expect(res.body).toMatchObject({ Total: 2, PerPage: 1, CurrentPage: 2, LastPage: 2, From: 2, To: 2 });
      expect(res.body.Data[0]).toMatchObject({ City: 'Vilnius', Building: '14', ObjectCode: 'OBJ-V14' });
      const street = await inject(t.app, contract.getAllObjects, { query: { street: 'laisvės' }, token: op });
      expect(street.body.Data.map((r) => r.Building)).toEqual(['3']);
      // LIKE wildcards in input are literal.
      expect((await inject(t.app, contract.getAllObjects, { query: { city: '%' }, token: op })).body.Total).toBe(0);
    });
    it('suggests distinct names by prefix, ignoring case, at most 10', async () => {
      const op = users.operator!.token;
      expect(
        (await inject(t.app, contract.typeaheadEndpoints.City, { query: { search: 'ka' }, token: op })).body,
      ).toEqual(['Kaunas']);
      expect(
        (await inject(t.app, contract.typeaheadEndpoints.Street, { query: { search: 'GED' }, token: op })).body,
      ).toEqual(['Gedimino pr.']);
      expect(
        (await inject(t.app, contract.typeaheadEndpoints.Country, { query: { search: 'li' }, token: op })).body,
      ).toEqual(['Lietuva']);
      // A user granted one building sees its city as a filter value.
      expect(
        (await inject(t.app, contract.typeaheadEndpoints.City, { query: { search: 'v' }, token: users.one!.token }))
          .body,
      ).toEqual(['Vilnius']);
      expect(
        (await inject(t.app, contract.typeaheadEndpoints.City, { query: { search: 'k' }, token: users.one!.token }))
          .body,
      ).toEqual([]);
      expect((await inject(t.app, contract.typeaheadEndpoints.City, { token: op })).status).toBe(400);
      expect(
        (await inject(t.app, contract.typeaheadEndpoints.City, { query: { search: 'x'.repeat(300) }, token: op }))
          .status,
      ).toBe(400);
    });
    it('refuses huge page sizes', async () => {
      const res = await inject(t.app, contract.getAllObjects, {
        query: { pageSize: 1000000 },
        token: users.operator!.token,
      });
      expect(res.status).toBe(400);
    });
  });
});
