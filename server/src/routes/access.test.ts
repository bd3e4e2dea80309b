import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.js';
import { buildTestApp, call } from '../test/app.js';
import { createTestDb, dbKind } from '../test/db.js';
import { addReadings, address, createDevice, createPath, createUser } from '../test/fixtures.js';

// The authorisation matrix of every data endpoint (docs/domain.md §6): anonymous,
// group 3 without rights, group 3 with one building, someone else's userId,
// group 2 with a city, group 1. Each endpoint's answer is reduced to the set of
// buildings it reveals, so one table covers them all.
describe(`data endpoints: authorisation matrix (${dbKind()})`, () => {
  let db: Db;
  let app: FastifyInstance;
  const b: Record<string, number> = {};
  const flats: Record<string, number> = {};
  const users: Record<string, Awaited<ReturnType<typeof createUser>>> = {};

  beforeAll(async () => {
    db = await createTestDb();
    app = await buildTestApp(db);
    const places = {
      V12: address('Vilnius', 'Gedimino pr.', '12'),
      V14: address('Vilnius', 'Gedimino pr.', '14'),
      K3: address('Kaunas', 'Laisvės al.', '3'),
    };
    for (const [key, path] of Object.entries(places)) {
      const ids = await createPath(db, path);
      b[key] = ids.at(-1)!;
      flats[key] = (await createPath(db, [...path, '1'], 1)).at(-1)!;
      await db.query(`INSERT INTO object (location_id, code, name) VALUES ($1, $2, $3)`, [
        b[key],
        `OBJ-${key}`,
        `Namas ${key}`,
      ]);
      const hca = await createDevice(db, { typeId: 1, locationId: flats[key]!, code: `HCA-${key}`, ratingFactor: 1 });
      await addReadings(db, hca, [
        ['2026-01-01T00:00:00+02:00', 1],
        ['2026-01-20T00:00:00+02:00', 2],
      ]);
    }
    const vilnius = (await createPath(db, places.V12)).at(3)!;
    users.none = await createUser(app, { groupId: 3 });
    users.one = await createUser(app, { groupId: 3, rights: [b.V12!] });
    users.admin = await createUser(app, { groupId: 2, rights: [vilnius] });
    users.operator = await createUser(app, { groupId: 1 });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  type Reveal = (body: any) => string[];
  const byBuilding: Reveal = (rows) => [...new Set<string>(rows.map((r: { Building: string }) => r.Building))].sort();
  const buildingName: Record<string, string> = { V12: '12', V14: '14', K3: '3' };
  const names = (...keys: string[]) => keys.map((k) => buildingName[k]!).sort();

  const endpoints: { name: string; url: () => string; reveal: Reveal }[] = [
    {
      name: 'GET /api/devices/GetDeviceDataByUserId',
      url: () => '/api/devices/GetDeviceDataByUserId',
      reveal: byBuilding,
    },
    {
      name: 'GET /api/devices/GetDevicesByParams',
      url: () => '/api/devices/GetDevicesByParams?country=lietuva&deviceOnly=0',
      reveal: byBuilding,
    },
    {
      name: 'GET /api/devices/GetDevicesData',
      url: () => '/api/devices/GetDevicesData?dateFrom=2026-01-01&dateTill=2026-01-31&deviceTypeId=1',
      reveal: byBuilding,
    },
    {
      // Every device here is stale in January (its last reading on the 20th): all are flagged.
      name: 'GET /api/devices/flagged',
      url: () => '/api/devices/flagged?dateFrom=2026-01-01&dateTill=2026-01-31',
      reveal: byBuilding,
    },
    {
      name: 'GET /api/locationData/getAllObjects',
      url: () => '/api/locationData/getAllObjects?pageSize=500',
      reveal: (body) => byBuilding(body.Data),
    },
    {
      name: 'GET /api/locationData/getUserObjects',
      url: () => '/api/locationData/getUserObjects?pageSize=500',
      reveal: (body) =>
        [...new Set<string>(body.Data.map((r: { ObjectCode: string }) => buildingName[r.ObjectCode.slice(4)]!))].sort(),
    },
    {
      name: 'GET /api/locationData/Building',
      url: () => '/api/locationData/Building?search=1',
      // '12' and '14' start with 1; '3' never does: compare within that.
      reveal: (body) => [...body].sort(),
    },
    {
      name: 'GET /api/locationData/tree',
      url: () => '/api/locationData/tree?maxLevel=6',
      reveal: (body) =>
        body
          .filter((n: { Level: number }) => n.Level === 6)
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

  for (const endpoint of endpoints) {
    describe(endpoint.name, () => {
      it('refuses anonymous callers with 401', async () => {
        expect((await call(app, 'GET', endpoint.url())).status).toBe(401);
      });
      for (const who of Object.keys(expected)) {
        it(`shows ${who} exactly their buildings`, async () => {
          const res = await call(app, 'GET', endpoint.url(), { token: users[who]!.token });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          let want = expected[who]!;
          if (endpoint.name.endsWith('/Building')) want = want.filter((n) => n.startsWith('1'));
          expect(endpoint.reveal(res.body)).toEqual(want);
        });
      }
      const withUser = (id: number) => `${endpoint.url()}${endpoint.url().includes('?') ? '&' : '?'}userId=${id}`;
      it("refuses a group 3 user asking with someone else's userId (404, as for no such user)", async () => {
        const res = await call(app, 'GET', withUser(users.operator!.id), { token: users.one!.token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual((await call(app, 'GET', withUser(987654), { token: users.one!.token })).body);
      });
      it('lets group 2 ask with the userId of an account in reach, narrowed to what both may see; 404 otherwise', async () => {
        const res = await call(app, 'GET', withUser(users.one!.id), { token: users.admin!.token });
        expect(res.status).toBe(200);
        let want = expected.one!;
        if (endpoint.name.endsWith('/Building')) want = want.filter((n) => n.startsWith('1'));
        expect(endpoint.reveal(res.body)).toEqual(want);
        // The operator's account is out of group 2's reach.
        expect((await call(app, 'GET', withUser(users.operator!.id), { token: users.admin!.token })).status).toBe(404);
      });
    });
  }

  describe('GET /api/devices/GetDevicesByLocationId', () => {
    it('answers devices in scope and 404 outside it, revealing nothing', async () => {
      const url = (id: number) => `/api/devices/GetDevicesByLocationId?locationId=${id}`;
      expect((await call(app, 'GET', url(b.V12!))).status).toBe(401);
      const mine = await call(app, 'GET', url(b.V12!), { token: users.one!.token });
      expect(mine.status, JSON.stringify(mine.body)).toBe(200);
      expect(mine.body.map((d: { DeviceCode: string }) => d.DeviceCode)).toEqual(['HCA-V12']);
      const notMine = await call(app, 'GET', url(b.K3!), { token: users.one!.token });
      const missing = await call(app, 'GET', url(987654), { token: users.one!.token });
      expect(notMine.status).toBe(404);
      expect(notMine.body).toEqual(missing.body);
      expect((await call(app, 'GET', url(b.K3!), { token: users.operator!.token })).body).toHaveLength(1);
      expect(
        (await call(app, 'GET', '/api/devices/GetDevicesByLocationId?locationId=x', { token: users.one!.token }))
          .status,
      ).toBe(400);
    });
  });

  describe('GET /api/devices/UserLocationRights/:userId', () => {
    it('lists a granted building as selectable', async () => {
      const res = await call(app, 'GET', `/api/devices/UserLocationRights/${users.one!.id}`, {
        token: users.one!.token,
      });
      expect(res.body).toEqual([
        { VisibleLocationPath: 'Vilnius m. sav., Vilnius, Gedimino pr. 12', VisibleLocationId: b.V12 },
      ]);
    });
    it('lists a granted area as a heading (id 0) followed by its buildings', async () => {
      const res = await call(app, 'GET', `/api/devices/UserLocationRights/${users.admin!.id}`, {
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
        (await call(app, 'GET', `/api/devices/UserLocationRights/${users.none!.id}`, { token: users.none!.token }))
          .body,
      ).toEqual([]);
      expect(
        (await call(app, 'GET', `/api/devices/UserLocationRights/${users.one!.id}`, { token: users.none!.token }))
          .status,
      ).toBe(404);
      expect(
        (
          await call(app, 'GET', `/api/devices/UserLocationRights/${users.operator!.id}`, {
            token: users.admin!.token,
          })
        ).status,
      ).toBe(404);
      expect(
        (await call(app, 'GET', `/api/devices/UserLocationRights/${users.one!.id}`, { token: users.admin!.token }))
          .status,
      ).toBe(200);
      expect((await call(app, 'GET', `/api/devices/UserLocationRights/${users.one!.id}`)).status).toBe(401);
    });
  });

  describe('GET /api/devices/GetDeviceTypeLookUp', () => {
    it('lists the five device types for any signed-in user', async () => {
      expect((await call(app, 'GET', '/api/devices/GetDeviceTypeLookUp')).status).toBe(401);
      const res = await call(app, 'GET', '/api/devices/GetDeviceTypeLookUp', { token: users.none!.token });
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
      const res = await call(app, 'GET', '/api/locationData/getAllObjects?city=VIL&pageSize=1&page=2', { token: op });
      expect(res.body).toMatchObject({ Total: 2, PerPage: 1, CurrentPage: 2, LastPage: 2, From: 2, To: 2 });
      expect(res.body.Data[0]).toMatchObject({ City: 'Vilnius', Building: '14', ObjectCode: 'OBJ-V14' });
      const street = await call(app, 'GET', '/api/locationData/getAllObjects?street=laisv%C4%97s', { token: op });
      expect(street.body.Data.map((r: { Building: string }) => r.Building)).toEqual(['3']);
      // LIKE wildcards in input are literal.
      expect((await call(app, 'GET', '/api/locationData/getAllObjects?city=%25', { token: op })).body.Total).toBe(0);
    });
    it('suggests distinct names by prefix, ignoring case, at most 10', async () => {
      const op = users.operator!.token;
      expect((await call(app, 'GET', '/api/locationData/City?search=ka', { token: op })).body).toEqual(['Kaunas']);
      expect((await call(app, 'GET', '/api/locationData/Street?search=GED', { token: op })).body).toEqual([
        'Gedimino pr.',
      ]);
      expect((await call(app, 'GET', '/api/locationData/Country?search=li', { token: op })).body).toEqual(['Lietuva']);
      // A user granted one building sees its city as a filter value.
      expect((await call(app, 'GET', '/api/locationData/City?search=v', { token: users.one!.token })).body).toEqual([
        'Vilnius',
      ]);
      expect((await call(app, 'GET', '/api/locationData/City?search=k', { token: users.one!.token })).body).toEqual([]);
      expect((await call(app, 'GET', '/api/locationData/City', { token: op })).status).toBe(400);
      expect((await call(app, 'GET', `/api/locationData/City?search=${'x'.repeat(300)}`, { token: op })).status).toBe(
        400,
      );
    });
    it('refuses huge page sizes', async () => {
      const res = await call(app, 'GET', '/api/locationData/getAllObjects?pageSize=1000000', {
        token: users.operator!.token,
      });
      expect(res.status).toBe(400);
    });
  });
});
