import * as contract from '@rodmenys/contract';
import { GROUP, LOCATION_LEVEL } from '@rodmenys/contract';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, inject, injectUrl, testConfig, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeSignedIn, type SignedIn } from '../test/factories.js';

describe(`users API (${dbKind()})`, () => {
  const t = useApp();
  let operator: SignedIn;
  let admin: SignedIn;
  let building: number;
  let otherBuilding: number;

  beforeAll(async () => {
    building = (await makeBuilding(t.db, { city: 'Vilnius', street: 'Gedimino pr.', number: '12' })).id;
    otherBuilding = (await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: '3' })).id;
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    admin = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [building] });
  });

  describe('POST /api/users/register', () => {
    it('creates a group 3 account and never returns the password hash', async () => {
      const res = await inject(t.app, contract.register, {
        body: {
          firstName: ' Rūta ',
          lastName: 'Žemaitė',
          username: 'ruta',
          password: 'slaptas1',
          email: 'ruta@example.lt',
        },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        Username: 'ruta',
        FirstName: 'Rūta',
        LastName: 'Žemaitė',
        GroupId: GROUP.user,
        Active: true,
      });
      expect(JSON.stringify(res.body)).not.toMatch(/scrypt|password/i);
      const stored = await t.db.query<{ password_hash: string }>(
        "SELECT password_hash FROM app_user WHERE username = 'ruta'",
      );
      expect(stored.rows[0]!.password_hash).toMatch(/^scrypt\$/);
      expect(stored.rows[0]!.password_hash).not.toContain('slaptas1');
    });
    it('refuses a user name taken in any letter case', async () => {
      const res = await inject(t.app, contract.register, {
        body: { firstName: 'A', lastName: 'B', username: 'RUTA', password: 'slaptas1' },
      });
      expect(res.status).toBe(400);
      expect(res.error.message).toMatch(/already taken/);
      expect(res.error.errors![0]!.field).toBe('username');
    });
    it('names every field at fault: missing names, short password', async () => {
      const res = await inject(t.app, contract.register, { payload: { username: 'x', password: '12345' } });
      expect(res.status).toBe(400);
      const fields = res.error.errors!.map((e: { field: string }) => e.field).sort();
      expect(fields).toEqual(['firstName', 'lastName', 'password']);
    });
    it('refuses blank names and a body that is not JSON', async () => {
      expect(
        (
          await inject(t.app, contract.register, {
            body: { firstName: '  ', lastName: 'B', username: 'blank', password: 'slaptas1' },
          })
        ).status,
      ).toBe(400);
      const res = await inject(t.app, contract.register, {
        payload: '{"firstName":',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
    });
  });

  describe('POST /api/users/authenticate', () => {
    it('signs in with the fields of docs/domain.md §11; SignedIn is the previous sign-in', async () => {
      const first = await inject(t.app, contract.authenticate, { body: { username: 'Ruta', password: 'slaptas1' } });
      expect(first.status).toBe(200);
      expect(Object.keys(first.body).sort()).toEqual(
        [
          'Email',
          'Expires',
          'FirstName',
          'GroupId',
          'Id',
          'LastName',
          'Phone',
          'SignedIn',
          'TimeZone',
          'Token',
          'Username',
        ].sort(),
      );
      expect(first.body.SignedIn).toBeNull();
      // The provider's zone, for the client's default days and times.
      expect(first.body.TimeZone).toBe('Europe/Vilnius');
      const second = await inject(t.app, contract.authenticate, { body: { username: 'ruta', password: 'slaptas1' } });
      expect(second.body.SignedIn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
      expect(Date.parse(second.body.Expires)).toBeGreaterThan(Date.now());
    });
    it('answers a wrong password and an unknown user alike: 400 with one message', async () => {
      const wrong = await inject(t.app, contract.authenticate, { body: { username: 'ruta', password: 'nope-nope' } });
      const unknown = await inject(t.app, contract.authenticate, {
        body: { username: 'nobody', password: 'nope-nope' },
      });
      expect(wrong.status).toBe(400);
      expect(unknown.status).toBe(400);
      expect(wrong.body).toEqual(unknown.body);
    });
    it('requires both fields', async () => {
      const res = await inject(t.app, contract.authenticate, { payload: { username: '' } });
      expect(res.status).toBe(400);
    });
    it('limits sign-in attempts per address', async () => {
      const limited = await buildTestApp(t.db, { loginRateLimit: 3 });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push(
          (await inject(limited, contract.authenticate, { body: { username: `ip${i}`, password: 'x' } })).status,
        );
      }
      expect(statuses).toEqual([400, 400, 400, 429, 429]);
      await limited.close();
    });
  });

  describe('tokens', () => {
    it('refuses a missing, malformed, forged or expired token with 401', async () => {
      expect((await inject(t.app, contract.getUser, { params: { id: operator.id } })).status).toBe(401);
      expect((await inject(t.app, contract.getUser, { params: { id: operator.id }, token: 'garbage' })).status).toBe(
        401,
      );
      const forged = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(operator.id))
        .setJti('x')
        .setIssuer('rodmenys')
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
      expect((await inject(t.app, contract.getUser, { params: { id: operator.id }, token: forged })).status).toBe(401);
      const expired = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(operator.id))
        .setJti('y')
        .setIssuer('rodmenys')
        .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
        .sign(testConfig().tokenSecret);
      const res = await inject(t.app, contract.getUser, { params: { id: operator.id }, token: expired });
      expect(res.status).toBe(401);
      expect(res.error.message).toBeTruthy();
    });
  });

  describe('POST /api/users/logout', () => {
    it('makes the token stop working at once', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      expect((await inject(t.app, contract.getUser, { params: { id: u.id }, token: u.token })).status).toBe(200);
      expect((await inject(t.app, contract.logout, { token: u.token })).status).toBe(200);
      expect((await inject(t.app, contract.getUser, { params: { id: u.id }, token: u.token })).status).toBe(401);
      expect((await inject(t.app, contract.logout)).status).toBe(401);
    });
  });

  describe('GET /api/users/:id', () => {
    it('lets users read themselves and managers the accounts in reach; 404 for the rest', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      expect((await inject(t.app, contract.getUser, { params: { id: u.id }, token: u.token })).body.Id).toBe(u.id);
      expect((await inject(t.app, contract.getUser, { params: { id: operator.id }, token: u.token })).status).toBe(404);
      expect((await inject(t.app, contract.getUser, { params: { id: operator.id }, token: admin.token })).status).toBe(
        404,
      );
      expect((await inject(t.app, contract.getUser, { params: { id: u.id }, token: admin.token })).status).toBe(200);
      expect((await inject(t.app, contract.getUser, { params: { id: u.id }, token: operator.token })).status).toBe(200);
    });
    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      expect((await inject(t.app, contract.getUser, { params: { id: 987654 }, token: operator.token })).status).toBe(
        404,
      );
      expect((await inject(t.app, contract.getUser, { params: { id: 'abc' }, token: operator.token })).status).toBe(
        400,
      );
      expect(
        (await inject(t.app, contract.getUser, { params: { id: 99999999999 }, token: operator.token })).status,
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
            params: { id: operator.id },
            token: u.token,
            body: { firstName: 'X' },
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: admin.id },
            token: admin.token,
            body: { groupId: GROUP.user },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: u.id },
            token: admin.token,
            body: { groupId: GROUP.operator },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: operator.id },
            token: admin.token,
            body: { active: false },
          })
        ).status,
      ).toBe(404);
      // Group 2 never makes anyone group 1 or 2; group 1 does.
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: u.id },
            token: admin.token,
            body: { groupId: GROUP.admin },
          })
        ).status,
      ).toBe(403);
      const promoted = await inject(t.app, contract.updateUser, {
        params: { id: u.id },
        token: operator.token,
        body: { groupId: GROUP.admin },
      });
      expect(promoted.body.GroupId).toBe(2);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: u.id },
            token: operator.token,
            body: { groupId: GROUP.operator },
          })
        ).body.GroupId,
      ).toBe(1);
    });
    it('deactivating an account stops its token at once', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      const res = await inject(t.app, contract.updateUser, {
        params: { id: u.id },
        token: admin.token,
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
            params: { id: admin.id },
            token: admin.token,
            payload: { groupId: 7 },
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: admin.id },
            token: admin.token,
            payload: { active: 'yes' },
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: 987654 },
            token: operator.token,
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
        (await inject(t.app, contract.deleteUser, { params: { id: operator.id }, token: admin.token })).status,
      ).toBe(404);
      expect((await inject(t.app, contract.deleteUser, { params: { id: u.id }, token: admin.token })).status).toBe(200);
      expect((await inject(t.app, contract.getUser, { params: { id: u.id }, token: u.token })).status).toBe(401);
      expect((await inject(t.app, contract.deleteUser, { params: { id: u.id }, token: admin.token })).status).toBe(404);
    });
  });

  describe('GET /api/users/getAll', () => {
    it('pages for groups 1 and 2 only', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      expect((await inject(t.app, contract.getAllUsers, { token: u.token })).status).toBe(403);
      expect((await inject(t.app, contract.getAllUsers)).status).toBe(401);
      const all = await inject(t.app, contract.getAllUsers, { query: { pageSize: 500 }, token: operator.token });
      const total = all.body.Total as number;
      expect(all.body.Data).toHaveLength(total);
      const page2 = await inject(t.app, contract.getAllUsers, {
        query: { page: 2, pageSize: 2 },
        token: operator.token,
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
        token: operator.token,
      });
      expect(beyond.body).toMatchObject({ Data: [], Total: total, From: 0, To: 0 });
      const found = await inject(t.app, contract.getAllUsers, { query: { search: 'RUT' }, token: operator.token });
      expect(found.body.Data.map((d: { Username: string }) => d.Username)).toEqual(['ruta']);
    });
    it('waiting=true lists the accounts waiting for access; granting rights takes them off', async () => {
      const registered = await inject(t.app, contract.register, {
        body: { username: 'naujokas', password: 'secret12', firstName: 'Naujas', lastName: 'Narys' },
      });
      expect(registered.status).toBe(201);
      const granted = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [building] });
      const off = await makeSignedIn(t.app, { groupId: GROUP.user });
      await inject(t.app, contract.updateUser, {
        params: { id: off.id },
        token: operator.token,
        body: { active: false },
      });
      const waiting = async (token: string) =>
        (await inject(t.app, contract.getAllUsers, { query: { waiting: true, pageSize: 500 }, token })).body.Data.map(
          (d) => d.Username,
        );
      const list = await waiting(operator.token);
      expect(list[0]).toBe('naujokas');
      expect(list).not.toContain(granted.username);
      expect(list).not.toContain(off.username);
      expect(list).not.toContain(operator.username);
      expect(await waiting(admin.token)).toContain('naujokas');
      // One step: the rights endpoint grants, and the account is no longer waiting.
      const id = registered.body.Id;
      const grant = await inject(t.app, contract.setUserRights, {
        params: { id },
        token: admin.token,
        body: { locationIds: [building] },
      });
      expect(grant.status).toBe(200);
      expect(await waiting(operator.token)).not.toContain('naujokas');
    });
    it('refuses huge page sizes and page 0', async () => {
      expect(
        (await inject(t.app, contract.getAllUsers, { query: { pageSize: 100000 }, token: operator.token })).status,
      ).toBe(400);
      expect((await inject(t.app, contract.getAllUsers, { query: { page: 0 }, token: operator.token })).status).toBe(
        400,
      );
    });
  });

  describe('/api/users/:id/rights', () => {
    it('lets managers grant locations; group 2 only inside its own scope', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      const granted = await inject(t.app, contract.setUserRights, {
        params: { id: u.id },
        token: admin.token,
        body: { locationIds: [building] },
      });
      expect(granted.status).toBe(200);
      expect(granted.body).toEqual([
        { LocationId: building, Level: LOCATION_LEVEL.building, Path: 'Vilnius m. sav., Vilnius, Gedimino pr. 12' },
      ]);
      expect((await inject(t.app, contract.getUserRights, { params: { id: u.id }, token: u.token })).body).toEqual(
        granted.body,
      );
      const outside = await inject(t.app, contract.setUserRights, {
        params: { id: u.id },
        token: admin.token,
        body: { locationIds: [otherBuilding] },
      });
      // Outside the scope answers as an unknown id: its existence is not revealed.
      expect(outside.status).toBe(400);
      expect(outside.error.errors![0]!.field).toBe('locationIds');
      const both = await inject(t.app, contract.setUserRights, {
        params: { id: u.id },
        token: operator.token,
        body: { locationIds: [building, otherBuilding] },
      });
      expect(both.body).toHaveLength(2);
      // Now u's rights reach outside group 2's scope: u is out of its reach.
      expect(
        (
          await inject(t.app, contract.setUserRights, {
            params: { id: u.id },
            token: admin.token,
            body: { locationIds: [] },
          })
        ).status,
      ).toBe(404);
      expect((await inject(t.app, contract.getUserRights, { params: { id: u.id }, token: admin.token })).status).toBe(
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
            body: { locationIds: [building] },
          })
        ).status,
      ).toBe(403);
      expect((await inject(t.app, contract.getUserRights, { params: { id: admin.id }, token: u.token })).status).toBe(
        404,
      );
      const unknown = await inject(t.app, contract.setUserRights, {
        params: { id: u.id },
        token: operator.token,
        body: { locationIds: [987654] },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.error.message).toMatch(/987654/);
      expect(
        (
          await inject(t.app, contract.setUserRights, {
            params: { id: u.id },
            token: operator.token,
            body: { locationIds: [building, building] },
          })
        ).status,
      ).toBe(400);
    });
  });

  describe('errors', () => {
    it('answers unknown endpoints with a JSON 404 and never leaks internals', async () => {
      const res = await injectUrl(t.app, 'GET', '/api/nothing-here', { token: operator.token });
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
