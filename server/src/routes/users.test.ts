import * as contract from '@rodmenys/contract';
import { GROUP, LOCATION_LEVEL } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { inject, injectUrl, useApp, useUsersWorld } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeSignedIn, makeUser } from '../test/factories.js';

// Reading, changing, deleting and listing users and their rights (docs/security.md).
describe(`users API: administration (${dbKind()})`, () => {
  const t = useApp();
  const w = useUsersWorld(t);

  describe('GET /api/users/:id', () => {
    it('lets users read themselves and managers the accounts in reach; 404 for the rest', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      expect((await inject(t.app, contract.getUser, { params: { id: u.id }, token: u.token })).body.Id).toBe(u.id);
      expect((await inject(t.app, contract.getUser, { params: { id: w.operator.id }, token: u.token })).status).toBe(
        404,
      );
      expect(
        (await inject(t.app, contract.getUser, { params: { id: w.operator.id }, token: w.admin.token })).status,
      ).toBe(404);
      expect((await inject(t.app, contract.getUser, { params: { id: u.id }, token: w.admin.token })).status).toBe(200);
      expect((await inject(t.app, contract.getUser, { params: { id: u.id }, token: w.operator.token })).status).toBe(
        200,
      );
    });
    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      expect((await inject(t.app, contract.getUser, { params: { id: 987654 }, token: w.operator.token })).status).toBe(
        404,
      );
      expect((await inject(t.app, contract.getUser, { params: { id: 'abc' }, token: w.operator.token })).status).toBe(
        400,
      );
      expect(
        (await inject(t.app, contract.getUser, { params: { id: 99999999999 }, token: w.operator.token })).status,
      ).toBe(400);
    });
  });

  describe('PUT /api/users/:id', () => {
    it('changes your own names and contacts', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      const res = await inject(t.app, contract.updateUser, {
        params: { id: u.id },
        token: u.token,
        body: { firstName: 'Ąžuolas', phone: '+37060000000', email: null },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ FirstName: 'Ąžuolas', LastName: 'User', Phone: '+37060000000', Email: null });
    });
    it('needs the current password to change your own', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user, password: 'old-pass1' });
      const wrong = await inject(t.app, contract.updateUser, {
        params: { id: u.id },
        token: u.token,
        body: { password: 'new-pass1', currentPassword: 'bad' },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.error.errors![0]!.field).toBe('currentPassword');
      const ok = await inject(t.app, contract.updateUser, {
        params: { id: u.id },
        token: u.token,
        body: { password: 'new-pass1', currentPassword: 'old-pass1' },
      });
      expect(ok.status).toBe(200);
      const signIn = await inject(t.app, contract.authenticate, {
        body: { username: u.username, password: 'new-pass1' },
      });
      expect(signIn.status).toBe(200);
    });
    it('keeps groups and the active flag for managers, never on themselves', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: u.id },
            token: u.token,
            body: { groupId: GROUP.admin },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: w.operator.id },
            token: u.token,
            body: { firstName: 'X' },
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: w.admin.id },
            token: w.admin.token,
            body: { groupId: GROUP.user },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: u.id },
            token: w.admin.token,
            body: { groupId: GROUP.operator },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: w.operator.id },
            token: w.admin.token,
            body: { active: false },
          })
        ).status,
      ).toBe(404);
      // Group 2 never makes anyone group 1 or 2; group 1 does.
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: u.id },
            token: w.admin.token,
            body: { groupId: GROUP.admin },
          })
        ).status,
      ).toBe(403);
      const promoted = await inject(t.app, contract.updateUser, {
        params: { id: u.id },
        token: w.operator.token,
        body: { groupId: GROUP.admin },
      });
      expect(promoted.body.GroupId).toBe(2);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: u.id },
            token: w.operator.token,
            body: { groupId: GROUP.operator },
          })
        ).body.GroupId,
      ).toBe(1);
    });
    it('deactivating an account stops its token at once', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      const res = await inject(t.app, contract.updateUser, {
        params: { id: u.id },
        token: w.admin.token,
        body: { active: false },
      });
      expect(res.body.Active).toBe(false);
      const refused = await inject(t.app, contract.getUser, { params: { id: u.id }, token: u.token });
      expect(refused.status).toBe(401);
      // Said as such, so that the web app can explain why the user was signed out.
      expect(refused.error.code).toBe('accountDeactivated');
      const signIn = await inject(t.app, contract.authenticate, {
        body: { username: u.username, password: u.password },
      });
      // The same answer as a wrong password: it confirms nothing.
      expect(signIn.status).toBe(400);
      const wrong = await inject(t.app, contract.authenticate, {
        body: { username: u.username, password: 'not-the-password' },
      });
      expect(signIn.body).toEqual(wrong.body);
    });
    it('refuses wrong types and unknown users', async () => {
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: w.admin.id },
            token: w.admin.token,
            payload: { groupId: 7 },
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: w.admin.id },
            token: w.admin.token,
            payload: { active: 'yes' },
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: 987654 },
            token: w.operator.token,
            body: { firstName: 'X' },
          })
        ).status,
      ).toBe(404);
    });
  });

  describe('DELETE /api/users/:id', () => {
    it('lets managers delete others, never themselves; the token stops working', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      expect((await inject(t.app, contract.deleteUser, { params: { id: u.id }, token: u.token })).status).toBe(400);
      const other = await makeSignedIn(t.app, { groupId: GROUP.user });
      expect((await inject(t.app, contract.deleteUser, { params: { id: other.id }, token: u.token })).status).toBe(403);
      expect(
        (await inject(t.app, contract.deleteUser, { params: { id: w.operator.id }, token: w.admin.token })).status,
      ).toBe(404);
      expect((await inject(t.app, contract.deleteUser, { params: { id: u.id }, token: w.admin.token })).status).toBe(
        200,
      );
      expect((await inject(t.app, contract.getUser, { params: { id: u.id }, token: u.token })).status).toBe(401);
      expect((await inject(t.app, contract.deleteUser, { params: { id: u.id }, token: w.admin.token })).status).toBe(
        404,
      );
    });
  });

  describe('GET /api/users/getAll', () => {
    it('pages for groups 1 and 2 only', async () => {
      await makeUser(t.db, { username: 'ruta' });
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      expect((await inject(t.app, contract.getAllUsers, { token: u.token })).status).toBe(403);
      expect((await inject(t.app, contract.getAllUsers)).status).toBe(401);
      const all = await inject(t.app, contract.getAllUsers, { query: { pageSize: 500 }, token: w.operator.token });
      const total = all.body.Total as number;
      expect(all.body.Data).toHaveLength(total);
      const page2 = await inject(t.app, contract.getAllUsers, {
        query: { page: 2, pageSize: 2 },
        token: w.operator.token,
      });
      expect(page2.body).toMatchObject({
        Total: total,
        PerPage: 2,
        CurrentPage: 2,
        LastPage: Math.ceil(total / 2),
        From: 3,
        To: 4,
      });
      expect(page2.body.Data.map((d: { Id: number }) => d.Id)).toEqual(
        all.body.Data.slice(2, 4).map((d: { Id: number }) => d.Id),
      );
      const beyond = await inject(t.app, contract.getAllUsers, {
        query: { page: 999, pageSize: 5 },
        token: w.operator.token,
      });
      expect(beyond.body).toMatchObject({ Data: [], Total: total, From: 0, To: 0 });
      const found = await inject(t.app, contract.getAllUsers, { query: { search: 'RUT' }, token: w.operator.token });
      expect(found.body.Data.map((d: { Username: string }) => d.Username)).toEqual(['ruta']);
    });
    it('waiting=true lists the accounts waiting for access; granting rights takes them off', async () => {
      const registered = await inject(t.app, contract.register, {
        body: { username: 'naujokas', password: 'secret12', firstName: 'Naujas', lastName: 'Narys' },
      });
      expect(registered.status).toBe(201);
      const granted = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [w.building] });
      const off = await makeSignedIn(t.app, { groupId: GROUP.user });
      await inject(t.app, contract.updateUser, {
        params: { id: off.id },
        token: w.operator.token,
        body: { active: false },
      });
      const waiting = async (token: string) =>
        (await inject(t.app, contract.getAllUsers, { query: { waiting: true, pageSize: 500 }, token })).body.Data.map(
          (d) => d.Username,
        );
      const list = await waiting(w.operator.token);
      expect(list[0]).toBe('naujokas');
      expect(list).not.toContain(granted.username);
      expect(list).not.toContain(off.username);
      expect(list).not.toContain(w.operator.username);
      expect(await waiting(w.admin.token)).toContain('naujokas');
      // One step: the rights endpoint grants, and the account is no longer waiting.
      const id = registered.body.Id;
      const grant = await inject(t.app, contract.setUserRights, {
        params: { id },
        token: w.admin.token,
        body: { locationIds: [w.building] },
      });
      expect(grant.status).toBe(200);
      expect(await waiting(w.operator.token)).not.toContain('naujokas');
    });
    it('refuses huge page sizes and page 0', async () => {
      expect(
        (await inject(t.app, contract.getAllUsers, { query: { pageSize: 100000 }, token: w.operator.token })).status,
      ).toBe(400);
      expect((await inject(t.app, contract.getAllUsers, { query: { page: 0 }, token: w.operator.token })).status).toBe(
        400,
      );
    });
  });

  describe('/api/users/:id/rights', () => {
    it('lets managers grant locations; group 2 only inside its own scope', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      const granted = await inject(t.app, contract.setUserRights, {
        params: { id: u.id },
        token: w.admin.token,
        body: { locationIds: [w.building] },
      });
      expect(granted.status).toBe(200);
      expect(granted.body).toEqual([
        { LocationId: w.building, Level: LOCATION_LEVEL.building, Path: 'Vilnius m. sav., Vilnius, Gedimino pr. 12' },
      ]);
      expect((await inject(t.app, contract.getUserRights, { params: { id: u.id }, token: u.token })).body).toEqual(
        granted.body,
      );
      const outside = await inject(t.app, contract.setUserRights, {
        params: { id: u.id },
        token: w.admin.token,
        body: { locationIds: [w.otherBuilding] },
      });
      // Outside the scope answers as an unknown id: its existence is not revealed.
      expect(outside.status).toBe(400);
      expect(outside.error.errors![0]!.field).toBe('locationIds');
      const both = await inject(t.app, contract.setUserRights, {
        params: { id: u.id },
        token: w.operator.token,
        body: { locationIds: [w.building, w.otherBuilding] },
      });
      expect(both.body).toHaveLength(2);
      // Now u's rights reach outside group 2's scope: u is out of its reach.
      expect(
        (
          await inject(t.app, contract.setUserRights, {
            params: { id: u.id },
            token: w.admin.token,
            body: { locationIds: [] },
          })
        ).status,
      ).toBe(404);
      expect((await inject(t.app, contract.getUserRights, { params: { id: u.id }, token: w.admin.token })).status).toBe(
        404,
      );
    });
    it('refuses users, unknown locations and duplicates', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      expect(
        (
          await inject(t.app, contract.setUserRights, {
            params: { id: u.id },
            token: u.token,
            body: { locationIds: [w.building] },
          })
        ).status,
      ).toBe(403);
      expect((await inject(t.app, contract.getUserRights, { params: { id: w.admin.id }, token: u.token })).status).toBe(
        404,
      );
      const unknown = await inject(t.app, contract.setUserRights, {
        params: { id: u.id },
        token: w.operator.token,
        body: { locationIds: [987654] },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.error.message).toMatch(/987654/);
      expect(
        (
          await inject(t.app, contract.setUserRights, {
            params: { id: u.id },
            token: w.operator.token,
            body: { locationIds: [w.building, w.building] },
          })
        ).status,
      ).toBe(400);
    });
  });

  describe('errors', () => {
    it('answers unknown endpoints with a JSON 404 and never leaks internals', async () => {
      const res = await injectUrl(t.app, 'GET', '/api/nothing-here', { token: w.operator.token });
      expect(res.status).toBe(404);
      expect(res.error.message).toMatch(/No such endpoint/);
    });
    it('serves the OpenAPI document with every endpoint', async () => {
      const res = await injectUrl(t.app, 'GET', '/api/docs/json');
      expect(res.status).toBe(200);
      const doc = res.body as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toMatch(/^3\./);
      for (const path of [
        '/api/users/authenticate',
        '/api/devices/GetDevicesData',
        '/api/locationData/getAllObjects',
      ]) {
        expect(Object.keys(doc.paths)).toContain(path);
      }
    });
  });
});
