import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.js';
import { buildTestApp, call, testConfig } from '../test/app.js';
import { createTestDb, dbKind } from '../test/db.js';
import { address, createPath, createUser } from '../test/fixtures.js';

describe(`users API (${dbKind()})`, () => {
  let db: Db;
  let app: FastifyInstance;
  let operator: Awaited<ReturnType<typeof createUser>>;
  let admin: Awaited<ReturnType<typeof createUser>>;
  let building: number;
  let otherBuilding: number;

  beforeAll(async () => {
    db = await createTestDb();
    app = await buildTestApp(db);
    building = (await createPath(db, address('Vilnius', 'Gedimino pr.', '12'))).at(-1)!;
    otherBuilding = (await createPath(db, address('Kaunas', 'Laisvės al.', '3'))).at(-1)!;
    operator = await createUser(app, { groupId: 1 });
    admin = await createUser(app, { groupId: 2, rights: [building] });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  describe('POST /api/users/register', () => {
    it('creates a group 3 account and never returns the password hash', async () => {
      const res = await call(app, 'POST', '/api/users/register', {
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
        GroupId: 3,
        Active: true,
      });
      expect(JSON.stringify(res.body)).not.toMatch(/scrypt|password/i);
      const stored = await db.query<{ password_hash: string }>(
        "SELECT password_hash FROM app_user WHERE username = 'ruta'",
      );
      expect(stored.rows[0]!.password_hash).toMatch(/^scrypt\$/);
      expect(stored.rows[0]!.password_hash).not.toContain('slaptas1');
    });
    it('refuses a user name taken in any letter case', async () => {
      const res = await call(app, 'POST', '/api/users/register', {
        body: { firstName: 'A', lastName: 'B', username: 'RUTA', password: 'slaptas1' },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/already taken/);
      expect(res.body.errors[0].field).toBe('username');
    });
    it('names every field at fault: missing names, short password', async () => {
      const res = await call(app, 'POST', '/api/users/register', { body: { username: 'x', password: '12345' } });
      expect(res.status).toBe(400);
      const fields = res.body.errors.map((e: { field: string }) => e.field).sort();
      expect(fields).toEqual(['firstName', 'lastName', 'password']);
    });
    it('refuses blank names and a body that is not JSON', async () => {
      expect(
        (
          await call(app, 'POST', '/api/users/register', {
            body: { firstName: '  ', lastName: 'B', username: 'blank', password: 'slaptas1' },
          })
        ).status,
      ).toBe(400);
      const res = await call(app, 'POST', '/api/users/register', {
        body: '{"firstName":',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
    });
  });

  describe('POST /api/users/authenticate', () => {
    it('signs in with the fields of docs/domain.md §11; SignedIn is the previous sign-in', async () => {
      const first = await call(app, 'POST', '/api/users/authenticate', {
        body: { username: 'Ruta', password: 'slaptas1' },
      });
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
      const second = await call(app, 'POST', '/api/users/authenticate', {
        body: { username: 'ruta', password: 'slaptas1' },
      });
      expect(second.body.SignedIn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
      expect(Date.parse(second.body.Expires)).toBeGreaterThan(Date.now());
    });
    it('answers a wrong password and an unknown user alike: 400 with one message', async () => {
      const wrong = await call(app, 'POST', '/api/users/authenticate', {
        body: { username: 'ruta', password: 'nope-nope' },
      });
      const unknown = await call(app, 'POST', '/api/users/authenticate', {
        body: { username: 'nobody', password: 'nope-nope' },
      });
      expect(wrong.status).toBe(400);
      expect(unknown.status).toBe(400);
      expect(wrong.body).toEqual(unknown.body);
    });
    it('requires both fields', async () => {
      const res = await call(app, 'POST', '/api/users/authenticate', { body: { username: '' } });
      expect(res.status).toBe(400);
    });
    it('limits sign-in attempts per address', async () => {
      const limited = await buildTestApp(db, { loginRateLimit: 3 });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push(
          (await call(limited, 'POST', '/api/users/authenticate', { body: { username: `ip${i}`, password: 'x' } }))
            .status,
        );
      }
      expect(statuses).toEqual([400, 400, 400, 429, 429]);
      await limited.close();
    });
  });

  describe('tokens', () => {
    it('refuses a missing, malformed, forged or expired token with 401', async () => {
      expect((await call(app, 'GET', `/api/users/${operator.id}`)).status).toBe(401);
      expect((await call(app, 'GET', `/api/users/${operator.id}`, { token: 'garbage' })).status).toBe(401);
      const forged = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(operator.id))
        .setJti('x')
        .setIssuer('rodmenys')
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
      expect((await call(app, 'GET', `/api/users/${operator.id}`, { token: forged })).status).toBe(401);
      const expired = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(operator.id))
        .setJti('y')
        .setIssuer('rodmenys')
        .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
        .sign(testConfig().tokenSecret);
      const res = await call(app, 'GET', `/api/users/${operator.id}`, { token: expired });
      expect(res.status).toBe(401);
      expect(res.body.message).toBeTruthy();
    });
  });

  describe('POST /api/users/logout', () => {
    it('makes the token stop working at once', async () => {
      const u = await createUser(app, { groupId: 3 });
      expect((await call(app, 'GET', `/api/users/${u.id}`, { token: u.token })).status).toBe(200);
      expect((await call(app, 'POST', '/api/users/logout', { token: u.token })).status).toBe(200);
      expect((await call(app, 'GET', `/api/users/${u.id}`, { token: u.token })).status).toBe(401);
      expect((await call(app, 'POST', '/api/users/logout')).status).toBe(401);
    });
  });

  describe('GET /api/users/:id', () => {
    it('lets users read themselves and managers the accounts in reach; 404 for the rest', async () => {
      const u = await createUser(app, { groupId: 3 });
      expect((await call(app, 'GET', `/api/users/${u.id}`, { token: u.token })).body.Id).toBe(u.id);
      expect((await call(app, 'GET', `/api/users/${operator.id}`, { token: u.token })).status).toBe(404);
      expect((await call(app, 'GET', `/api/users/${operator.id}`, { token: admin.token })).status).toBe(404);
      expect((await call(app, 'GET', `/api/users/${u.id}`, { token: admin.token })).status).toBe(200);
      expect((await call(app, 'GET', `/api/users/${u.id}`, { token: operator.token })).status).toBe(200);
    });
    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      expect((await call(app, 'GET', '/api/users/987654', { token: operator.token })).status).toBe(404);
      expect((await call(app, 'GET', '/api/users/abc', { token: operator.token })).status).toBe(400);
      expect((await call(app, 'GET', '/api/users/99999999999', { token: operator.token })).status).toBe(400);
    });
  });

  describe('PUT /api/users/:id', () => {
    it('changes your own names and contacts', async () => {
      const u = await createUser(app, { groupId: 3 });
      const res = await call(app, 'PUT', `/api/users/${u.id}`, {
        token: u.token,
        body: { firstName: 'Ąžuolas', phone: '+37060000000', email: null },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ FirstName: 'Ąžuolas', LastName: 'User', Phone: '+37060000000', Email: null });
    });
    it('needs the current password to change your own', async () => {
      const u = await createUser(app, { groupId: 3, password: 'old-pass1' });
      const wrong = await call(app, 'PUT', `/api/users/${u.id}`, {
        token: u.token,
        body: { password: 'new-pass1', currentPassword: 'bad' },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors[0].field).toBe('currentPassword');
      const ok = await call(app, 'PUT', `/api/users/${u.id}`, {
        token: u.token,
        body: { password: 'new-pass1', currentPassword: 'old-pass1' },
      });
      expect(ok.status).toBe(200);
      const signIn = await call(app, 'POST', '/api/users/authenticate', {
        body: { username: u.username, password: 'new-pass1' },
      });
      expect(signIn.status).toBe(200);
    });
    it('keeps groups and the active flag for managers, never on themselves', async () => {
      const u = await createUser(app, { groupId: 3 });
      expect((await call(app, 'PUT', `/api/users/${u.id}`, { token: u.token, body: { groupId: 2 } })).status).toBe(403);
      expect(
        (await call(app, 'PUT', `/api/users/${operator.id}`, { token: u.token, body: { firstName: 'X' } })).status,
      ).toBe(404);
      expect(
        (await call(app, 'PUT', `/api/users/${admin.id}`, { token: admin.token, body: { groupId: 3 } })).status,
      ).toBe(403);
      expect((await call(app, 'PUT', `/api/users/${u.id}`, { token: admin.token, body: { groupId: 1 } })).status).toBe(
        403,
      );
      expect(
        (await call(app, 'PUT', `/api/users/${operator.id}`, { token: admin.token, body: { active: false } })).status,
      ).toBe(404);
      // Group 2 never makes anyone group 1 or 2; group 1 does.
      expect((await call(app, 'PUT', `/api/users/${u.id}`, { token: admin.token, body: { groupId: 2 } })).status).toBe(
        403,
      );
      const promoted = await call(app, 'PUT', `/api/users/${u.id}`, { token: operator.token, body: { groupId: 2 } });
      expect(promoted.body.GroupId).toBe(2);
      expect(
        (await call(app, 'PUT', `/api/users/${u.id}`, { token: operator.token, body: { groupId: 1 } })).body.GroupId,
      ).toBe(1);
    });
    it('deactivating an account stops its token at once', async () => {
      const u = await createUser(app, { groupId: 3 });
      const res = await call(app, 'PUT', `/api/users/${u.id}`, { token: admin.token, body: { active: false } });
      expect(res.body.Active).toBe(false);
      expect((await call(app, 'GET', `/api/users/${u.id}`, { token: u.token })).status).toBe(401);
      const signIn = await call(app, 'POST', '/api/users/authenticate', {
        body: { username: u.username, password: u.password },
      });
      // The same answer as a wrong password: it confirms nothing.
      expect(signIn.status).toBe(400);
      const wrong = await call(app, 'POST', '/api/users/authenticate', {
        body: { username: u.username, password: 'not-the-password' },
      });
      expect(signIn.body).toEqual(wrong.body);
    });
    it('refuses wrong types and unknown users', async () => {
      expect(
        (await call(app, 'PUT', `/api/users/${admin.id}`, { token: admin.token, body: { groupId: 7 } })).status,
      ).toBe(400);
      expect(
        (await call(app, 'PUT', `/api/users/${admin.id}`, { token: admin.token, body: { active: 'yes' } })).status,
      ).toBe(400);
      expect(
        (await call(app, 'PUT', '/api/users/987654', { token: operator.token, body: { firstName: 'X' } })).status,
      ).toBe(404);
    });
  });

  describe('DELETE /api/users/:id', () => {
    it('lets managers delete others, never themselves; the token stops working', async () => {
      const u = await createUser(app, { groupId: 3 });
      expect((await call(app, 'DELETE', `/api/users/${u.id}`, { token: u.token })).status).toBe(400);
      const other = await createUser(app, { groupId: 3 });
      expect((await call(app, 'DELETE', `/api/users/${other.id}`, { token: u.token })).status).toBe(403);
      expect((await call(app, 'DELETE', `/api/users/${operator.id}`, { token: admin.token })).status).toBe(404);
      expect((await call(app, 'DELETE', `/api/users/${u.id}`, { token: admin.token })).status).toBe(200);
      expect((await call(app, 'GET', `/api/users/${u.id}`, { token: u.token })).status).toBe(401);
      expect((await call(app, 'DELETE', `/api/users/${u.id}`, { token: admin.token })).status).toBe(404);
    });
  });

  describe('GET /api/users/getAll', () => {
    it('pages for groups 1 and 2 only', async () => {
      const u = await createUser(app, { groupId: 3 });
      expect((await call(app, 'GET', '/api/users/getAll', { token: u.token })).status).toBe(403);
      expect((await call(app, 'GET', '/api/users/getAll')).status).toBe(401);
      const all = await call(app, 'GET', '/api/users/getAll?pageSize=500', { token: operator.token });
      const total = all.body.Total as number;
      expect(all.body.Data).toHaveLength(total);
      const page2 = await call(app, 'GET', '/api/users/getAll?page=2&pageSize=2', { token: operator.token });
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
      const beyond = await call(app, 'GET', '/api/users/getAll?page=999&pageSize=5', { token: operator.token });
      expect(beyond.body).toMatchObject({ Data: [], Total: total, From: 0, To: 0 });
      const found = await call(app, 'GET', '/api/users/getAll?search=RUT', { token: operator.token });
      expect(found.body.Data.map((d: { Username: string }) => d.Username)).toEqual(['ruta']);
    });
    it('refuses huge page sizes and page 0', async () => {
      expect((await call(app, 'GET', '/api/users/getAll?pageSize=100000', { token: operator.token })).status).toBe(400);
      expect((await call(app, 'GET', '/api/users/getAll?page=0', { token: operator.token })).status).toBe(400);
    });
  });

  describe('/api/users/:id/rights', () => {
    it('lets managers grant locations; group 2 only inside its own scope', async () => {
      const u = await createUser(app, { groupId: 3 });
      const granted = await call(app, 'PUT', `/api/users/${u.id}/rights`, {
        token: admin.token,
        body: { locationIds: [building] },
      });
      expect(granted.status).toBe(200);
      expect(granted.body).toEqual([
        { LocationId: building, Level: 6, Path: 'Vilnius m. sav., Vilnius, Gedimino pr. 12' },
      ]);
      expect((await call(app, 'GET', `/api/users/${u.id}/rights`, { token: u.token })).body).toEqual(granted.body);
      const outside = await call(app, 'PUT', `/api/users/${u.id}/rights`, {
        token: admin.token,
        body: { locationIds: [otherBuilding] },
      });
      // Outside the scope answers as an unknown id: its existence is not revealed.
      expect(outside.status).toBe(400);
      expect(outside.body.errors[0].field).toBe('locationIds');
      const both = await call(app, 'PUT', `/api/users/${u.id}/rights`, {
        token: operator.token,
        body: { locationIds: [building, otherBuilding] },
      });
      expect(both.body).toHaveLength(2);
      // Now u's rights reach outside group 2's scope: u is out of its reach.
      expect(
        (await call(app, 'PUT', `/api/users/${u.id}/rights`, { token: admin.token, body: { locationIds: [] } })).status,
      ).toBe(404);
      expect((await call(app, 'GET', `/api/users/${u.id}/rights`, { token: admin.token })).status).toBe(404);
    });
    it('refuses users, unknown locations and duplicates', async () => {
      const u = await createUser(app, { groupId: 3 });
      expect(
        (await call(app, 'PUT', `/api/users/${u.id}/rights`, { token: u.token, body: { locationIds: [building] } }))
          .status,
      ).toBe(403);
      expect((await call(app, 'GET', `/api/users/${admin.id}/rights`, { token: u.token })).status).toBe(404);
      const unknown = await call(app, 'PUT', `/api/users/${u.id}/rights`, {
        token: operator.token,
        body: { locationIds: [987654] },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toMatch(/987654/);
      expect(
        (
          await call(app, 'PUT', `/api/users/${u.id}/rights`, {
            token: operator.token,
            body: { locationIds: [building, building] },
          })
        ).status,
      ).toBe(400);
    });
  });

  describe('errors', () => {
    it('answers unknown endpoints with a JSON 404 and never leaks internals', async () => {
      const res = await call(app, 'GET', '/api/nothing-here', { token: operator.token });
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/No such endpoint/);
    });
    it('serves the OpenAPI document with every endpoint', async () => {
      const res = await call(app, 'GET', '/api/docs/json');
      expect(res.status).toBe(200);
      expect(res.body.openapi).toMatch(/^3\./);
      for (const path of [
        '/api/users/authenticate',
        '/api/devices/GetDevicesData',
        '/api/locationData/getAllObjects',
      ]) {
        expect(Object.keys(res.body.paths)).toContain(path);
      }
    });
  });
});
