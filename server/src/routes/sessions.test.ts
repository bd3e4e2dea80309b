import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.js';
import { buildTestApp, call } from '../test/app.js';
import { createTestDb, dbKind } from '../test/db.js';
import { address, createPath, createUser } from '../test/fixtures.js';

// Tokens end when the password changes, stay dead across deactivation and
// reactivation, and sign-out everywhere ends them all (docs/security.md "Sessions").
describe(`sessions (${dbKind()})`, () => {
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

  const works = async (token: string, id: number) => (await call(app, 'GET', `/api/users/${id}`, { token })).status;
  const signIn = async (username: string, password: string) => {
    const res = await call(app, 'POST', '/api/users/authenticate', { body: { username, password } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.Token as string;
  };

  describe('PUT /api/users/:id', () => {
    it('a password changed by its owner ends every token of the account, the new sign-in works', async () => {
      const u = await createUser(app, { groupId: 3, password: 'old-pass1' });
      const second = await signIn(u.username, 'old-pass1');
      const res = await call(app, 'PUT', `/api/users/${u.id}`, {
        token: u.token,
        body: { currentPassword: 'old-pass1', password: 'new-pass1' },
      });
      expect(res.status).toBe(200);
      expect(await works(u.token, u.id)).toBe(401);
      expect(await works(second, u.id)).toBe(401);
      expect(await works(await signIn(u.username, 'new-pass1'), u.id)).toBe(200);
    });
    it('a password reset by an administrator ends the tokens too', async () => {
      const u = await createUser(app, { groupId: 3, rights: [building] });
      const res = await call(app, 'PUT', `/api/users/${u.id}`, {
        token: admin.token,
        body: { password: 'reset-pass1' },
      });
      expect(res.status).toBe(200);
      expect(await works(u.token, u.id)).toBe(401);
      expect(await works(await signIn(u.username, 'reset-pass1'), u.id)).toBe(200);
    });
    it('changing names or contacts leaves the tokens alone', async () => {
      const u = await createUser(app, { groupId: 3 });
      await call(app, 'PUT', `/api/users/${u.id}`, { token: u.token, body: { firstName: 'Jonas', phone: '+370' } });
      expect(await works(u.token, u.id)).toBe(200);
    });
    it('a deactivated account’s tokens stay dead after it is reactivated', async () => {
      const u = await createUser(app, { groupId: 3 });
      expect(
        (await call(app, 'PUT', `/api/users/${u.id}`, { token: operator.token, body: { active: false } })).status,
      ).toBe(200);
      expect(await works(u.token, u.id)).toBe(401);
      expect(
        (await call(app, 'PUT', `/api/users/${u.id}`, { token: operator.token, body: { active: true } })).status,
      ).toBe(200);
      expect(await works(u.token, u.id)).toBe(401);
      expect(await works(await signIn(u.username, u.password), u.id)).toBe(200);
    });
  });

  describe('POST /api/users/:id/signOutEverywhere', () => {
    it('lets an administrator end every token of an account in reach, and nothing else', async () => {
      const u = await createUser(app, { groupId: 3, rights: [building] });
      const second = await signIn(u.username, u.password);
      const res = await call(app, 'POST', `/api/users/${u.id}/signOutEverywhere`, { token: admin.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await works(u.token, u.id)).toBe(401);
      expect(await works(second, u.id)).toBe(401);
      expect(await works(admin.token, admin.id)).toBe(200);
      expect(await works(await signIn(u.username, u.password), u.id)).toBe(200);
      const audit = await db.query<{ kind: string; actor_id: number }>(
        `SELECT kind, actor_id FROM audit_log WHERE entity = 'user' AND entity_id = $1 ORDER BY id DESC LIMIT 1`,
        [String(u.id)],
      );
      expect(audit.rows[0]).toEqual({ kind: 'user.signOut', actor_id: admin.id });
    });
    it('lets anyone sign themselves out everywhere', async () => {
      const u = await createUser(app, { groupId: 3 });
      expect((await call(app, 'POST', `/api/users/${u.id}/signOutEverywhere`, { token: u.token })).status).toBe(200);
      expect(await works(u.token, u.id)).toBe(401);
    });
    it('answers 404 for an account out of reach and leaves its tokens working', async () => {
      const outside = await createUser(app, { groupId: 3, rights: [otherBuilding] });
      const stranger = await createUser(app, { groupId: 3 });
      for (const [caller, target] of [
        [admin, outside],
        [admin, operator],
        [stranger, outside],
      ] as const) {
        const res = await call(app, 'POST', `/api/users/${target.id}/signOutEverywhere`, { token: caller.token });
        expect(res.status).toBe(404);
        expect(await works(target.token, target.id)).toBe(200);
      }
      expect((await call(app, 'POST', `/api/users/${outside.id}/signOutEverywhere`)).status).toBe(401);
      expect(
        (await call(app, 'POST', `/api/users/${outside.id}/signOutEverywhere`, { token: operator.token })).status,
      ).toBe(200);
      expect(await works(outside.token, outside.id)).toBe(401);
    });
  });
});
