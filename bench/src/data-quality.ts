/**
 * Data quality figures (docs/data-quality.md), printed, not asserted: month-end
 * values of one month for every device from scratch, the full validation run,
 * the incremental run after a batch of 10,000 telegrams, and the anomalies of a
 * municipality; on a PostgreSQL server and on PGlite, on the benchmark dataset.
 *
 *   npm run bench:dq -w bench   (BENCH_DEVICES, BENCH_READINGS, BENCH_PGLITE_DEVICES)
 *
 * BENCH_DQ_EXPLAIN=1 also prints, from the PostgreSQL server's log (auto_explain),
 * the EXPLAIN ANALYZE of every statement of the incremental runs that took 5 ms
 * or more; BENCH_DQ_PGLITE=0 leaves PGlite out.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { GROUP } from '@rodmenys/contract';
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPglite } from '@rodmenys/server/db/pglite.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { hashPassword } from '@rodmenys/server/services/auth/password.js';
import { countAnomalies, listAnomalies } from '@rodmenys/server/services/data-quality/anomalies.js';
import { computeMonthForAll, refreshMonthEnds } from '@rodmenys/server/services/data-quality/refresh-month-ends.js';
import { validate } from '@rodmenys/server/services/data-quality/validate.js';
import { ingestTelegrams } from '@rodmenys/server/services/ingest/ingest-telegrams.js';
import { monthPartitions, withoutKeys } from './lib/bulk-load.js';
import { createDataset, type Dataset } from './lib/dataset.js';
import { machineInfo } from './lib/machine.js';
import { startPostgres } from './lib/postgres.js';
import { startServer } from './lib/server.js';
import { envInt, fmtMs, measure, timed } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const TIME_ZONE = 'Europe/Vilnius';
const DEVICES = envInt('BENCH_DEVICES', 13_000);
const READINGS = envInt('BENCH_READINGS', 20_000_000);
const PGLITE_DEVICES = envInt('BENCH_PGLITE_DEVICES', 2_000);
const BATCH = 10_000;
const POSTGRES_SETTINGS = { shared_buffers: "'2GB'", work_mem: "'64MB'", effective_cache_size: "'8GB'" };
const EXPLAIN = process.env.BENCH_DQ_EXPLAIN === '1';
const WITH_PGLITE = process.env.BENCH_DQ_PGLITE !== '0';
// auto_explain is loaded into every session but logs nothing until the incremental run turns it on.
const EXPLAIN_SETTINGS: Record<string, string | number> = EXPLAIN
  ? {
      session_preload_libraries: "'auto_explain'",
      'auto_explain.log_analyze': 'on',
      'auto_explain.log_buffers': 'on',
      'auto_explain.log_min_duration': -1,
    }
  : {};

const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const load1 = () => loadavg()[0]!.toFixed(1);

interface Row {
  database: string;
  step: string;
  ms: string;
  aim: string;
  load: string;
  detail: string;
}

async function loadData(db: Db, dataset: Dataset, devices?: ReadonlySet<number>) {
  for (const { sql, rows } of dataset.masterData()) await db.copyIn(sql, rows);
  await monthPartitions(db, dataset.start, dataset.end);
  await withoutKeys(db, 'reading', () => db.copyIn(dataset.readingsSql, dataset.readings({ devices })));
  await db.query('SELECT keep_last_seen(array(SELECT id FROM device))');
  await db.exec('ANALYZE');
}

/** 10,000 telegrams of as many devices, one hour after their latest reading, as a collector batch. */
async function telegramBatch(db: Db, now: Date) {
  const { rows } = await db.query<{ code: string; kind: string; v: string }>(
    `SELECT d.device_code AS code, t.data_load_proc AS kind, (SELECT r.value FROM reading r WHERE r.device_id = d.id
              ORDER BY r.ts DESC LIMIT 1)::text AS v
       FROM device d JOIN device_type t ON t.id = d.device_type_id WHERE d.removed_at IS NULL ORDER BY d.id LIMIT $1`,
    [BATCH],
  );
  const field: Record<string, string> = {
    allocator: 'current_hca',
    energy: 'total_energy_consumption_kwh',
    volume: 'total_m3',
  };
  return rows.map((r, i) => {
    const json = { id: r.code, meter: 'bench', timestamp: now.toISOString(), [field[r.kind]!]: Number(r.v ?? 0) + 1 };
    return { position: i + 1, json, raw: JSON.stringify(json) };
  });
}

interface Hooks {
  /** Around each incremental run (the PostgreSQL plans of BENCH_DQ_EXPLAIN). */
  around?: <T>(label: string, fn: () => Promise<T>) => Promise<T>;
}

async function run(database: string, db: Db, now: Date, month: string, hooks: Hooks = {}): Promise<Row[]> {
  const out: Row[] = [];
  const add = (step: string, ms: number, aim: string, detail: string) => {
    out.push({ database, step, ms: fmtMs(ms), aim, load: load1(), detail });
    log(`${database} ${step}: ${fmtMs(ms)} ms (${detail})`);
  };
  const devices = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM device')).rows[0]!.n;
  const me = await timed(() => computeMonthForAll(db, month));
  add(
    `month ends of ${month.slice(0, 7)}, all devices, from scratch`,
    me.ms,
    '10 s',
    `${me.result.stored} values, ${me.result.estimated} estimated, ${devices} devices`,
  );
  const catchUp = await timed(() => refreshMonthEnds(db, now, { ensure: true }));
  add('catch-up: every missing month end (24 months)', catchUp.ms, '-', `${catchUp.result.written} values`);
  const full1 = await timed(() => validate(db, null, now));
  add('full validation run (first)', full1.ms, '30 s', `${full1.result.found} found, ${full1.result.opened} opened`);
  const full2 = await timed(() => validate(db, null, now));
  add('full validation run (again)', full2.ms, '30 s', `${full2.result.found} found`);
  // Two batches, an hour apart (the second: devices whose readings were just validated once more).
  for (const [i, label] of ['', ' (again)'].entries()) {
    const at = new Date(now.getTime() + (i + 1) * 3_600_000);
    const batch = await telegramBatch(db, at);
    // The every-minute run after the batch came in.
    const runAt = new Date(at.getTime() + 60_000);
    const ingest = await timed(() => ingestTelegrams(db, batch));
    add(
      `ingest of ${batch.length} telegrams${label} (for reference)`,
      ingest.ms,
      '-',
      `${ingest.result.Readings} readings`,
    );
    const around = hooks.around ?? ((_label, fn) => fn());
    const incremental = await timed(() =>
      around(`incremental run${label}`, async () => {
        const r = await refreshMonthEnds(db, runAt, { ensure: false });
        return { r, v: await validate(db, r.devices, runAt) };
      }),
    );
    add(
      `incremental run after ${batch.length} telegrams${label}`,
      incremental.ms,
      '1 s',
      `${incremental.result.r.devices.length} devices, ${incremental.result.r.written} month ends, ${incremental.result.v.found} found`,
    );
  }
  const { rows: muni } = await db.query<{ id: number; n: number }>(
    `SELECT l.id, (SELECT count(*) FROM device d JOIN location f ON f.id = d.location_id WHERE f.path && ARRAY[l.id])::int AS n
       FROM location l WHERE l.level = 3 ORDER BY 2 DESC LIMIT 1`,
  );
  const scope = [muni[0]!.id];
  // A manager of the municipality reads them (operators' names come back as null to such a reader).
  const reader = { id: 0, groupId: GROUP.user };
  const list = await measure(() => listAnomalies(db, { scope }, reader), { warmup: 2, runs: 15 });
  const count = await measure(() => countAnomalies(db, { scope }), { warmup: 2, runs: 15 });
  const rows = (await listAnomalies(db, { scope }, reader)).length;
  add(
    'anomalies of a municipality: list (handler, median)',
    list.medianMs,
    '100 ms',
    `${rows} rows, ${muni[0]!.n} devices`,
  );
  add('anomalies of a municipality: counts (handler, median)', count.medianMs, '100 ms', `${muni[0]!.n} devices`);
  // The same over HTTP: a manager of the municipality signed in, the real app on a local port.
  const server = await startServer(db, TIME_ZONE);
  try {
    const username = `bench-manager-${Date.now()}`;
    const { rows: manager } = await db.query<{ id: number }>(
      `INSERT INTO app_user (username, password_hash, first_name, last_name, group_id)
       VALUES ($1, $2, 'Bench', 'Manager', 3) RETURNING id`,
      [username, await hashPassword('bench-manager-password')],
    );
    await db.query('INSERT INTO location_right (user_id, location_id) VALUES ($1, $2)', [manager[0]!.id, scope[0]]);
    const signIn = await fetch(`${server.api}/users/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'bench-manager-password' }),
    });
    const token = ((await signIn.json()) as { Token: string }).Token;
    const get = async (url: string) => {
      const res = await fetch(`${server.api}${url}`, {
        headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
      });
      if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return res.text();
    };
    const httpList = await measure(() => get('/data-quality/anomalies?state=open'), { warmup: 2, runs: 15 });
    const httpCount = await measure(() => get('/data-quality/anomalies/counts?state=open'), { warmup: 2, runs: 15 });
    add('anomalies of a municipality: list (HTTP, median)', httpList.medianMs, '100 ms', `${muni[0]!.n} devices`);
    add('anomalies of a municipality: counts (HTTP, median)', httpCount.medianMs, '100 ms', `${muni[0]!.n} devices`);
  } finally {
    await server.close();
  }
  return out;
}

async function main() {
  const now = new Date();
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const month = monthStart.toISOString().slice(0, 10);
  const coverFrom = new Date(monthStart.getTime() - 40 * 86_400_000);
  const dataset = createDataset({ devices: DEVICES, readings: READINGS, end: now, coverFrom });
  log(
    `dataset: ${dataset.deviceCount} devices, readings every ${dataset.intervalHours} h from ${dataset.start.toISOString()}`,
  );
  const rows: Row[] = [];
  const cluster = await startPostgres({ settings: { ...POSTGRES_SETTINGS, ...EXPLAIN_SETTINGS } });
  let version = '';
  try {
    const db = openPostgres(cluster.url, TIME_ZONE);
    try {
      await migrate(db);
      version = (await db.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.split(' on ')[0]!;
      log(`PostgreSQL: loading ${READINGS.toLocaleString('en-US')} readings`);
      const loaded = await timed(() => loadData(db, dataset));
      log(`loaded in ${fmtMs(loaded.ms)} ms`);
      rows.push(...(await run('PostgreSQL', db, now, month, EXPLAIN ? { around: explained(db, cluster.dir) } : {})));
    } finally {
      await db.close();
    }
  } finally {
    await cluster.stop();
  }
  if (!WITH_PGLITE) return print(rows, version);
  // PGlite: the first buildings up to BENCH_PGLITE_DEVICES devices, all their readings.
  const chosen = new Set<number>();
  let n = 0;
  for (const b of dataset.buildings) {
    if (n >= PGLITE_DEVICES) break;
    chosen.add(b.locationId);
    n += Object.values(b.devices).reduce((a, c) => a + c, 0);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-dq-'));
  try {
    const db = await openPglite(dir, TIME_ZONE);
    try {
      await migrate(db);
      log(`PGlite: loading ${n} devices' readings`);
      await loadData(db, dataset, dataset.devicesIn(chosen));
      // The other devices have no readings here: taken out of service, so they count nowhere.
      await db.query('UPDATE device SET removed_at = installed_at WHERE id <> ALL($1::int[])', [
        [...dataset.devicesIn(chosen)],
      ]);
      rows.push(...(await run(`PGlite (${n} devices)`, db, now, month)));
    } finally {
      await db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  print(rows, version);
}

function print(rows: Row[], version: string) {
  console.log(`\nData quality (npm run bench:dq -w bench), ${new Date().toISOString()}`);
  for (const line of machineInfo(version)) console.log(`- ${line}`);
  console.log(`- load average (1 min) at each step in the table; the machine is shared\n`);
  console.log(
    formatTable(
      ['Database', 'Step', 'ms', 'Aim', 'Load', 'Detail'],
      rows.map((r) => [r.database, r.step, r.ms, r.aim, r.load, r.detail]),
    ),
  );
}

/** Runs `fn` with auto_explain on (statements of 5 ms or more) and prints the plans it logged. */
function explained(db: Db, dir: string) {
  return async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
    const logFile = path.join(dir, 'server.log');
    const set = async (value: string) => {
      await db.exec(`ALTER SYSTEM SET auto_explain.log_min_duration = ${value}`);
      await db.query('SELECT pg_reload_conf()');
      // The reload reaches the other sessions at their next statement; give it a moment.
      await new Promise((r) => setTimeout(r, 300));
    };
    await set("'5ms'");
    const from = statSync(logFile).size;
    try {
      return await fn();
    } finally {
      await set('-1');
      const text = readFileSync(logFile).subarray(from).toString('utf8');
      console.log(`\n===== PostgreSQL plans of the ${label} (auto_explain, 5 ms or more) =====\n${text}`);
    }
  };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
