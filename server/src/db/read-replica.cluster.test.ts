import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresCluster, startPostgres, startStandby } from '../../../scripts/pg-cluster.mjs';
import { buildApp } from '../app.js';
import { inject, testConfig } from '../test/app.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn, type SignedIn } from '../test/factories.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { openPostgres } from './postgres.js';

/**
 * A real primary and a real streaming standby (Debian's PostgreSQL binaries,
 * `pg_basebackup -R`), the app on both (DATABASE_READ_URL): which statements ran
 * where is read from pg_stat_statements on each server, and replay on the standby
 * is paused to make its lag certain.
 */
describe('a read replica (DATABASE_READ_URL): read-only work on the standby, a user’s own change from the primary', () => {
  const ZONE = 'Europe/Vilnius';
  const STATS = { shared_preload_libraries: "'pg_stat_statements'" };
  let primary: PostgresCluster;
  let standby: PostgresCluster;
  let db: Db;
  let readDb: Db;
  let app: FastifyInstance;
  let operator: SignedIn;
  let manager: SignedIn;
  let building: number;

  /** Calls of statements matching `pattern` on one server since the last reset there. */
  const calls = async (on: Db, pattern: string) =>
    (
      await on.query<{ n: number }>(
        'SELECT coalesce(sum(calls), 0)::int AS n FROM pg_stat_statements WHERE query ILIKE $1',
        [`%${pattern}%`],
      )
    ).rows[0]!.n;
  const reset = async () => {
    await db.query('SELECT pg_stat_statements_reset()');
    await readDb.query('SELECT pg_stat_statements_reset()');
  };
  const replayed = async () => {
    const { rows } = await db.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    for (let i = 0; i < 200; i++) {
      const { rows: r } = await readDb.query<{ ok: boolean }>(
        'SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS ok',
        [rows[0]!.lsn],
      );
      if (r[0]!.ok) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the standby did not catch up');
  };
  const statementName = async (token: string) =>
    (
      await inject(app, contract.getAuditLog, {
        query: { kind: 'location.update', pageSize: 1 },
        token,
      })
    ).body.Data[0]?.EntityName ?? '(none)';

  beforeAll(async () => {
    primary = await startPostgres({ settings: STATS });
    db = openPostgres(primary.url, ZONE);
    await migrate(db);
    await db.query('CREATE EXTENSION pg_stat_statements');
    const place = await makeBuilding(db, { city: 'Klaipėda', street: 'Tiltų g.', number: '3' });
    building = place.id;
    const flat = await makeFlat(db, place, { name: '1', order: 1 });
    const device = await makeDevice(db, flat, {
      typeId: DEVICE_TYPE.coldWaterMeter,
      installedAt: '2026-01-01T00:00:00+02:00',
    });
    await makeReadings(db, device, [
      ['2026-01-31T20:00:00+02:00', 10],
      ['2026-02-28T20:00:00+02:00', 12],
    ]);
    standby = await startStandby(primary, { settings: STATS });
    readDb = openPostgres(standby.url, ZONE);
    app = await buildApp({
      config: testConfig({ databaseUrl: primary.url, databaseReadUrl: standby.url }),
      db,
      readDb,
    });
    operator = await makeSignedIn(app, { groupId: GROUP.operator });
    manager = await makeSignedIn(app, { groupId: GROUP.user, rights: [building] });
    await replayed();
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await readDb?.close();
    await db?.close();
    await standby?.stop();
    await primary?.stop();
  });

  it('is a real streaming standby: read only, replaying the primary', async () => {
    const { rows } = await readDb.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery');
    expect(rows[0]!.recovery).toBe(true);
    await expect(readDb.query("INSERT INTO dq_setting (key, value) VALUES ('x', '1')")).rejects.toThrow(
      /read-only transaction/,
    );
    const { rows: senders } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'",
    );
    expect(senders[0]!.n).toBe(1);
  });

  it('answers readings from the standby and sign-in and master data from the primary', async () => {
    await reset();
    const readings = await inject(app, contract.getDevicesData, {
      query: { dateFrom: '2026-02-01', dateTill: '2026-02-28', deviceTypeId: DEVICE_TYPE.coldWaterMeter },
      token: manager.token,
    });
    expect(readings.status).toBe(200);
    expect(readings.body).toHaveLength(1);
    const tree = await inject(app, contract.getDeviceDataByUserId, { token: manager.token });
    expect(tree.status).toBe(200);
    // The readings statement ran on the standby only; the device list and the session check on the primary.
    expect(await calls(readDb, 'FROM reading')).toBeGreaterThan(0);
    expect(await calls(db, 'FROM reading')).toBe(0);
    expect(await calls(db, 'FROM app_user')).toBeGreaterThan(0);
    expect(await calls(readDb, 'FROM app_user')).toBe(0);
  });

  it('answers readings from the standby however many master-data changes are pending: the read path writes nothing', async () => {
    // Many rows in master_change (the version's steps); merging them is the writers' work, never a read's.
    await db.query('INSERT INTO master_change SELECT 1 FROM generate_series(1, 150)');
    await replayed();
    await reset();
    const readings = await inject(app, contract.getDevicesData, {
      query: { dateFrom: '2026-02-01', dateTill: '2026-02-28', deviceTypeId: DEVICE_TYPE.coldWaterMeter },
      token: operator.token,
    });
    expect(readings.status, JSON.stringify(readings.body)).toBe(200);
    expect(readings.body).toHaveLength(1);
    expect(await calls(readDb, 'FROM reading')).toBeGreaterThan(0);
    expect(await calls(db, 'FROM reading')).toBe(0);
  });

  it('replica lag never hides a user’s own change from them; others may read the standby meanwhile', async () => {
    await readDb.query('SELECT pg_wal_replay_pause()');
    // A pause is a request: wait until replay has stopped, or a change could still slip through.
    await expect
      .poll(async () => (await readDb.query<{ s: string }>('SELECT pg_get_wal_replay_pause_state() AS s')).rows[0]!.s)
      .toBe('paused');
    try {
      await reset();
      const renamed = await inject(app, contract.updateLocation, {
        params: { id: building },
        body: { name: '3A' },
        token: operator.token,
      });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      // The standby has not replayed the change: the operator's read goes to the primary and sees it.
      expect(await statementName(operator.token)).toContain('3A');
      expect(await calls(db, 'FROM audit_log')).toBeGreaterThan(0);
      expect(await calls(readDb, 'FROM audit_log')).toBe(0);
      // Another operator, who changed nothing, is answered by the lagging standby.
      const other = await makeSignedIn(app, { groupId: GROUP.operator });
      await reset();
      expect(await statementName(other.token)).not.toContain('3A');
      expect(await calls(readDb, 'FROM audit_log')).toBeGreaterThan(0);
    } finally {
      await readDb.query('SELECT pg_wal_replay_resume()');
    }
    // Once the standby has the change, the operator's reads go back to it. A read the standby could not
    // answer at that instant (a loaded machine, replay just resumed) goes to the primary by design: asked
    // again until one is answered by the standby, and that one with the change.
    await replayed();
    await expect
      .poll(
        async () => {
          await reset();
          const name = await statementName(operator.token);
          return {
            name,
            standby: (await calls(readDb, 'FROM audit_log')) > 0,
            primary: await calls(db, 'FROM audit_log'),
          };
        },
        { timeout: 20_000 },
      )
      .toEqual({ name: expect.stringContaining('3A'), standby: true, primary: 0 });
  });

  it('a standby that cannot answer leaves the reads to the primary', async () => {
    await standby.stop();
    const readings = await inject(app, contract.getDevicesData, {
      query: { dateFrom: '2026-02-01', dateTill: '2026-02-28', deviceTypeId: DEVICE_TYPE.coldWaterMeter },
      token: manager.token,
    });
    expect(readings.status).toBe(200);
    expect(readings.body).toHaveLength(1);
  });
});
