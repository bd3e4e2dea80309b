import * as contract from '@rodmenys/contract';
import { GROUP } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, throttleSettings, trustProxyList } from '../env.js';
import { buildTestApp, inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeSignedIn } from '../test/factories.js';

// Sign-in and registration throttling (docs/security.md "Throttling"): per
// (account, address), per account from unknown addresses, per address; growing
// delays; state in the database, shared by every instance.
describe(`sign-in throttling (${dbKind()})`, () => {
  const throttle = {
    ...throttleSettings({}),
    signInFreeFailures: 3,
    signInAccountFreeFailures: 6,
    signInAddressFreeFailures: 12,
    // Long enough that no delay runs out by itself on a slow machine: the tests let time pass in the database.
    signInDelaySeconds: 60,
    registerLimit: 3,
  };
  const t = useApp({ throttle });

  const signIn = async (
    username: string,
    password: string,
    from: string,
    on: FastifyInstance = t.app,
    headers: Record<string, string> = {},
  ) => {
    const res = await inject(on, contract.authenticate, { body: { username, password }, remoteAddress: from, headers });
    return { status: res.status, retryAfter: res.headers['retry-after'], body: res.body, error: res.error };
  };
  /** Lets the time of every current delay pass. */
  const waitOutDelays = () => t.db.query("UPDATE sign_in_throttle SET blocked_until = now() - interval '1 second'");
  const failUntilHeld = async (username: string, from: string) => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await signIn(username, 'wrong-guess', from);
      statuses.push(res.status);
      if (res.status === 429) return statuses;
    }
    return statuses;
  };

  describe('POST /api/users/authenticate', () => {
    it('holds one address back after its free failures, with growing delays (429 + Retry-After)', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user, username: 'delays' });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await signIn(u.username, 'wrong-guess', '10.1.0.1')).status);
      expect(statuses).toEqual([400, 400, 400]);
      const delays: string[] = [];
      for (let round = 0; round < 4; round++) {
        const held = await signIn(u.username, 'wrong-guess', '10.1.0.1');
        expect(held.status).toBe(429);
        expect(held.error.message).toMatch(/try again later/);
        // The delay set (not the seconds left of it, which a slow machine eats into).
        const set = await t.db.query<{ seconds: number }>(
          `SELECT max(round(extract(epoch FROM blocked_until - last_failure)))::int AS seconds
             FROM sign_in_throttle WHERE address = '10.1.0.1'`,
        );
        const seconds = set.rows[0]!.seconds;
        delays.push(String(seconds));
        expect(Number(held.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(Number(held.retryAfter)).toBeLessThanOrEqual(seconds);
        // While held back even the right password is not looked at.
        expect((await signIn(u.username, u.password, '10.1.0.1')).status).toBe(429);
        await waitOutDelays();
        expect((await signIn(u.username, 'wrong-guess', '10.1.0.1')).status).toBe(400);
      }
      expect(delays.map(Number)).toEqual([60, 120, 240, 480].map((d) => expect.closeTo(d, -1)));
      // The owner, from an address it signed in from before, is not held back by this.
      expect((await signIn(u.username, u.password, '127.0.0.1')).status).toBe(200);
    });

    it('never lets a stranger lock the owner out at an address the owner signed in from', async () => {
      const owner = await makeSignedIn(t.app, { groupId: GROUP.user, username: 'owner' });
      expect((await signIn(owner.username, owner.password, '10.2.0.1')).status).toBe(200);
      // A stranger guesses from many addresses until the account is held back for unknown addresses.
      let held = false;
      for (let a = 1; a <= 20 && !held; a++) {
        const statuses = await failUntilHeld(owner.username, `10.66.0.${a}`);
        held = statuses.length <= 1 && statuses[0] === 429;
      }
      expect(held).toBe(true);
      // A new address, even with the right password: held back.
      expect((await signIn(owner.username, owner.password, '10.99.0.1')).status).toBe(429);
      // The owner's known addresses: in.
      expect((await signIn(owner.username, owner.password, '10.2.0.1')).status).toBe(200);
      expect((await signIn(owner.username, owner.password, '127.0.0.1')).status).toBe(200);
    });

    it('lets the owner in from anywhere after a password reset', async () => {
      const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
      const owner = await makeSignedIn(t.app, { groupId: GROUP.user, username: 'reset-owner' });
      for (let a = 1; a <= 10; a++) await failUntilHeld(owner.username, `10.77.0.${a}`);
      expect((await signIn(owner.username, owner.password, '10.98.0.1')).status).toBe(429);
      const reset = await inject(t.app, contract.updateUser, {
        params: { id: owner.id },
        token: operator.token,
        body: { password: 'brand-new1' },
      });
      expect(reset.status).toBe(200);
      expect((await signIn(owner.username, 'brand-new1', '10.98.0.1')).status).toBe(200);
    });

    it('holds back an address guessing many accounts, and only that address', async () => {
      const users = [];
      for (let i = 0; i < 4; i++) users.push(await makeSignedIn(t.app, { groupId: GROUP.user, username: `spray${i}` }));
      const statuses: number[] = [];
      for (let round = 0; round < 4; round++) {
        for (const u of users) statuses.push((await signIn(u.username, 'wrong-guess', '10.3.0.1')).status);
      }
      expect(statuses.slice(0, 12).every((s) => s === 400)).toBe(true);
      expect(statuses.slice(12).every((s) => s === 429)).toBe(true);
      expect((await signIn(users[0]!.username, users[0]!.password, '10.3.0.2')).status).toBe(200);
    });

    it('keeps its state in the database: a second instance on the same database holds back too', async () => {
      const second = await buildTestApp(t.db, { throttle });
      try {
        const u = await makeSignedIn(t.app, { groupId: GROUP.user, username: 'shared' });
        for (let i = 0; i < 3; i++) expect((await signIn(u.username, 'wrong-guess', '10.4.0.1')).status).toBe(400);
        expect((await signIn(u.username, 'wrong-guess', '10.4.0.1', second)).status).toBe(429);
        const rows = await t.db.query('SELECT 1 FROM sign_in_throttle WHERE account = $1', ['shared']);
        expect(rows.rows.length).toBeGreaterThan(0);
      } finally {
        await second.close();
      }
    });

    it('answers a blank user name with 400 naming the field', async () => {
      const res = await signIn('   ', 'x', '10.5.0.9');
      expect(res.status).toBe(400);
      expect(res.error.errors).toEqual([
        { field: 'username', code: 'required', params: { field: 'username' }, message: 'username is required' },
      ]);
    });

    it('answers 400 alike for a wrong password, an unknown user and a deactivated account', async () => {
      const u = await makeSignedIn(t.app, { groupId: GROUP.user, username: 'gone' });
      await t.db.query('UPDATE app_user SET active = false WHERE id = $1', [u.id]);
      const right = await signIn(u.username, u.password, '10.5.0.1');
      const wrong = await signIn(u.username, 'wrong-guess', '10.5.0.2');
      const unknown = await signIn('nobody-here', 'wrong-guess', '10.5.0.3');
      expect([right.status, wrong.status, unknown.status]).toEqual([400, 400, 400]);
      expect(right.body).toEqual(wrong.body);
      expect(unknown.body).toEqual(wrong.body);
    });
  });

  describe('POST /api/users/register', () => {
    it('limits registrations per address (429 + Retry-After), other addresses unaffected', async () => {
      const register = (n: number, from: string, on: FastifyInstance = t.app) =>
        inject(on, contract.register, {
          remoteAddress: from,
          body: { firstName: 'A', lastName: 'B', username: `reg${n}`, password: 'password1' },
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await register(i, '10.6.0.1')).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
      const second = await buildTestApp(t.db, { throttle });
      try {
        const held = await register(9, '10.6.0.1', second);
        expect(held.status).toBe(429);
        expect(Number(held.headers['retry-after'])).toBeGreaterThan(3000);
      } finally {
        await second.close();
      }
      expect((await register(10, '10.6.0.2')).status).toBe(201);
    });
  });

  describe('TRUST_PROXY', () => {
    const addressesOf = async (account: string) =>
      (
        await t.db.query<{ address: string }>(
          `SELECT address FROM sign_in_throttle WHERE account = $1 AND address <> '' ORDER BY address`,
          [account],
        )
      ).rows.map((r) => r.address);

    it('believes X-Forwarded-For only from the listed proxies', async () => {
      const proxied = await buildTestApp(t.db, { throttle, trustProxy: ['10.10.0.0/16'] });
      try {
        const spoof = { 'x-forwarded-for': '192.0.2.7' };
        await signIn('proxy-a', 'x-guess', '10.10.0.5', proxied, spoof);
        await signIn('proxy-b', 'x-guess', '10.11.0.5', proxied, spoof);
        await signIn('proxy-c', 'x-guess', '10.10.0.5', t.app, spoof);
        expect(await addressesOf('proxy-a')).toEqual(['192.0.2.7']);
        expect(await addressesOf('proxy-b')).toEqual(['10.11.0.5']);
        expect(await addressesOf('proxy-c')).toEqual(['10.10.0.5']);
      } finally {
        await proxied.close();
      }
    });

    it('takes a list of addresses or CIDRs and refuses `true`', () => {
      expect(trustProxyList(undefined)).toBe(false);
      expect(trustProxyList('')).toBe(false);
      expect(trustProxyList('127.0.0.1, 10.0.0.0/8,::1,loopback')).toEqual([
        '127.0.0.1',
        '10.0.0.0/8',
        '::1',
        'loopback',
      ]);
      for (const bad of ['true', '*', '10.0.0.0/33', 'proxy.example.lt', '1.2.3.4/8/1']) {
        expect(() => trustProxyList(bad), bad).toThrow(ConfigError);
      }
      expect(loadConfig({ TRUST_PROXY: '127.0.0.1', TOKEN_SECRET: 'x'.repeat(32) }).trustProxy).toEqual(['127.0.0.1']);
      expect(() => loadConfig({ SIGNIN_FREE_FAILURES: '0', TOKEN_SECRET: 'x'.repeat(32) })).toThrow(ConfigError);
    });
  });
});
