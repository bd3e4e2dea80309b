import * as contract from '@rodmenys/contract';
import { GROUP } from '@rodmenys/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/db.js';
import { openPostgres } from '../../db/postgres.js';
import { JOBS } from '../../jobs.js';
import { inject, useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import { makeSignedIn } from '../../test/factories.js';
import { Scheduler } from './runner.js';

/**
 * Two connections to one database, as two server instances have: on a
 * PostgreSQL server two pools; PGlite is one process's database (its folder is
 * locked), so both instances share it there.
 */
async function twoConnections(first: Db): Promise<{ first: Db; second: Db; close: () => Promise<void> }> {
  if (dbKind() === 'pglite') return { first, second: first, close: async () => {} };
  const { rows } = await first.query<{ db: string }>('SELECT current_database() AS db');
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${rows[0]!.db}`;
  const second = openPostgres(url.toString(), 'Europe/Vilnius');
  return { first, second, close: () => second.close() };
}

const job = async (db: Db, name: string) =>
  (
    await db.query<{ runs: number; failures: number; next_run_at: string; last_error: string | null }>(
      'SELECT runs, failures, iso(next_run_at) AS next_run_at, last_error FROM job WHERE name = $1',
      [name],
    )
  ).rows[0]!;

describe(`scheduled work (${dbKind()})`, () => {
  const t = useApp();
  let dbs: Awaited<ReturnType<typeof twoConnections>>;
  const NOW = new Date('2026-03-28T12:00:00+02:00');

  beforeAll(async () => {
    dbs = await twoConnections(t.db);
  });
  afterAll(async () => {
    await dbs?.close();
  });
  beforeEach(async () => {
    await dbs.first.query(
      "UPDATE job SET next_run_at = $1::timestamptz - interval '1 minute', lease_until = NULL, lease_owner = NULL, runs = 0, failures = 0, last_error = NULL",
      [NOW],
    );
  });

  it('two instances ticking at once run each due job exactly once', async () => {
    const a = new Scheduler(dbs.first, JOBS);
    const b = new Scheduler(dbs.second, JOBS);
    const ran = await Promise.all([
      ...Array.from({ length: 4 }, () => a.tick(() => NOW)),
      ...Array.from({ length: 4 }, () => b.tick(() => NOW)),
    ]);
    expect(ran.flat().sort()).toEqual([
      'billing-delivery',
      'collectors',
      'digest',
      'lorawan',
      'month-ends',
      'occupant-delivery',
      'partitions',
      'personal-data',
      'statement-mail',
      'validate',
    ]);
    for (const name of [
      'billing-delivery',
      'collectors',
      'digest',
      'lorawan',
      'month-ends',
      'occupant-delivery',
      'partitions',
      'personal-data',
      'statement-mail',
      'validate',
    ])
      expect((await job(dbs.first, name)).runs).toBe(1);
    // The next digest is at 07:00 in the provider's zone, on the night the clocks go forward.
    expect((await job(dbs.first, 'digest')).next_run_at).toBe('2026-03-29T07:00:00+03:00');
    expect((await job(dbs.first, 'month-ends')).next_run_at).toBe('2026-03-28T12:01:00+02:00');
    // Not due yet: nothing runs.
    expect(await b.tick(() => NOW)).toEqual([]);
  });

  it("survives a restart: a dead instance's expired lease is taken over, a live one is respected", async () => {
    await dbs.first.query(
      `UPDATE job SET lease_owner = 'crashed', lease_until = $1::timestamptz - interval '1 second' WHERE name = 'validate'`,
      [NOW],
    );
    await dbs.first.query(
      `UPDATE job SET lease_owner = 'alive', lease_until = $1::timestamptz + interval '5 minutes' WHERE name = 'month-ends'`,
      [NOW],
    );
    const ran = await new Scheduler(dbs.second, JOBS).tick(() => NOW);
    expect(ran.sort()).toEqual([
      'billing-delivery',
      'collectors',
      'declaration-mail',
      'declaration-reminders',
      'digest',
      'lorawan',
      'occupant-delivery',
      'partitions',
      'personal-data',
      'statement-mail',
      'validate',
    ]);
    expect((await job(dbs.first, 'month-ends')).runs).toBe(0);
  });

  it('catches up after downtime with one run, not one per missed slot', async () => {
    await dbs.first.query("UPDATE job SET next_run_at = $1::timestamptz - interval '7 days'", [NOW]);
    const s = new Scheduler(dbs.first, JOBS);
    await s.tick(() => NOW);
    await s.tick(() => NOW);
    expect((await job(dbs.first, 'validate')).runs).toBe(1);
    expect((await job(dbs.first, 'digest')).runs).toBe(1);
  });

  it('GET /api/data-quality/jobs shows the last run, its duration and error to group 1 only', async () => {
    const failing = new Scheduler(dbs.first, [
      {
        name: 'validate',
        run: async () => {
          throw new Error('the rules could not run');
        },
        nextSql: "$1::timestamptz + interval '1 hour'",
      },
    ]);
    await failing.tick(() => NOW);
    await new Scheduler(dbs.first, JOBS).tick(() => NOW);
    const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    const admin = await makeSignedIn(t.app, { groupId: GROUP.admin });
    const res = await inject(t.app, contract.listJobs, { token: operator.token });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.map((j) => [j.Name, j]));
    expect(byName.validate).toMatchObject({
      Runs: 1,
      Failures: 1,
      LastError: 'the rules could not run',
      Running: false,
    });
    expect(byName['month-ends']).toMatchObject({ Runs: 1, Failures: 0, LastError: null });
    expect(byName['month-ends']!.LastDurationMs).toBeGreaterThanOrEqual(0);
    expect(byName.digest!.LastResult).toEqual({ mailNotConfigured: 1 });
    expect(byName['month-ends']!.LastResult).toEqual({ devices: 0, monthEnds: 0 });
    expect((await inject(t.app, contract.listJobs, { token: admin.token })).status).toBe(403);
  });
});
