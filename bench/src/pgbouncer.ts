/**
 * What PgBouncer in transaction pooling mode costs (docs/scaling.md, "PgBouncer in
 * transaction pooling mode"), printed, not asserted: the same work on one throwaway
 * PostgreSQL server straight and through PgBouncer 1.18 (pool of 4 server connections),
 * interleaved round by round in one run: GetDevicesData for about 500 allocators and
 * for every allocator, one small statement (a request's session check), and 8
 * GetDevicesData of 500 allocators at once (through PgBouncer they share 4 connections).
 *
 *   npm run bench:pgbouncer -w bench   (BENCH_DEVICES, BENCH_READINGS, BENCH_RUNS)
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { DevicesDataCaches, getDevicesDataJson } from '@rodmenys/server/services/devices/devices-data/index.js';
import { monthPartitions, withoutKeys } from './lib/bulk-load.js';
import { createDataset, type Dataset, firstBuildings } from './lib/dataset.js';
import { machineInfo } from './lib/machine.js';
import { startPostgres } from './lib/postgres.js';
import { envInt, fmtMs, summarise, timed } from './lib/stats.js';

/** Milliseconds, with two decimals below 1 ms (the small statement). */
const fmt = (ms: number) => (ms < 1 ? ms.toFixed(2) : fmtMs(ms));

import { formatTable } from './lib/table.js';

const TIME_ZONE = 'Europe/Vilnius';
const ALLOCATOR = 1;
const DEVICES = envInt('BENCH_DEVICES', 3_000);
const READINGS = envInt('BENCH_READINGS', 3_000_000);
const RUNS = envInt('BENCH_RUNS', 20);
const POOL = 4;

const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const load1 = () => loadavg()[0]!.toFixed(1);

interface Bouncer {
  url: string;
  stop(): Promise<void>;
}
const proxies = (await import(pathToFileURL(path.join(import.meta.dirname, '../../scripts/proxies.mjs')).href)) as {
  startPgbouncer(options: { serverPort: number; poolSize?: number }): Promise<Bouncer>;
};

/** The first buildings whose allocators add up to at least `target` (all of them for Infinity). */
function selectBuildings(dataset: Dataset, target: number) {
  return firstBuildings(dataset, target, ALLOCATOR);
}

const now = new Date();
const month = (() => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(now);
  const [y, m] = today.split('-').map(Number) as [number, number];
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return { from: day(new Date(Date.UTC(y, m - 2, 1))), till: day(new Date(Date.UTC(y, m - 1, 0))) };
})();

const cluster = await startPostgres({ settings: { shared_buffers: "'512MB'", work_mem: "'32MB'" } });
let bouncer: Bouncer | undefined;
const dbs: Db[] = [];
try {
  const direct = openPostgres(cluster.url, TIME_ZONE);
  dbs.push(direct);
  await migrate(direct);
  const coverFrom = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1));
  const dataset = createDataset({ devices: DEVICES, readings: READINGS, end: now, coverFrom });
  for (const { sql, rows } of dataset.masterData()) await direct.copyIn(sql, rows);
  await monthPartitions(direct, dataset.start, dataset.end);
  await withoutKeys(direct, 'reading', () => direct.copyIn(dataset.readingsSql, dataset.readings()));
  await direct.query('SELECT keep_last_seen(array(SELECT id FROM device))');
  await direct.exec('ANALYZE');
  const { rows: counted } = await direct.query<{ n: number; version: string }>(
    'SELECT count(*)::int AS n, version() AS version FROM reading',
  );
  log(`loaded ${dataset.deviceCount} devices, ${counted[0]!.n} readings`);

  bouncer = await proxies.startPgbouncer({ serverPort: cluster.port, poolSize: POOL });
  const pooled = openPostgres(bouncer.url, TIME_ZONE);
  dbs.push(pooled);
  const { rows: users } = await direct.query<{ id: number }>(
    "INSERT INTO app_user (username, password_hash, first_name, last_name, group_id) VALUES ('bench', 'x', 'B', 'B', 1) RETURNING id",
  );
  const userId = users[0]!.id;

  const small = selectBuildings(dataset, 500);
  const all = selectBuildings(dataset, Number.POSITIVE_INFINITY);
  // Each side keeps its own caches, as each server instance would.
  const caches = new Map<Db, DevicesDataCaches>();
  const cachesOf = (db: Db) => caches.get(db) ?? caches.set(db, new DevicesDataCaches()).get(db)!;
  const gdd = (parents: number[]) => (db: Db) =>
    getDevicesDataJson(
      db,
      {
        deviceTypeId: ALLOCATOR,
        range: { from: month.from, till: month.till },
        scope: null,
        parents,
        timeZone: TIME_ZONE,
      },
      cachesOf(db),
    ).then((r) => r.json.toString());
  const work: Array<{ name: string; fn: (db: Db) => Promise<unknown>; runs: number }> = [
    { name: `GetDevicesData, ${small.devices} allocators`, fn: gdd(small.parents), runs: RUNS },
    { name: `GetDevicesData, ${all.devices} allocators`, fn: gdd(all.parents), runs: RUNS },
    {
      name: 'a session check (one small statement)',
      fn: (db) => db.query('SELECT id, active, session_generation FROM app_user WHERE id = $1', [userId]),
      runs: RUNS * 20,
    },
    {
      name: `8 × GetDevicesData ${small.devices} at once`,
      fn: (db) => Promise.all(Array.from({ length: 8 }, () => gdd(small.parents)(db))),
      runs: RUNS,
    },
  ];
  const rows: string[][] = [];
  for (const w of work) {
    for (let i = 0; i < 3; i++) for (const db of [direct, pooled]) await w.fn(db);
    const times: [number[], number[]] = [[], []];
    for (let i = 0; i < w.runs; i++) {
      const order = i % 2 ? [1, 0] : [0, 1];
      for (const k of order) times[k]!.push((await timed(() => w.fn(dbs[k]!))).ms);
    }
    const same = JSON.stringify(await w.fn(direct)) === JSON.stringify(await w.fn(pooled));
    const [d, p] = times.map(summarise) as [ReturnType<typeof summarise>, ReturnType<typeof summarise>];
    rows.push([
      w.name,
      fmt(d.medianMs),
      fmt(d.p95Ms),
      fmt(p.medianMs),
      fmt(p.p95Ms),
      `${(p.medianMs / d.medianMs).toFixed(2)}×`,
      same ? 'yes' : 'NO',
      load1(),
    ]);
    log(`${w.name}: direct ${fmt(d.medianMs)} ms, PgBouncer ${fmt(p.medianMs)} ms`);
  }
  console.log(
    [
      `PgBouncer (transaction pooling, ${POOL} server connections) against the same server straight, ${new Date().toISOString()}`,
      ...machineInfo(counted[0]!.version.split(' on ')[0]!),
      `Data: ${dataset.deviceCount} devices, ${counted[0]!.n.toLocaleString('en-US')} readings; period ${month.from}..${month.till}; ${RUNS} runs each (×20 for the small statement), interleaved`,
      '',
      formatTable(
        [
          'work',
          'direct median ms',
          'direct p95',
          'PgBouncer median ms',
          'PgBouncer p95',
          'PgB / direct',
          'same answer',
          'Load',
        ],
        rows,
      ),
    ].join('\n'),
  );
} finally {
  for (const db of dbs) await db.close().catch(() => {});
  await bouncer?.stop();
  await cluster.stop();
}
