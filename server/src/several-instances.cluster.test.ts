import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Endpoint, ResponseOf } from '@rodmenys/contract';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresCluster, startPostgres } from '../../scripts/pg-cluster.mjs';
import { buildApp } from './app.js';
import type { Db } from './db/db.js';
import { migrate } from './db/migrate.js';
import { keepsTimeZone, openPostgres, setDatabaseDefaults } from './db/postgres.js';
import { createCollectorKey } from './services/ingest/collector-keys.js';
import { type InjectArgs, inject, testConfig, urlOf } from './test/app.js';
import { startBuiltServer } from './test/built-server.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeUser, type TestUser } from './test/factories.js';
import { dayFromToday } from './test/months.js';

// docs/scaling.md, "Several instances" and "PgBouncer": two built servers (server/dist/server.js)
// on one database through PgBouncer in transaction pooling mode, behind HAProxy (round robin),
// each started by this test with Debian's binaries. `npm run test:cluster` builds the server first.

interface Daemon {
  url: string;
  port: number;
  stop(): Promise<void>;
}
interface Bouncer extends Daemon {
  admin: string;
  log(): string;
}
const { startHaproxy, startPgbouncer, freePort } = (await import(
  new URL('../../scripts/proxies.mjs', import.meta.url).href
)) as {
  startHaproxy(servers: Record<string, number>): Promise<Daemon>;
  startPgbouncer(options: { serverPort: number; poolSize?: number }): Promise<Bouncer>;
  freePort(): Promise<number>;
};

const ZONE = 'Europe/Vilnius';
const POOL = 3;
const TOKEN_SECRET = 'cluster-test-secret-cluster-test-secret-0123';

/** The built server through the balancer's setup: scheduler on, the shared secret, HAProxy trusted. */
const startServer = (env: Record<string, string>): Promise<ChildProcess> =>
  startBuiltServer({
    TIME_ZONE: ZONE,
    TOKEN_SECRET,
    TRUST_PROXY: '127.0.0.1',
    SIGNIN_FREE_FAILURES: '2',
    // Long enough that both instances still refuse when the next attempts arrive on a slow machine.
    SIGNIN_DELAY_SECONDS: '60',
    LOGIN_RATE_LIMIT: '1000',
    SCHEDULER: 'true',
    ...env,
  });

/** An answer over HTTP, with the instance HAProxy says answered it. */
interface Answer<E extends Endpoint> {
  status: number;
  body: ResponseOf<E>;
  servedBy: string | null;
  retryAfter: string | null;
}

/** Calls `endpoint` over HTTP at `base` (the balancer or one instance), typed from the contract. */
async function call<E extends Endpoint>(
  base: string,
  endpoint: E,
  args: Pick<InjectArgs<E>, 'params' | 'query' | 'body' | 'token'> & { text?: string } = {},
): Promise<Answer<E>> {
  const res = await fetch(`${base}${urlOf(endpoint, args)}`, {
    method: endpoint.method,
    headers: {
      ...(args.token ? { authorization: `Bearer ${args.token}` } : {}),
      ...(args.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(args.text !== undefined ? { 'content-type': 'application/x-ndjson' } : {}),
    },
    body: args.text ?? (args.body !== undefined ? JSON.stringify(args.body) : undefined),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return {
    status: res.status,
    body: body as ResponseOf<E>,
    servedBy: res.headers.get('x-served-by'),
    retryAfter: res.headers.get('retry-after'),
  };
}

describe('several instances behind HAProxy, on one database through PgBouncer (transaction pooling)', () => {
  let cluster: PostgresCluster;
  let bouncer: Bouncer;
  let balancer: Daemon;
  let direct: Db;
  let reference: FastifyInstance;
  const servers: ChildProcess[] = [];
  const dataDirs: string[] = [];
  const instance: Record<'a' | 'b', string> = { a: '', b: '' };
  let lb: string;
  let building: number;
  let operator: TestUser;
  let manager: TestUser;
  let collectorKey: string;

  const signIn = async (base: string, user: TestUser) => {
    const res = await call(base, contract.authenticate, {
      body: { username: user.username, password: user.password },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { token: res.body.Token, servedBy: res.servedBy };
  };
  /** The same request through the balancer `n` times: every answer, and which instances gave them. */
  const repeat = async <E extends Endpoint>(n: number, endpoint: E, args: Parameters<typeof call<E>>[2]) => {
    const answers: Answer<E>[] = [];
    for (let i = 0; i < n; i++) answers.push(await call(lb, endpoint, args));
    return { answers, servedBy: new Set(answers.map((a) => a.servedBy)) };
  };
  /** Calls of statements matching `pattern` on the server since it started. */
  const calls = async (pattern: string) =>
    (
      await direct.query<{ n: number }>(
        'SELECT coalesce(sum(calls), 0)::int AS n FROM pg_stat_statements WHERE query ILIKE $1',
        [`%${pattern}%`],
      )
    ).rows[0]!.n;
  const monthOfMarch = { dateFrom: '2026-03-01', dateTill: '2026-03-31', deviceTypeId: DEVICE_TYPE.coldWaterMeter };

  beforeAll(async () => {
    // jit on for the server (throwaway clusters turn it off): the database's own default must turn it off.
    cluster = await startPostgres({ settings: { shared_preload_libraries: "'pg_stat_statements'", jit: 'on' } });
    direct = openPostgres(cluster.url, ZONE);
    await migrate(direct);
    await direct.query('CREATE EXTENSION pg_stat_statements');
    const place = await makeBuilding(direct, { city: 'Vilnius', street: 'Gedimino pr.', number: '9' });
    building = place.id;
    const flat = await makeFlat(direct, place, { name: '1', order: 1 });
    const device = await makeDevice(direct, flat, {
      typeId: DEVICE_TYPE.coldWaterMeter,
      code: 'K1',
      installedAt: '2026-01-01T00:00:00+02:00',
    });
    // Day bounds that differ from UTC's: 1 March 00:30 in Vilnius is still 28 February in UTC;
    // the clocks go forward on 29 March (03:00 → 04:00); 1 April 00:30 is 31 March in UTC.
    await makeReadings(direct, device, [
      ['2026-02-28T23:30:00+02:00', 10],
      ['2026-03-01T00:30:00+02:00', 11],
      ['2026-03-29T02:30:00+02:00', 12],
      ['2026-03-29T04:30:00+03:00', 13],
      ['2026-03-31T23:30:00+03:00', 15],
      ['2026-04-01T00:30:00+03:00', 16],
    ]);
    operator = await makeUser(direct, { groupId: GROUP.operator });
    manager = await makeUser(direct, { groupId: GROUP.user, rights: [building] });
    collectorKey = (await createCollectorKey(direct, 'cluster test', null)).Key;
    // The reference: the same app in this process, straight on the server (no pooler).
    reference = await buildApp({
      config: testConfig({ databaseUrl: cluster.url, tokenSecret: new TextEncoder().encode(TOKEN_SECRET) }),
      db: direct,
    });

    bouncer = await startPgbouncer({ serverPort: cluster.port, poolSize: POOL });
    const ports = { a: await freePort(), b: await freePort() };
    // Both at once, as a deployment restarts them: migrations and database defaults race.
    servers.push(
      ...(await Promise.all(
        (['a', 'b'] as const).map((name) => {
          const dataDir = mkdtempSync(path.join(tmpdir(), `rodmenys-instance-${name}-`));
          dataDirs.push(dataDir);
          instance[name] = `http://127.0.0.1:${ports[name]}`;
          return startServer({ DATABASE_URL: bouncer.url, PORT: String(ports[name]), DATA_DIR: dataDir });
        }),
      )),
    );
    balancer = await startHaproxy(ports);
    lb = balancer.url;
  }, 180_000);

  afterAll(async () => {
    for (const s of servers) s.kill('SIGKILL');
    await balancer?.stop();
    await bouncer?.stop();
    await reference?.close();
    await direct?.close();
    await cluster?.stop();
    for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  });

  it('runs the scheduled work once with two schedulers, in the provider zone', async () => {
    const jobs = async () =>
      (
        await direct.query<{ name: string; runs: number; last_error: string | null; wall_hour: number }>(
          `SELECT name, runs, last_error,
                  extract(hour FROM next_run_at AT TIME ZONE 'Europe/Vilnius')::int AS wall_hour
             FROM job ORDER BY name`,
        )
      ).rows;
    // The `lorawan` job's first run is a day after it is installed (migration 320): not due here.
    const due = (list: Awaited<ReturnType<typeof jobs>>) => list.filter((j) => j.name !== 'lorawan');
    const count = due(await jobs()).length;
    // Both instances have tried to claim every due job (the claim statement ran at least twice per job) …
    await expect
      .poll(
        async () =>
          due(await jobs()).every((j) => j.runs >= 1) && (await calls('UPDATE job SET lease_until = $2')) >= 2 * count,
        { timeout: 30_000 },
      )
      .toBe(true);
    // … and each ran once (none is due again within a minute of the start); the one not due did not run.
    const all = await jobs();
    for (const j of all)
      expect({ name: j.name, runs: j.runs, error: j.last_error }).toEqual({
        name: j.name,
        runs: j.name === 'lorawan' ? 0 : 1,
        error: null,
      });
    // The digest's next run is at its hour on the provider's clock (computed in the session zone).
    const { rows } = await direct.query<{ hour: number }>(
      "SELECT (value #>> '{}')::int AS hour FROM dq_setting WHERE key = 'schedule.digestHour'",
    );
    expect(all.find((j) => j.name === 'digest')!.wall_hour).toBe(rows[0]!.hour);
  });

  it('goes through PgBouncer: transactions counted there, at most its pool of server connections', async () => {
    const admin = new pg.Client({ connectionString: bouncer.admin });
    await admin.connect();
    try {
      const stats = async () => {
        const { rows } = await admin.query<{ database: string; total_xact_count: string }>('SHOW STATS');
        return Number(rows.find((r) => r.database === 'postgres')!.total_xact_count);
      };
      const before = await stats();
      const { token } = await signIn(lb, manager);
      await repeat(2, contract.getDevicesData, { query: monthOfMarch, token });
      expect(await stats()).toBeGreaterThan(before);
      const { rows: pools } = await admin.query<{ database: string; sv_active: string; sv_idle: string }>('SHOW POOLS');
      const pool = pools.find((p) => p.database === 'postgres')!;
      expect(Number(pool.sv_active) + Number(pool.sv_idle)).toBeLessThanOrEqual(POOL);
    } finally {
      await admin.end();
    }
    // The server sees PgBouncer's few connections, not the two instances' pools of 10.
    expect(bouncer.log()).not.toMatch(/unsupported startup parameter/);
  });

  it('leaves the zone and jit = off as the database defaults; a role that does not own it changes nothing', async () => {
    const { rows } = await direct.query<{ config: string[] }>(
      `SELECT setconfig AS config FROM pg_db_role_setting
        WHERE setrole = 0 AND setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(rows[0]!.config).toEqual(expect.arrayContaining([`TimeZone=${ZONE}`, 'jit=off']));
    // A session that names no zone (psql, a report) gets both from the database.
    const plain = new pg.Client({ connectionString: cluster.url });
    await plain.connect();
    try {
      const { rows: session } = await plain.query(
        "SELECT current_setting('TimeZone') AS tz, current_setting('jit') AS jit",
      );
      expect(session[0]).toEqual({ tz: ZONE, jit: 'off' });
    } finally {
      await plain.end();
    }
    await direct.query('CREATE ROLE tenant LOGIN');
    await direct.query('CREATE DATABASE not_owned');
    const url = new URL(cluster.url);
    url.username = 'tenant';
    url.pathname = '/not_owned';
    const tenant = openPostgres(url.toString(), ZONE);
    try {
      expect(await setDatabaseDefaults(tenant, ZONE)).toBe(false);
      expect(await keepsTimeZone(tenant, ZONE)).toBe(true);
    } finally {
      await tenant.close();
    }
  });

  it('a user signs in and keeps working whichever instance answers', async () => {
    const { token } = await signIn(lb, manager);
    const { answers, servedBy } = await repeat(4, contract.getDevicesData, { query: monthOfMarch, token });
    expect(servedBy).toEqual(new Set(['a', 'b']));
    for (const a of answers) expect(a.status).toBe(200);
    expect(answers.map((a) => JSON.stringify(a.body))).toEqual(Array(4).fill(JSON.stringify(answers[0]!.body)));
  });

  it('gives the same readings through PgBouncer as straight from the server, day bounds in the provider zone', async () => {
    const { token } = await signIn(lb, manager);
    for (const query of [
      monthOfMarch,
      { dateFrom: '2026-03-29', dateTill: '2026-03-29', deviceTypeId: DEVICE_TYPE.coldWaterMeter },
      { dateFrom: '2026-03-01', dateTill: '2026-03-01', deviceTypeId: DEVICE_TYPE.coldWaterMeter },
    ]) {
      const expected = await inject(reference, contract.getDevicesData, { query, token });
      expect(expected.status, expected.text).toBe(200);
      const { answers, servedBy } = await repeat(2, contract.getDevicesData, { query, token });
      expect(servedBy).toEqual(new Set(['a', 'b']));
      for (const a of answers) expect(a.body).toEqual(expected.body);
    }
    // And the zone's own check, through the pooler, while other clients there run in UTC.
    const pooled = openPostgres(bouncer.url, ZONE, 6);
    try {
      const checks = await Promise.all(Array.from({ length: 12 }, () => keepsTimeZone(pooled, ZONE)));
      expect(checks).toEqual(Array(12).fill(true));
    } finally {
      await pooled.close();
    }
  });

  it('sign-out on one instance holds on the other; so do sign-out everywhere and a deactivation', async () => {
    // Signed out on A: refused by B, and by both through the balancer.
    const first = await signIn(instance.a, manager);
    expect((await call(instance.b, contract.getDevicesData, { query: monthOfMarch, token: first.token })).status).toBe(
      200,
    );
    expect((await call(instance.a, contract.logout, { token: first.token })).status).toBe(200);
    expect((await call(instance.b, contract.getDevicesData, { query: monthOfMarch, token: first.token })).status).toBe(
      401,
    );
    const after = await repeat(2, contract.getDevicesData, { query: monthOfMarch, token: first.token });
    expect(after.servedBy).toEqual(new Set(['a', 'b']));
    expect(after.answers.map((a) => a.status)).toEqual([401, 401]);

    // An operator ends every token of the manager on B: the manager's tokens stop on A.
    const op = await signIn(lb, operator);
    const second = await signIn(instance.a, manager);
    const ended = await call(instance.b, contract.signOutEverywhere, { params: { id: manager.id }, token: op.token });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect((await call(instance.a, contract.getDevicesData, { query: monthOfMarch, token: second.token })).status).toBe(
      401,
    );

    // Deactivated on A: the token signed in on B stops on B.
    const third = await signIn(instance.b, manager);
    const deactivated = await call(instance.a, contract.updateUser, {
      params: { id: manager.id },
      body: { active: false },
      token: op.token,
    });
    expect(deactivated.status, JSON.stringify(deactivated.body)).toBe(200);
    expect((await call(instance.b, contract.getDevicesData, { query: monthOfMarch, token: third.token })).status).toBe(
      401,
    );
    await direct.query('UPDATE app_user SET active = true WHERE id = $1', [manager.id]);
  });

  it('an integration key revoked on one instance, or expired, is refused at once by both (docs/integration.md)', async () => {
    const op = await signIn(lb, operator);
    const created = await call(instance.a, contract.createIntegrationKey, {
      body: { name: 'PostgresCluster billing', locationIds: [building], expiresOn: dayFromToday(180) },
      token: op.token,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const key = created.body.Key;
    const month = { month: '2026-03' };
    for (const base of [instance.a, instance.b])
      expect((await call(base, contract.getBillingExport, { query: month, token: key })).status).toBe(200);
    const revoked = await call(instance.b, contract.revokeIntegrationKey, {
      params: { id: created.body.Created.Id },
      token: op.token,
    });
    expect(revoked.status).toBe(200);
    for (const base of [instance.a, instance.b])
      expect((await call(base, contract.getBillingExport, { query: month, token: key })).status).toBe(401);

    const other = await call(instance.b, contract.createIntegrationKey, {
      body: { name: 'PostgresCluster billing 2', locationIds: [building], expiresOn: dayFromToday(180) },
      token: op.token,
    });
    expect((await call(instance.a, contract.getBillingExport, { query: month, token: other.body.Key })).status).toBe(
      200,
    );
    await direct.query("UPDATE integration_key SET expires_at = now() - interval '1 second' WHERE id = $1", [
      other.body.Created.Id,
    ]);
    for (const base of [instance.a, instance.b])
      expect((await call(base, contract.getBillingExport, { query: month, token: other.body.Key })).status).toBe(401);
  });

  it('sign-in throttling holds across instances: 429 with Retry-After from both', async () => {
    const target = await makeUser(direct, { groupId: GROUP.user });
    const wrong = { username: target.username, password: 'not-the-password' };
    const statuses: Array<[number, string | null]> = [];
    for (let i = 0; i < 6 && statuses.at(-1)?.[0] !== 429; i++) {
      const res = await call(lb, contract.authenticate, { body: wrong });
      statuses.push([res.status, res.servedBy]);
    }
    // Failures counted on both instances add up to one account's count.
    expect(new Set(statuses.map(([, by]) => by))).toEqual(new Set(['a', 'b']));
    expect(statuses.at(-1)![0]).toBe(429);
    const { answers, servedBy } = await repeat(2, contract.authenticate, { body: wrong });
    expect(servedBy).toEqual(new Set(['a', 'b']));
    for (const a of answers) {
      expect(a.status).toBe(429);
      expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
    }
  });

  it('writes through the pooler: ingest on both instances, a master-data change seen by the other', async () => {
    const telegrams = (hour: number) =>
      JSON.stringify({
        _: 'telegram',
        meter: 'iperl',
        id: 'K1',
        total_m3: 20 + hour,
        timestamp: `2026-04-02T${String(hour).padStart(2, '0')}:00:00Z`,
      });
    const { answers, servedBy } = await repeat(2, contract.ingestWmbusmeters, {
      token: collectorKey,
      text: `${telegrams(1)}\n${telegrams(2)}`,
    });
    expect(servedBy).toEqual(new Set(['a', 'b']));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => (a.body as { Stored: number }).Stored).sort()).toEqual([0, 2]);

    const op = await signIn(instance.a, operator);
    const seen = async (base: string) =>
      (await call(base, contract.getLocation, { params: { id: building }, token: op.token })).body.Location;
    expect((await seen(instance.b)).Name).not.toBe('9A');
    const renamed = await call(instance.a, contract.updateLocation, {
      params: { id: building },
      body: { name: '9A' },
      token: op.token,
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await seen(instance.b)).Name).toBe('9A');
    const { token } = await signIn(lb, manager);
    const april = { dateFrom: '2026-04-01', dateTill: '2026-04-30', deviceTypeId: DEVICE_TYPE.coldWaterMeter };
    const expected = await inject(reference, contract.getDevicesData, { query: april, token });
    const after = await repeat(2, contract.getDevicesData, { query: april, token });
    for (const a of after.answers) expect(a.body).toEqual(expected.body);
  });
});
