import * as contract from '@rodmenys/contract';
import { GROUP } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { inject, useApp, useUsersWorld } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeSignedIn } from '../test/factories.js';

// Tokens end when the password changes, stay dead across deactivation and
// reactivation, and sign-out everywhere ends them all (docs/security.md "Sessions").
describe(`sessions (${dbKind()})`, () => {
  const t = useApp();
  const w = useUsersWorld(t);

  const works = async (token: string, id: number) =>
    (await inject(t.app, contract.getUser, { params: { id }, token })).status;
  const signIn = async (username: string, password: string) => {
    const res = await inject(t.app, contract.authenticate, { body: { username, password } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.Token as string;
  };

  describe('PUT /api/users/:id', () => {
    it('a password changed by its owner ends every token of the account, the new sign-in works', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user, password: 'old-pass1' });
      const second = await signIn(u.username, 'old-pass1');
      const res = await inject(t.app, contract.updateUser, {
        params: { id: u.id },
        token: u.token,
        body: { currentPassword: 'old-pass1', password: 'new-pass1' },
      });
      expect(res.status).toBe(200);
      expect(await works(u.token, u.id)).toBe(401);
      expect(await works(second, u.id)).toBe(401);
      expect(await works(await signIn(u.username, 'new-pass1'), u.id)).toBe(200);
    });
    it('a password reset by an administrator ends the tokens too', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [w.building] });
      const res = await inject(t.app, contract.updateUser, {
        params: { id: u.id },
        token: w.admin.token,
        body: { password: 'reset-pass1' },
      });
      expect(res.status).toBe(200);
      expect(await works(u.token, u.id)).toBe(401);
      expect(await works(await signIn(u.username, 'reset-pass1'), u.id)).toBe(200);
    });
    it('changing names or contacts leaves the tokens alone', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      await inject(t.app, contract.updateUser, {
        params: { id: u.id },
        token: u.token,
        body: { firstName: 'Jonas', phone: '+370' },
      });
      expect(await works(u.token, u.id)).toBe(200);
    });
    it('a deactivated account’s tokens stay dead after it is reactivated', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: u.id },
            token: w.operator.token,
            body: { active: false },
          })
        ).status,
      ).toBe(200);
      expect(await works(u.token, u.id)).toBe(401);
      expect(
        (
          await inject(t.app, contract.updateUser, {
            params: { id: u.id },
            token: w.operator.token,
            body: { active: true },
          })
        ).status,
      ).toBe(200);
      expect(await works(u.token, u.id)).toBe(401);
      expect(await works(await signIn(u.username, u.password), u.id)).toBe(200);
    });
  });

  describe('POST /api/users/:id/signOutEverywhere', () => {
    it('lets an administrator end every token of an account in reach, and nothing else', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [w.building] });
      const second = await signIn(u.username, u.password);
      const res = await inject(t.app, contract.signOutEverywhere, { params: { id: u.id }, token: w.admin.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await works(u.token, u.id)).toBe(401);
      expect(await works(second, u.id)).toBe(401);
      expect(await works(w.admin.token, w.admin.id)).toBe(200);
      expect(await works(await signIn(u.username, u.password), u.id)).toBe(200);
      const audit = await t.db.query<{ kind: string; actor_id: number }>(
        `SELECT kind, actor_id FROM audit_log WHERE entity = 'user' AND entity_id = $1 ORDER BY id DESC LIMIT 1`,
        [String(u.id)],
      );
      expect(audit.rows[0]).toEqual({ kind: 'user.signOut', actor_id: w.admin.id });
    });
    it('lets anyone sign themselves out everywhere', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user });
      expect((await inject(t.app, contract.signOutEverywhere, { params: { id: u.id }, token: u.token })).status).toBe(
        200,
      );
      expect(await works(u.token, u.id)).toBe(401);
    });
    it('answers 404 for an account out of reach and leaves its tokens working', async () => {
      const outside = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [w.otherBuilding] });
      const stranger = await makeSignedIn(t.app, { groupId: GROUP.user });
      for (const [caller, target] of [
        [w.admin, outside],
        [w.admin, w.operator],
        [stranger, outside],
      ] as const) {
        const res = await inject(t.app, contract.signOutEverywhere, { params: { id: target.id }, token: caller.token });
        expect(res.status).toBe(404);
        expect(await works(target.token, target.id)).toBe(200);
      }
      expect((await inject(t.app, contract.signOutEverywhere, { params: { id: outside.id } })).status).toBe(401);
      expect(
        (await inject(t.app, contract.signOutEverywhere, { params: { id: outside.id }, token: w.operator.token }))
          .status,
      ).toBe(200);
      expect(await works(outside.token, outside.id)).toBe(401);
    });
  });
});
