import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrimaryCluster, startPostgres } from '../../../scripts/pg-cluster.mjs';
import { buildApp } from '../app.js';
import { createCollectorKey } from '../services/ingest/collector-keys.js';
import { Scheduler } from '../services/jobs/runner.js';
import { inject, testConfig } from '../test/app.js';
import { makeBuilding, makeDevice, makeFlat } from '../test/factories.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { openPostgres } from './postgres.js';

// docs/operations.md, "Failover": what a failover does to a running server, one piece at a time on a
// real PostgreSQL server. A transaction whose connection is cut mid-way answers 503 with Retry-After
// and leaves nothing behind; the pool drops the dead connection and the next request works; a write
// that reaches a read-only server (the writer's address leading to a standby) answers 503 too; a
// scheduled job whose outcome could not be written runs again at the next tick, not after its lease.

const DEVICES = 20;
const telegrams = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      _: 'telegram',
      meter: 'iperl',
      id: `B${(from + i) % DEVICES}`,
      total_m3: (from + i) / 1000,
      timestamp: new Date(Date.UTC(2026, 0, 1) + (from + i) * 60_000).toISOString(),
    }),
  ).join('\n');

const waitFor = async (what: string, ok: () => Promise<boolean>) => {
  for (let waited = 0; !(await ok()); waited += 20) {
    if (waited > 20_000) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('the database connection broken under the running app (postgres)', () => {
  let cluster: PrimaryCluster;
  let db: Db;
  let app: FastifyInstance;
  let key: string;

  beforeAll(async () => {
    cluster = await startPostgres();
    db = openPostgres(cluster.url, 'Europe/Vilnius');
    await migrate(db);
    const flat = await makeFlat(db, await makeBuilding(db), { order: 1 });
    for (let d = 0; d < DEVICES; d++) await makeDevice(db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: `B${d}` });
    key = (await createCollectorKey(db, 'failover test', null)).Key;
    app = await buildApp({ config: testConfig({ databaseUrl: cluster.url }), db, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await cluster?.stop();
  });

  const ingest = (body: string) =>
    inject(app, contract.ingestWmbusmeters, {
      body,
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
    });
  const stored = async (from: number, n: number) =>
    (
      await db.query<{ telegrams: number; readings: number }>(
        `SELECT (SELECT count(*) FROM telegram WHERE ts >= $1 AND ts < $2)::int AS telegrams,
                (SELECT count(*) FROM reading WHERE ts >= $1 AND ts < $2)::int AS readings`,
        [new Date(Date.UTC(2026, 0, 1) + from * 60_000), new Date(Date.UTC(2026, 0, 1) + (from + n) * 60_000)],
      )
    ).rows[0]!;

  it('answers 503 with Retry-After when the connection is cut mid-transaction, writes none of the batch, and the next request works', async () => {
    expect((await ingest(telegrams(0, 50))).status).toBe(200);
    // Hold the readings so the batch's statement waits inside its transaction, then cut its connection.
    const blocker = new pg.Client({ connectionString: cluster.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE reading IN ACCESS EXCLUSIVE MODE');
      const answer = ingest(telegrams(50, 50));
      await waitFor('the batch to wait on the lock', async () => {
        const { rowCount } = await blocker.query(
          "SELECT 1 FROM pg_stat_activity WHERE application_name = 'rodmenys' AND wait_event_type = 'Lock'",
        );
        return (rowCount ?? 0) > 0;
      });
      await blocker.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'rodmenys' AND wait_event_type = 'Lock'",
      );
      const res = await answer;
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toMatchObject({ code: 'databaseUnavailable' });
    } finally {
      await blocker.query('ROLLBACK');
      await blocker.end();
    }
    expect(await stored(50, 50)).toEqual({ telegrams: 0, readings: 0 });
    // The collector's retry: the pool gave up the dead connection, every later request works.
    for (let i = 0; i < 12; i++) expect((await ingest(telegrams(50 + i, 1))).status).toBe(200);
    expect((await ingest(telegrams(50, 50))).status).toBe(200);
    expect(await stored(0, 100)).toEqual({ telegrams: 100, readings: 100 });
  });

  it('answers 503, not 500, while the server it reaches refuses writes (a standby), and writes again after', async () => {
    await db.exec('ALTER SYSTEM SET default_transaction_read_only = on');
    await db.query('SELECT pg_reload_conf()');
    try {
      await waitFor('read-only sessions', async () => {
        const { rows } = await db.query<{ ro: string }>(
          "SELECT current_setting('default_transaction_read_only') AS ro",
        );
        return rows[0]!.ro === 'on';
      });
      const res = await ingest(telegrams(200, 10));
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toMatchObject({ code: 'databaseUnavailable' });
    } finally {
      const admin = new pg.Client({ connectionString: cluster.url, options: '-c default_transaction_read_only=off' });
      await admin.connect();
      await admin.query('ALTER SYSTEM RESET default_transaction_read_only');
      await admin.query('SELECT pg_reload_conf()');
      await admin.end();
    }
    await waitFor('writes again', async () => (await ingest(telegrams(200, 10))).status === 200);
    expect(await stored(200, 10)).toEqual({ telegrams: 10, readings: 10 });
  });

  it('runs a job again at the next tick when the database went away before its outcome was written', async () => {
    const jobDb = openPostgres(cluster.url, 'Europe/Vilnius');
    let release: () => void = () => {};
    let started: () => void = () => {};
    const running = new Promise<void>((r) => (started = r));
    let runs = 0;
    const scheduler = new Scheduler(jobDb, [
      {
        name: 'failover-probe',
        nextSql: "$1::timestamptz + interval '1 hour'",
        run: async () => {
          runs++;
          started();
          if (runs === 1) await new Promise<void>((r) => (release = r));
          return { runs };
        },
      },
    ]);
    try {
      const first = scheduler.tick().then(
        () => 'recorded',
        () => 'not recorded',
      );
      await running;
      await cluster.halt();
      release();
      expect(await first).toBe('not recorded');
      await cluster.resume();
      await waitFor('the database back', () =>
        jobDb.query('SELECT 1').then(
          () => true,
          () => false,
        ),
      );
      // Without freeing its own lease, the job would wait ten minutes for it to end.
      expect(await scheduler.tick()).toEqual(['failover-probe']);
      const { rows } = await jobDb.query<{ runs: number; lease_owner: string | null }>(
        "SELECT runs, lease_owner FROM job WHERE name = 'failover-probe'",
      );
      expect(rows[0]).toEqual({ runs: 1, lease_owner: null });
      expect(runs).toBe(2);
    } finally {
      await scheduler.stop();
      await jobDb.close();
    }
  });
});
