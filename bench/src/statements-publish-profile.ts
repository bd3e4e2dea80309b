/**
 * Publishing every building, measured apart (docs/benchmarks.md, "Publishing: fourth pass"): the dataset of
 * bench:statements (5 % of the flats with a move, every other building under a heat method, the rest `none`)
 * filled once into a PostgreSQL cluster, then publishing run by the path before (lib/statements-before/,
 * commit 56f68cb), by today's path with the billing export's follower of commit 30f9f05 (its rows computed
 * and compared again: lib/publish-export-30f9f05.ts) and by the path now alternately, each in a transaction rolled back, what both wrote compared
 * row by row (FAILED and exit 1 on any difference): the first version; again with nothing changed (every
 * follower: the billing export compared) once a first version is committed; again after a month-end value and a
 * reading's time moved. Wall time and CPU (this process and PostgreSQL's backends, from /proc) per run, the
 * load average printed beside each; with PROFILE_SQL=1 the time of each statement (in this process, wall) of the
 * path now's last run summed by its first words, to see where a run goes.
 *   BENCH_FLATS=5000 BENCH_READINGS=1000000 npm run bench:publish-profile -w bench
 *   (BENCH_PG_URL: a cluster filled by an earlier run with PROFILE_KEEP=1, which prints its address and waits;
 *   PROFILE_RUNS: runs of each side, 3; PROFILE_ONLY=now: the path now alone, e.g. under --cpu-prof;
 *   PROFILE_SKIP_FIRST=1 / PROFILE_FIRST_ONLY=1: without the first version / only it;
 *   PROFILE_COMPRESSION=pglz|lz4: the frozen texts' compression set first, to measure it before and after
 *   migration 420 on one cluster)
 */
import { loadavg } from 'node:os';
import { GROUP, LOCATION_LEVEL } from '@rodmenys/contract';
import type { Db, Queryable, Tx } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { PUBLICATION_FOLLOWERS } from '@rodmenys/server/publication.js';
import type { Caller } from '@rodmenys/server/services/auth/caller.js';
import { publishStatements } from '@rodmenys/server/services/statements/publish.js';
import { cpuClock } from './lib/cpu.js';
import { fillFlatsDataset } from './lib/flats-dataset.js';
import { machineInfo } from './lib/machine.js';
import { startPostgres } from './lib/postgres.js';
import { publishRolledBack, writtenDifferences } from './lib/publish-compare.js';
import { FOLLOWERS_30F9F05 } from './lib/publish-export-30f9f05.js';
import { PUBLICATION_FOLLOWERS as FOLLOWERS_BEFORE } from './lib/statements-before/publication.js';
import { publishStatements as publishBefore } from './lib/statements-before/publish.js';
import { moveValues } from './lib/statements-publish.js';
import { envInt, fmtMs, median } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const TIME_ZONE = 'Europe/Vilnius';
const DEVICES = envInt('BENCH_DEVICES', 13_000);
const FLATS = envInt('BENCH_FLATS', 5_000);
const READINGS = envInt('BENCH_READINGS', 1_000_000);
const RUNS = envInt('PROFILE_RUNS', 3);
const POSTGRES_SETTINGS = { shared_buffers: "'2GB'", work_mem: "'64MB'", effective_cache_size: "'8GB'" };

const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const load1 = () => loadavg()[0]!.toFixed(1);

/** Statement times summed by their first words (PROFILE_SQL=1): wall time in this process, awaiting included. */
const sqlTimes = new Map<string, { n: number; ms: number }>();
function traced(db: Db): Db {
  if (process.env.PROFILE_SQL !== '1') return db;
  const wrap = <Q extends Queryable>(q: Q): Q => {
    const query = (async (text: string, params?: unknown[]) => {
      const start = performance.now();
      try {
        return await q.query(text, params);
      } finally {
        const key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
        const t = sqlTimes.get(key) ?? { n: 0, ms: 0 };
        t.n++;
        t.ms += performance.now() - start;
        sqlTimes.set(key, t);
      }
    }) as Q['query'];
    return { ...q, query };
  };
  return {
    ...wrap(db),
    transaction: (fn, options) => db.transaction((tx) => fn(wrap(tx) as Tx), options),
  } as Db;
}

async function main() {
  const now = new Date();
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  const cluster = process.env.BENCH_PG_URL ? null : await startPostgres({ settings: POSTGRES_SETTINGS });
  const url = process.env.BENCH_PG_URL ?? cluster!.url;
  const raw = openPostgres(url, TIME_ZONE);
  const failures: string[] = [];
  const rows: string[][] = [];
  try {
    await migrate(raw);
    const compression = process.env.PROFILE_COMPRESSION;
    if (compression === 'pglz' || compression === 'lz4')
      await raw.exec(
        `ALTER TABLE statement_snapshot ALTER COLUMN statement SET COMPRESSION ${compression},
                                        ALTER COLUMN occupancies SET COMPRESSION ${compression};
         ALTER TABLE billing_snapshot ALTER COLUMN rows SET COMPRESSION ${compression}`,
      );
    const { rows: n } = await raw.query<{ n: number }>('SELECT count(*)::int AS n FROM location');
    if (n[0]!.n === 0)
      await fillFlatsDataset(
        raw,
        { devices: DEVICES, flats: FLATS, readings: READINGS, movesEvery: 20 },
        month,
        now,
        log,
      );
    if (process.env.PROFILE_KEEP === '1') {
      console.log(`BENCH_PG_URL=${url}`);
      // Kept until killed (an idle pool holds nothing that keeps the process alive).
      setInterval(() => undefined, 1 << 30);
      await new Promise(() => undefined);
    }
    const version = (await raw.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.split(' on ')[0]!;
    const { rows: method } = await raw.query<{ c: string }>(
      "SELECT attcompression AS c FROM pg_attribute WHERE attrelid = 'billing_snapshot'::regclass AND attname = 'rows'",
    );
    const compressionOf = method[0]?.c === 'l' ? 'lz4' : 'pglz';
    const { rows: counts } = await raw.query<{ b: number; f: number; d: number }>(
      `SELECT count(*) FILTER (WHERE level = ${LOCATION_LEVEL.building})::int AS b,
              count(*) FILTER (WHERE level = ${LOCATION_LEVEL.flat})::int AS f,
              (SELECT count(*)::int FROM device) AS d FROM location`,
    );
    // Start from no publication of the month (an earlier run may have left one).
    await raw.query('DELETE FROM statement_publication WHERE month = $1::date', [`${month}-01`]);
    const db = traced(raw);
    // The publisher (never signs in: publishing is called as a service here).
    await db.query(
      `INSERT INTO app_user (username, password_hash, first_name, last_name, group_id)
       SELECT 'bench-publisher', '-', 'Bench', 'Operator', $1 WHERE NOT EXISTS (SELECT FROM app_user WHERE username = 'bench-publisher')`,
      [GROUP.operator],
    );
    const { rows: me } = await db.query<{ id: number; username: string }>(
      "SELECT id, username FROM app_user WHERE username = 'bench-publisher'",
    );
    const caller: Caller = {
      id: me[0]!.id,
      groupId: GROUP.operator,
      username: me[0]!.username,
      scope: null,
      token: { userId: me[0]!.id, jti: 'bench', expiresAt: new Date(Date.now() + 3_600_000), generation: 0 },
    };
    const before = (d: Db) => publishBefore(d, caller, month, null, false, FOLLOWERS_BEFORE);
    const current = (d: Db) => publishStatements(d, caller, month, null, false, PUBLICATION_FOLLOWERS);
    const exportRows = (d: Db) => publishStatements(d, caller, month, null, false, FOLLOWERS_30F9F05);
    const sides = [
      ['before', before],
      ['30f9f05', exportRows],
      ['now', current],
    ] as const;
    type Side = (typeof sides)[number][0];
    const clock = await cpuClock(db);
    const only = process.env.PROFILE_ONLY; // 'now': the path now alone (for --cpu-prof)
    const step = async (what: string, prepare?: (tx: Tx) => Promise<void>) => {
      type Times = { wall: number[]; cpu: number[]; load: string[] };
      const t = Object.fromEntries(
        sides.map(([side]): [Side, Times] => [side, { wall: [], cpu: [], load: [] }]),
      ) as Record<Side, Times>;
      let last: Record<string, Awaited<ReturnType<typeof publishRolledBack>>> = {};
      for (let i = 0; i < RUNS; i++)
        for (const [side, fn] of sides) {
          if (only && only !== side) continue;
          if (side === 'now') sqlTimes.clear();
          // CPU around the publication alone (not the reading back of what it wrote).
          let cpu = 0;
          const r = await publishRolledBack(
            db,
            month,
            async (d) => {
              const c = await clock();
              const answer = await fn(d);
              cpu = (await clock()) - c;
              return answer;
            },
            prepare,
          );
          t[side].cpu.push(cpu);
          t[side].wall.push(r.ms);
          t[side].load.push(load1());
          last = { ...last, [side]: r };
        }
      for (const [side] of sides) {
        if (side === 'before' || !last.before || !last[side]) continue;
        const diff = writtenDifferences(last.before.written, last[side].written);
        failures.push(...diff.map((d) => `${what}, ${side}: ${d}`));
      }
      const rowsWritten = (last.now ?? last.before)!.written.rows.length;
      for (const side of ['now', '30f9f05', 'before'] as const) {
        if (!t[side].wall.length) continue;
        rows.push([
          what,
          side,
          t[side].wall.map((x) => fmtMs(x)).join(', '),
          t[side].cpu.map((x) => fmtMs(x)).join(', '),
          fmtMs(median(t[side].cpu)),
          t[side].load.join(', '),
          `${rowsWritten.toLocaleString('en-US')} rows; ${failures.some((f) => f.startsWith(`${what}, ${side}`)) ? 'FAILED' : 'the same rows'}`,
        ]);
      }
      log(`${what}: ${JSON.stringify(t)}`);
      if (process.env.PROFILE_SQL === '1') {
        const top = [...sqlTimes].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25);
        // The last run of the path now (the times are cleared before each of its runs).
        for (const [k, v] of top) console.error(`  ${fmtMs(v.ms).padStart(8)} ms  ×${v.n}  ${k}`);
      }
    };
    if (process.env.PROFILE_SKIP_FIRST !== '1') await step('first version');
    // A first version committed, then again with nothing changed, and again after two values moved.
    if (process.env.PROFILE_FIRST_ONLY !== '1') {
      await current(db);
      await step('again, nothing changed');
      await step('again, a month-end value and a reading time moved', (tx) => moveValues(tx, month));
    }
    console.log(`\nPublishing every building, measured apart (${new Date().toISOString()})`);
    for (const line of machineInfo(version)) console.log(`- ${line}`);
    console.log(
      `- ${counts[0]!.b} buildings, ${counts[0]!.f.toLocaleString('en-US')} flats, ${counts[0]!.d.toLocaleString('en-US')} devices, ${READINGS.toLocaleString('en-US')} readings; month ${month}; each run rolled back; the frozen texts compressed with ${compressionOf}\n`,
    );
    console.log(
      formatTable(
        ['Publication', 'Path', 'wall ms (runs)', 'CPU ms (runs)', 'CPU median', 'Load (1 min)', 'Written'],
        rows,
      ),
    );
  } finally {
    await raw.close();
    await cluster?.stop();
  }
  if (failures.length) {
    console.log(`\nFAILED: the paths wrote different rows (${failures.length}):`);
    for (const f of failures.slice(0, 20)) console.log(`- ${f}`);
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
