import type { DeviceRow } from '@rodmenys/contract';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn } from '../test/factories.js';

// The location tree as group 1 edits and searches it (docs/master-data.md): names, flat order, floor
// area, a flat's client, browsing and the address search.
describe(`master data: locations (${dbKind()})`, () => {
  const t = useApp();
  let operator: { id: number; token: string; username: string };
  let user: string;
  let building: number;
  let flat: number;
  let flat2: number;

  beforeAll(async () => {
    const place = await makeBuilding(t.db, { city: 'Vilnius', street: 'Gedimino pr.', number: '12' });
    building = place.id;
    const one = await makeFlat(t.db, place, { name: '1', order: 1 });
    flat = one.id;
    flat2 = (await makeFlat(t.db, place, { name: '2', order: 2 })).id;
    await makeDevice(t.db, one, { typeId: DEVICE_TYPE.coldWaterMeter });
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator, username: 'operatorius' });
    user = (await makeSignedIn(t.app, { groupId: GROUP.user, rights: [building] })).token;
  }, 120_000);

  describe('PUT /api/masterData/locations/:id and /client', () => {
    it('renames a street: every address below follows', async () => {
      const street = (
        await inject(t.app, contract.getLocation, { params: { id: building }, token: operator.token })
      ).body.Ancestors.at(-1)!.Id;
      const res = await inject(t.app, contract.updateLocation, {
        params: { id: street },
        token: operator.token,
        body: { name: 'Gedimino prospektas' },
      });
      expect(res.status).toBe(200);
      expect(res.body.Name).toBe('Gedimino prospektas');
      const { rows } = await t.db.query<{ street: string }>(
        'SELECT DISTINCT street FROM location WHERE path && ARRAY[$1::int]',
        [street],
      );
      expect(rows).toEqual([{ street: 'Gedimino prospektas' }]);
      const devices = await inject(t.app, contract.getDeviceDataByUserId, { token: user });
      expect(new Set((devices.body as DeviceRow[]).map((d) => d.Street))).toEqual(new Set(['Gedimino prospektas']));
    });

    it('refuses a name a sibling has (409) and a blank one (400); sets a flat order', async () => {
      expect(
        (
          await inject(t.app, contract.updateLocation, {
            params: { id: flat },
            token: operator.token,
            body: { name: '2' },
          })
        ).status,
      ).toBe(409);
      expect(
        (
          await inject(t.app, contract.updateLocation, {
            params: { id: flat },
            token: operator.token,
            body: { name: '  ' },
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await inject(t.app, contract.updateLocation, {
            params: { id: building },
            token: operator.token,
            body: { flatOrder: 3 },
          })
        ).status,
      ).toBe(400);
      const res = await inject(t.app, contract.updateLocation, {
        params: { id: flat },
        token: operator.token,
        body: { flatOrder: 5 },
      });
      expect(res.body.FlatOrder).toBe(5);
      // The floor area: a flat's only, positive, null clears it; audited.
      const area = await inject(t.app, contract.updateLocation, {
        params: { id: flat },
        token: operator.token,
        body: { areaM2: 54.25 },
      });
      expect(area.body).toMatchObject({ AreaM2: 54.25, FlatOrder: 5 });
      const onBuilding = await inject(t.app, contract.updateLocation, {
        params: { id: building },
        token: operator.token,
        body: { areaM2: 500 },
      });
      expect(onBuilding.status).toBe(400);
      expect(onBuilding.error).toMatchObject({ code: 'areaOnlyFlat', errors: [{ field: 'areaM2' }] });
      const zero = await inject(t.app, contract.updateLocation, {
        params: { id: flat },
        token: operator.token,
        body: { areaM2: 0 },
      });
      expect(zero.status).toBe(400);
      expect(zero.error.errors![0]!.field).toBe('areaM2');
      const cleared = await inject(t.app, contract.updateLocation, {
        params: { id: flat },
        token: operator.token,
        body: { areaM2: null },
      });
      expect(cleared.body.AreaM2).toBeNull();
      const audited = await t.db.query<{ before: { AreaM2: number | null }; after: { AreaM2: number | null } }>(
        "SELECT before, after FROM audit_log WHERE kind = 'location.update' AND entity_id = $1 ORDER BY id",
        [String(flat)],
      );
      expect(audited.rows.map((r) => r.after.AreaM2)).toEqual(expect.arrayContaining([54.25, null]));
    });

    it("sets a flat's client: an existing code, a new one with a name, none", async () => {
      const created = await inject(t.app, contract.setFlatClient, {
        params: { id: flat },
        token: operator.token,
        body: {
          clientCode: 'K-1',
          clientName: 'Jonas Jonaitis',
        },
      });
      expect(created.body).toMatchObject({ ClientCode: 'K-1', ClientName: 'Jonas Jonaitis' });
      const moved = await inject(t.app, contract.setFlatClient, {
        params: { id: flat2 },
        token: operator.token,
        body: { clientCode: 'K-1' },
      });
      expect(moved.body.ClientCode).toBe('K-1');
      expect(
        (
          await inject(t.app, contract.setFlatClient, {
            params: { id: flat2 },
            token: operator.token,
            body: { clientCode: 'K-404' },
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await inject(t.app, contract.setFlatClient, {
            params: { id: building },
            token: operator.token,
            body: { clientCode: 'K-1' },
          })
        ).status,
      ).toBe(400);
      const clients = await inject(t.app, contract.searchClients, { query: 'search=k-', token: operator.token });
      expect(clients.body).toEqual([
        { Id: expect.any(Number), ClientCode: 'K-1', ClientName: 'Jonas Jonaitis', FlatCount: 2 },
      ]);
      const none = await inject(t.app, contract.setFlatClient, {
        params: { id: flat2 },
        token: operator.token,
        body: { clientCode: null },
      });
      expect(none.body.ClientCode).toBeNull();
    });

    it('browses the tree from the countries down to the flats', async () => {
      const countries = await inject(t.app, contract.listLocationChildren, { token: operator.token });
      expect(countries.body.map((n: { Name: string }) => n.Name)).toEqual(['Lietuva']);
      const flats = await inject(t.app, contract.listLocationChildren, {
        query: `parentId=${building}`,
        token: operator.token,
      });
      expect(flats.body.map((n: { Name: string; Level: number }) => [n.Name, n.Level])).toEqual([
        ['2', 7],
        ['1', 7],
      ]);
    });
  });

  describe('GET /api/masterData/locations/search', () => {
    beforeAll(async () => {
      const three = await makeBuilding(t.db, { city: 'Kaunas', street: 'Architektų g.', number: '3' });
      await makeFlat(t.db, three, { name: '12', order: 12 });
      await makeFlat(t.db, three, { name: '2', order: 2 });
      await makeFlat(t.db, await makeBuilding(t.db, { city: 'Kaunas', street: 'Architektų g.', number: '13' }), {
        name: '12',
      });
    });
    const search = async (text: string) => {
      const res = await inject(t.app, contract.searchLocations, {
        query: `text=${encodeURIComponent(text)}`,
        token: operator.token,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as contract.LocationNode[]).map((n) => n.Path);
    };

    it('finds buildings first, then flats, by the start of address words, in any order and case', async () => {
      // A word matches the start of an address word: 3 is not 13.
      expect(await search('ARCHITEKTŲ 3')).toEqual([
        'Kaunas m. sav., Kaunas, Architektų g. 3',
        'Kaunas m. sav., Kaunas, Architektų g. 3-2',
        'Kaunas m. sav., Kaunas, Architektų g. 3-12',
      ]);
      expect(await search('archit 1')).toEqual([
        'Kaunas m. sav., Kaunas, Architektų g. 13',
        'Kaunas m. sav., Kaunas, Architektų g. 3-12',
        'Kaunas m. sav., Kaunas, Architektų g. 13-12',
      ]);
      expect(await search('3-12 architektų')).toEqual(['Kaunas m. sav., Kaunas, Architektų g. 3-12']);
      // Neither countries nor streets, and LIKE wildcards are plain text.
      expect(await search('Kaunas')).not.toContain('Kaunas m. sav., Kaunas, Architektų g.');
      expect(await search('%')).toEqual([]);
      expect(await search('Architektų g. 3 nėra')).toEqual([]);
    });

    it('answers 400 naming the field for a blank or too long text', async () => {
      for (const text of ['', '   ', 'x'.repeat(101)]) {
        const res = await inject(t.app, contract.searchLocations, {
          query: `text=${encodeURIComponent(text)}`,
          token: operator.token,
        });
        expect(res.status, text).toBe(400);
        expect(JSON.stringify(res.body), text).toContain('text');
      }
    });
  });
});
