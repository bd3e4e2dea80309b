import * as contract from '@rodmenys/contract';
import { GROUP } from '@rodmenys/contract';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { buildTestApp, inject, testConfig, useApp, useUsersWorld } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeSignedIn } from '../test/factories.js';

// Registration, sign-in, tokens and sign-out (docs/security.md).
describe(`users API: accounts (${dbKind()})`, () => {
  const t = useApp();
  const w = useUsersWorld(t);

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
      expect((await inject(t.app, contract.getUser, { params: { id: w.operator.id } })).status).toBe(401);
      expect((await inject(t.app, contract.getUser, { params: { id: w.operator.id }, token: 'garbage' })).status).toBe(
        401,
      );
      const forged = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(w.operator.id))
        .setJti('x')
        .setIssuer('rodmenys')
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
      expect((await inject(t.app, contract.getUser, { params: { id: w.operator.id }, token: forged })).status).toBe(
        401,
      );
      const expired = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(w.operator.id))
        .setJti('y')
        .setIssuer('rodmenys')
        .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
        .sign(testConfig().tokenSecret);
      const res = await inject(t.app, contract.getUser, { params: { id: w.operator.id }, token: expired });
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
});
