/**
 * `npm run bench`: GetDevicesData (docs/domain.md §5) on a large dataset.
 *
 * 1. A throwaway PostgreSQL server with >= 10,000 devices and >= 20 M readings
 *    (COPY), then per selection (500, 5,000, all allocators, one month) the
 *    endpoint over HTTP, the service function, and a naive DISTINCT ON query
 *    computing the same answer, run side by side; the answers are compared, and
 *    the benchmark fails (exit code 1) when they differ. In the same rounds: the
 *    part statements with the midnight rule before and after it
 *    (lib/devices-data-before.ts), and the naive query of earlier runs (7-day
 *    look-back) to show what the correct baseline costs.
 * 2. The same on embedded PGlite (500 and 5,000; a smaller, same-shaped dataset).
 * 3. The first start of the default embedded database (`node server/dist/server.js`).
 *
 * BENCH_DEVICES, BENCH_READINGS, BENCH_RUNS override the sizes for a quick run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { ReadingRow } from '@rodmenys/contract';
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPglite } from '@rodmenys/server/db/pglite.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { getDevicesDataJson } from '@rodmenys/server/services/devices/devices-data/index.js';
import { ACCOUNTS_SQL } from '@rodmenys/server/services/devices/devices-data/sql.js';
import { monthPartitions, withoutKeys } from './lib/bulk-load.js';
import { cpuClock } from './lib/cpu.js';
import { createDataset, type Dataset, firstBuildings } from './lib/dataset.js';
import { runParts } from './lib/devices-data-before.js';
import { machineInfo } from './lib/machine.js';
import { NAIVE_7DAY_SQL, NAIVE_LOOKBACK, NAIVE_SQL } from './lib/naive-devices-data.js';
import { startPostgres } from './lib/postgres.js';
import { startServer } from './lib/server.js';
import { envInt, fmtMs, median, summarise, type Timing, timed } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const DEVICES = envInt('BENCH_DEVICES', 13_000);
const READINGS = envInt('BENCH_READINGS', 20_000_000);
const RUNS = envInt('BENCH_RUNS', 15);
const WARMUP = 3;
const TIME_ZONE = 'Europe/Vilnius';
const ALLOCATOR = 1;
/** A server configured for its machine rather than PostgreSQL's minimal defaults (128 MB buffers, 4 MB work_mem). */
const POSTGRES_SETTINGS = { shared_buffers: "'2GB'", work_mem: "'64MB'", effective_cache_size: "'8GB'" };

const log = (message: string) => console.error(`[bench] ${message}`);

/** The last whole calendar month before today, as days in the provider's zone. */
function lastMonth(now: Date): { dateFrom: string; dateTill: string; approxStart: Date } {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(now);
  const [y, m] = today.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 2, 1));
  const last = new Date(Date.UTC(y, m - 1, 0));
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return { dateFrom: day(first), dateTill: day(last), approxStart: new Date(first.getTime() - 3 * 3_600_000) };
}

interface Selection {
  label: string;
  /** Building location ids (null = everything in scope). */
  parents: number[] | null;
  devices: number;
}

/** Whole buildings, in order, until they hold `target` allocators. */
function selectBuildings(dataset: Dataset, target: number): Selection {
  return { label: target.toLocaleString('en-US'), ...firstBuildings(dataset, target, ALLOCATOR) };
}

interface Answer {
  TimeFrom: string | null;
  TimeTill: string | null;
  from: number | null;
  till: number | null;
  diff: number | null;
  flat: number | null;
}

async function periodBounds(db: Db, dateFrom: string, dateTill: string): Promise<[Date, Date]> {
  const { rows } = await db.query<{ f: Date; t: Date }>(
    `SELECT ($1::date::timestamp AT TIME ZONE $3) AS f, (($2::date + 1)::timestamp AT TIME ZONE $3) AS t`,
    [dateFrom, dateTill, TIME_ZONE],
  );
  return [rows[0]!.f, rows[0]!.t];
}

const fromHttp = (r: ReadingRow): Answer => ({
  TimeFrom: r.TimeFrom,
  TimeTill: r.TimeTill,
  from: r.UnitsForHCAFrom ?? r.EnergyFrom ?? r.VolumeFrom ?? null,
  till: r.UnitsForHCATill ?? r.EnergyTill ?? r.VolumeTill ?? null,
  diff: r.Difference,
  flat: r.FlatDifference,
});

/** Devices whose answers differ (order included), as "id: field a != b" lines. */
function compare(a: Array<{ DeviceId: number } & Answer>, b: Array<{ DeviceId: number } & Answer>): string[] {
  const diffs: string[] = [];
  if (a.length !== b.length) diffs.push(`row count ${a.length} != ${b.length}`);
  const close = (x: unknown, y: unknown) =>
    x === y || (typeof x === 'number' && typeof y === 'number' && Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x)));
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    for (const key of ['DeviceId', 'TimeFrom', 'TimeTill', 'from', 'till', 'diff', 'flat'] as const) {
      if (!close(x[key], y[key])) diffs.push(`row ${i} device ${x.DeviceId}: ${key} ${x[key]} != ${y[key]}`);
    }
  }
  return diffs;
}

/** The encodings measured over HTTP: none, then what @fastify/compress answers (server/src/app.ts). */
const ENCODINGS = ['identity', 'br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];
/** Links for the transfer estimate: a LAN and slow links (bits per second). */
const LINKS: Array<[string, number]> = [
  ['1 Gbit/s LAN', 1e9],
  ['100 Mbit/s', 100e6],
  ['20 Mbit/s', 20e6],
  ['4 Mbit/s (slow mobile)', 4e6],
];

/** The bytes the server sends for `url` with this Accept-Encoding (the body as it goes over the wire, undecoded). */
function wireBytes(url: string, headers: Record<string, string>, encoding: Encoding): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...headers, 'accept-encoding': encoding } }, (res) => {
      let n = 0;
      res.on('data', (chunk: Buffer) => {
        n += chunk.length;
      });
      res.on('end', () => {
        const got = res.headers['content-encoding'] ?? 'identity';
        if (got !== encoding) reject(new Error(`asked for ${encoding}, got ${got}`));
        else resolve(n);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Result {
  database: string;
  selection: Selection;
  /** Over HTTP uncompressed (Accept-Encoding: identity). */
  http: Timing;
  /** Over HTTP with each compressed encoding, decoded by fetch as a browser does. */
  compressed: Record<Exclude<Encoding, 'identity'>, Timing>;
  /** Bytes on the wire per encoding. */
  wire: Record<Encoding, number>;
  /** Over HTTP, each call right after a master-data change (no device text kept). */
  cold: Timing;
  handler: Timing;
  naive: Timing;
  /** The naive query of earlier runs (7-day look-back, end before the midnight rule). */
  naive7: Timing;
  /** The part statements with the midnight rule (after) and as before it. */
  partsAfter: Timing;
  partsBefore: Timing;
  /** Mean CPU milliseconds per call, this process plus the database server's backends. */
  cpu: Record<Sample, number>;
  responseKb: number;
  agree: string;
  /** Devices whose row the midnight rule changes, and rows where the 7-day naive query differs from the product. */
  ruleChanged: number;
  naive7Differs: number;
}

type Sample = 'http' | 'br' | 'gzip' | 'cold' | 'handler' | 'naive' | 'naive7' | 'partsAfter' | 'partsBefore';

/** HTTP, handler and naive query for one selection, interleaved round by round. */
async function runSelection(db: Db, database: string, selection: Selection, month: ReturnType<typeof lastMonth>) {
  const server = await startServer(db, TIME_ZONE);
  try {
    const [f, t] = await periodBounds(db, month.dateFrom, month.dateTill);
    const query = new URLSearchParams({
      dateFrom: month.dateFrom,
      dateTill: month.dateTill,
      deviceTypeId: String(ALLOCATOR),
      ...(selection.parents ? { locationParentId: selection.parents.join(',') } : {}),
    });
    const url = `${server.api}/devices/GetDevicesData?${query}`;
    const headers = { authorization: `Bearer ${server.token}` };
    // fetch asks for gzip/br by default: the uncompressed figure must say identity.
    const fetchAs = (encoding: Encoding) => async () => {
      const res = await fetch(url, { headers: { ...headers, 'accept-encoding': encoding } });
      const body = await res.text();
      if (!res.ok) throw new Error(`GetDevicesData ${res.status}: ${body.slice(0, 300)}`);
      if ((res.headers.get('content-encoding') ?? 'identity') !== encoding) throw new Error(`not ${encoding}`);
      return body;
    };
    const http = fetchAs('identity');
    // The service as the route calls it (with the app's caches): the answer's JSON text, written by the database.
    const handler = () =>
      getDevicesDataJson(
        db,
        {
          deviceTypeId: ALLOCATOR,
          range: { from: month.dateFrom, till: month.dateTill },
          scope: null,
          parents: selection.parents,
          timeZone: TIME_ZONE,
        },
        server.app.devicesDataCaches,
      );
    const naive = () => db.query<{ DeviceId: number } & Answer>(NAIVE_SQL, [ALLOCATOR, null, selection.parents, f, t]);
    const naive7 = () =>
      db.query<{ DeviceId: number } & Answer>(NAIVE_7DAY_SQL, [ALLOCATOR, null, selection.parents, f, t]);
    const partsInput = {
      deviceTypeId: ALLOCATOR,
      range: { from: month.dateFrom, till: month.dateTill },
      scope: null,
      parents: selection.parents,
      timeZone: TIME_ZONE,
    };
    const partsAfter = () => runParts(db, partsInput, 'after');
    const partsBefore = () => runParts(db, partsInput, 'before');

    const body = await http();
    const viaHttp = (JSON.parse(body) as ReadingRow[]).map((r) => ({ DeviceId: r.DeviceId, ...fromHttp(r) }));
    const viaHandler = (JSON.parse((await handler()).json.toString()) as ReadingRow[]).map((r) => ({
      DeviceId: r.DeviceId,
      ...fromHttp(r),
    }));
    const first = await timed(naive);
    const viaNaive = first.result.rows;
    // The naive query can take seconds: fewer runs of it (at least 3), about 20 s in all.
    const naiveRuns = Math.min(RUNS, Math.max(3, Math.ceil(20_000 / first.ms)));
    const diffs = [...compare(viaHttp, viaNaive), ...compare(viaHandler, viaNaive)];
    // What the rule changes (information, not a failure): rows before and after it, and the 7-day naive query.
    const [after, before] = [await partsAfter(), await partsBefore()];
    if (after.size !== viaHttp.length)
      diffs.push(`the part statements gave ${after.size} rows, HTTP ${viaHttp.length}`);
    const ruleChanged = [...after].filter(([id, tail]) => before.get(id) !== tail).length;
    const naive7Differs = new Set(compare(viaHttp, (await naive7()).rows).map((line) => line.replace(/:.*/, ''))).size;
    // The first call read every device's text; the second uses the texts kept: the same bytes.
    if ((await http()) !== body) diffs.push('a second call (device texts kept) answered differently from the first');
    for (const encoding of ['br', 'gzip'] as const) {
      if ((await fetchAs(encoding)()) !== body) diffs.push(`the ${encoding} answer decodes to other text`);
    }
    const wire = {} as Record<Encoding, number>;
    for (const encoding of ENCODINGS) wire[encoding] = await wireBytes(url, headers, encoding);
    if (viaHttp.length !== selection.devices) diffs.push(`expected ${selection.devices} rows, got ${viaHttp.length}`);
    if (diffs.length > 0) log(`${database} ${selection.label}: answers differ:\n  ${diffs.slice(0, 10).join('\n  ')}`);
    const withValues = viaHttp.filter((r) => r.till !== null).length;

    const samples: Record<Sample, number[]> = {
      http: [],
      br: [],
      gzip: [],
      cold: [],
      handler: [],
      naive: [],
      naive7: [],
      partsAfter: [],
      partsBefore: [],
    };
    const cpu: Record<Sample, number> = {
      http: 0,
      br: 0,
      gzip: 0,
      cold: 0,
      handler: 0,
      naive: 0,
      naive7: 0,
      partsAfter: 0,
      partsBefore: 0,
    };
    // What every master-data change does (migration 040's trigger): the texts kept for the devices are dropped.
    const changeMasterData = () => db.query('INSERT INTO master_change DEFAULT VALUES');
    let clock: () => Promise<number> = async () => 0;
    for (let round = 0; round < WARMUP + RUNS; round++) {
      // The pool has opened its connections by now: their backends are the ones to watch.
      if (round === WARMUP) clock = await cpuClock(db);
      // Before and after the midnight rule in turn, in alternating order from round to round.
      const rule: Array<[Sample, () => Promise<unknown>]> = [
        ['partsAfter', partsAfter],
        ['partsBefore', partsBefore],
      ];
      const fns: Array<[Sample, () => Promise<unknown>]> = [
        ['http', http],
        ['br', fetchAs('br')],
        ['gzip', fetchAs('gzip')],
        ['cold', http],
        ['handler', handler],
        ...(round % 2 === 0 ? rule : rule.reverse()),
        ['naive', naive],
        ['naive7', naive7],
      ];
      for (const [name, fn] of fns) {
        const slow = name === 'naive' || name === 'naive7';
        const runs = slow ? naiveRuns : RUNS;
        if (slow && (round < WARMUP - 1 || round >= WARMUP + runs)) continue;
        if (name === 'cold') await changeMasterData();
        const before = await clock();
        const { ms } = await timed(fn);
        if (round >= WARMUP) {
          samples[name].push(ms);
          cpu[name] += ((await clock()) - before) / runs;
        }
      }
    }
    // The accounts statement alone (docs/occupancies.md) over the answer's devices, as each call runs it;
    // every flat has an open occupancy of its client here, so it looks each flat up and finds nothing.
    const accountIds = viaHttp.map((r) => r.DeviceId);
    const accountsMs: number[] = [];
    let accountsCpu = 0;
    let accountsFound = 0;
    for (let round = 0; round < WARMUP + RUNS; round++) {
      const before = await clock();
      const { ms, result } = await timed(() => db.query(ACCOUNTS_SQL, [accountIds, month.dateTill]));
      accountsFound = result.rows.length;
      if (round >= WARMUP) {
        accountsMs.push(ms);
        accountsCpu += ((await clock()) - before) / RUNS;
      }
    }
    log(
      `${database} ${selection.label}: accounts statement alone ${fmtMs(median(accountsMs))} ms median, ` +
        `CPU ${fmtMs(accountsCpu)} ms, ${accountsFound} rows found`,
    );
    const result: Result = {
      database,
      selection,
      http: summarise(samples.http),
      compressed: { br: summarise(samples.br), gzip: summarise(samples.gzip) },
      wire,
      cold: summarise(samples.cold),
      handler: summarise(samples.handler),
      naive: summarise(samples.naive),
      naive7: summarise(samples.naive7),
      partsAfter: summarise(samples.partsAfter),
      partsBefore: summarise(samples.partsBefore),
      cpu,
      ruleChanged,
      naive7Differs,
      responseKb: Buffer.byteLength(body) / 1024,
      agree:
        diffs.length === 0
          ? `yes (${viaHttp.length} rows, ${withValues} with readings)`
          : `NO: ${diffs.length} differences`,
    };
    log(
      `${database} ${selection.label}: http ${fmtMs(result.http.medianMs)} ms, handler ${fmtMs(result.handler.medianMs)} ms, ` +
        `parts after/before ${fmtMs(result.partsAfter.medianMs)}/${fmtMs(result.partsBefore.medianMs)} ms, ` +
        `naive ${fmtMs(result.naive.medianMs)} ms (7-day ${fmtMs(result.naive7.medianMs)}); agree ${result.agree}`,
    );
    return result;
  } finally {
    await server.close();
  }
}

/**
 * Readings stamped exactly at the period's bounds F and T (00:00 local), as CSV files with day-only
 * times give them, for every 10th allocator: the rows the midnight rule changes (docs/domain.md §5).
 * Each is the device's latest value before it plus one. Returns how many were added.
 */
async function addMidnightReadings(db: Db, month: ReturnType<typeof lastMonth>): Promise<number> {
  const [f, t] = await periodBounds(db, month.dateFrom, month.dateTill);
  const { rows } = await db.query<{ n: number }>(
    `WITH added AS (
       INSERT INTO reading (device_id, ts, value)
       SELECT d.id, b.ts, coalesce((SELECT r.value FROM reading r WHERE r.device_id = d.id AND r.ts < b.ts
                                    ORDER BY r.ts DESC LIMIT 1), 0) + 1
         FROM device d CROSS JOIN (VALUES ($1::timestamptz), ($2::timestamptz)) AS b (ts)
        WHERE d.device_type_id = ${ALLOCATOR} AND d.id % 10 = 0
        ORDER BY 1, 2
       ON CONFLICT DO NOTHING RETURNING 1)
     SELECT count(*)::int AS n FROM added`,
    [f, t],
  );
  return rows[0]!.n;
}

/** COPY the master data and the readings; returns the reading count and the time taken. */
async function load(db: Db, dataset: Dataset, filter?: Parameters<Dataset['readings']>[0]) {
  const { ms } = await timed(async () => {
    for (const { sql, rows } of dataset.masterData()) await db.copyIn(sql, rows);
    // Every flat with a client has an open occupancy of that client, as migration 150 made them: the
    // common case, in which the accounts statement (docs/occupancies.md) looks up each flat and finds nothing.
    await db.query(
      `INSERT INTO occupancy (location_id, client_id, name) SELECT id, client_id, 'Occupant' FROM location WHERE client_id IS NOT NULL`,
    );
    await monthPartitions(db, dataset.start, dataset.end);
    await withoutKeys(db, 'reading', () => db.copyIn(dataset.readingsSql, dataset.readings(filter)));
    // As every path that inserts readings does (migration 030): LastSeen is device_status.last_seen.
    await db.query('SELECT keep_last_seen(array(SELECT id FROM device))');
  });
  return { readings: dataset.lastReadingCount, ms };
}

/** Time from `node server/dist/server.js` to its "is running" line, on an empty data folder. */
async function firstStart(): Promise<{ ms: number; readings: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-first-'));
  const serverJs = path.join(import.meta.dirname, '../../server/dist/server.js');
  try {
    const started = performance.now();
    const child = spawn(process.execPath, [serverJs], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const ms = await new Promise<number>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('is running')) resolve(performance.now() - started);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', (code) => reject(new Error(`server exited (${code}) before running:\n${output}`)));
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    const db = await openPglite(dataDir, TIME_ZONE);
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reading');
    await db.close();
    return { ms, readings: rows[0]!.n };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const now = new Date();
  const month = lastMonth(now);
  const coverFrom = new Date(month.approxStart.getTime() - 8 * 86_400_000);
  const dataset = createDataset({ devices: DEVICES, readings: READINGS, end: now, coverFrom });
  const selections = [selectBuildings(dataset, 500), selectBuildings(dataset, 5000)];
  const allocators = dataset.buildings.reduce((n, b) => n + (b.devices[ALLOCATOR] ?? 0), 0);
  log(
    `dataset: ${dataset.deviceCount} devices (${allocators} allocators) in ${dataset.buildings.length} buildings, ` +
      `readings every ${dataset.intervalHours} h from ${dataset.start.toISOString()}; period ${month.dateFrom}..${month.dateTill}`,
  );
  const results: Result[] = [];
  /** The 1-minute load average around each measurement: other processes skew the figures. */
  const loads: number[] = [];
  const notes: string[] = [];

  // 1. PostgreSQL server.
  log('starting PostgreSQL');
  const cluster = await startPostgres({ settings: POSTGRES_SETTINGS });
  let postgresVersion = '';
  try {
    const db = openPostgres(cluster.url, TIME_ZONE);
    try {
      await migrate(db);
      postgresVersion = (await db.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.split(' on ')[0]!;
      log(`loading ${READINGS.toLocaleString('en-US')} readings with COPY`);
      const loaded = await load(db, dataset);
      const midnight = await addMidnightReadings(db, month);
      const analyze = await timed(() => db.exec('ANALYZE'));
      const size = (await db.query<{ s: string }>(`SELECT pg_size_pretty(pg_total_relation_size('reading')) AS s`))
        .rows[0]!.s;
      notes.push(
        `PostgreSQL dataset: ${dataset.deviceCount.toLocaleString('en-US')} devices (${allocators.toLocaleString('en-US')} allocators), ` +
          `${loaded.readings.toLocaleString('en-US')} readings every ${dataset.intervalHours} h (${size} with the primary key), ` +
          `loaded with COPY in ${(loaded.ms / 1000).toFixed(1)} s (${Math.round(loaded.readings / (loaded.ms / 1000)).toLocaleString('en-US')} rows/s), ANALYZE ${(analyze.ms / 1000).toFixed(1)} s; ` +
          `then ${midnight.toLocaleString('en-US')} readings added at exactly 00:00 of the period's bounds (every 10th allocator, as day-only CSV times give them).`,
      );
      log(notes.at(-1)!);
      for (const selection of [...selections, { label: 'all', parents: null, devices: allocators }]) {
        loads.push(loadavg()[0]!);
        results.push(await runSelection(db, 'PostgreSQL', selection, month));
        loads.push(loadavg()[0]!);
      }
    } finally {
      await db.close();
    }
  } finally {
    await cluster.stop();
  }

  // 2. Embedded PGlite in a data folder, as the product runs it by default.
  const pgliteDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-pglite-'));
  try {
    const db = await openPglite(pgliteDir, TIME_ZONE);
    try {
      await migrate(db);
      // The readings of the devices in the measured buildings, from a week before the period to its end.
      const inSelection = dataset.devicesIn(new Set(selections.at(-1)!.parents));
      const loaded = await load(db, dataset, {
        devices: inSelection,
        from: coverFrom,
        till: new Date(month.approxStart.getTime() + 32 * 86_400_000),
      });
      notes.push(
        `PGlite dataset: the same tree and devices; readings only for the ${inSelection.size.toLocaleString('en-US')} devices ` +
          `of the measured buildings, from 8 days before the period to its end: ${loaded.readings.toLocaleString('en-US')} readings, ` +
          `loaded in ${(loaded.ms / 1000).toFixed(1)} s.`,
      );
      log(notes.at(-1)!);
      const midnightPglite = await addMidnightReadings(db, month);
      notes.push(
        `PGlite: ${midnightPglite.toLocaleString('en-US')} readings added at exactly 00:00 of the period's bounds.`,
      );
      await db.exec('ANALYZE');
      for (const selection of selections) {
        loads.push(loadavg()[0]!);
        results.push(await runSelection(db, 'PGlite', selection, month));
        loads.push(loadavg()[0]!);
      }
    } finally {
      await db.close();
    }
  } finally {
    rmSync(pgliteDir, { recursive: true, force: true });
  }

  // 3. First start of the default embedded database.
  log('first start of the embedded database');
  const first = await firstStart();
  log(`first start ${Math.round(first.ms)} ms, ${first.readings} demo readings`);

  const header = [
    'Database',
    'Devices',
    'HTTP median',
    'HTTP p95',
    'HTTP cold median',
    'Handler median',
    'Handler p95',
    'Naive median',
    'Naive p95',
    'Naive / HTTP',
    'CPU HTTP / cold / handler / naive',
    'Response',
    'Same answer',
  ];
  const rows = results.map((r) => [
    r.database,
    `${r.selection.label === 'all' ? 'all ' : ''}${r.selection.devices.toLocaleString('en-US')}`,
    fmtMs(r.http.medianMs),
    fmtMs(r.http.p95Ms),
    fmtMs(r.cold.medianMs),
    fmtMs(r.handler.medianMs),
    fmtMs(r.handler.p95Ms),
    fmtMs(r.naive.medianMs),
    fmtMs(r.naive.p95Ms),
    `${(r.naive.medianMs / r.http.medianMs).toFixed(1)}x`,
    [r.cpu.http, r.cpu.cold, r.cpu.handler, r.cpu.naive].map(fmtMs).join(' / '),
    `${Math.round(r.responseKb).toLocaleString('en-US')} KB`,
    r.agree,
  ]);
  // Compression: server + client time measured on loopback, plus the wire bytes at each link's speed.
  const compressionHeader = [
    'Database',
    'Devices',
    'Encoding',
    'Bytes',
    'Median (loopback)',
    'CPU',
    ...LINKS.map(([l]) => l),
  ];
  const compressionRows = results.flatMap((r) =>
    ENCODINGS.map((encoding) => {
      const timing = encoding === 'identity' ? r.http : r.compressed[encoding];
      const cpuMs = encoding === 'identity' ? r.cpu.http : r.cpu[encoding];
      return [
        r.database,
        r.selection.devices.toLocaleString('en-US'),
        encoding,
        `${Math.round(r.wire[encoding] / 1024).toLocaleString('en-US')} KB`,
        fmtMs(timing.medianMs),
        fmtMs(cpuMs),
        ...LINKS.map(([, bps]) => fmtMs(timing.medianMs + ((r.wire[encoding] * 8) / bps) * 1000)),
      ];
    }),
  );
  // The midnight rule before and after, and what the correct naive baseline costs, from the same rounds.
  const ruleHeader = [
    'Database',
    'Devices',
    'Parts after median',
    'after p95',
    'after CPU',
    'Parts before median',
    'before p95',
    'before CPU',
    'After / before',
    'Rows the rule changes',
    'Naive median',
    'Naive 7-day median',
    'Naive / 7-day',
    'Rows 7-day gets wrong',
  ];
  const ruleRows = results.map((r) => [
    r.database,
    `${r.selection.label === 'all' ? 'all ' : ''}${r.selection.devices.toLocaleString('en-US')}`,
    fmtMs(r.partsAfter.medianMs),
    fmtMs(r.partsAfter.p95Ms),
    fmtMs(r.cpu.partsAfter),
    fmtMs(r.partsBefore.medianMs),
    fmtMs(r.partsBefore.p95Ms),
    fmtMs(r.cpu.partsBefore),
    `${(r.partsAfter.medianMs / r.partsBefore.medianMs).toFixed(2)}x`,
    r.ruleChanged.toLocaleString('en-US'),
    fmtMs(r.naive.medianMs),
    fmtMs(r.naive7.medianMs),
    `${(r.naive.medianMs / r.naive7.medianMs).toFixed(1)}x`,
    r.naive7Differs.toLocaleString('en-US'),
  ]);
  const failed = results.filter((r) => !r.agree.startsWith('yes'));
  const pg5000 = results.find((r) => r.database === 'PostgreSQL' && r.selection === selections[1]);
  const out = [
    `GetDevicesData, allocators (type 1), ${month.dateFrom}..${month.dateTill} (${TIME_ZONE}); times in ms, ${RUNS} runs after ${WARMUP} warm-up rounds, HTTP / handler / naive interleaved (the naive query: 1 warm-up, then 3 to ${RUNS} runs, about 20 s).`,
    '',
    formatTable(header, rows),
    '',
    'Compression (the same run, interleaved with the calls above): the median over loopback (server, compression, client decoding), the CPU per call, and that median plus the bytes at each link speed (a transfer estimate; latency and TCP slow start not included).',
    '',
    formatTable(compressionHeader, compressionRows),
    '',
    'The midnight rule (docs/domain.md §5), before and after, and the cost of the correct naive baseline (the same rounds, interleaved; "parts": the part statements only, plan made each call, no texts; before = the end bound ts < T, bench/src/lib/devices-data-before.ts):',
    '',
    formatTable(ruleHeader, ruleRows),
    '',
    `First start of the default embedded database (node server/dist/server.js, empty DATA_DIR, to the "running" line): ${(first.ms / 1000).toFixed(1)} s, ${first.readings.toLocaleString('en-US')} demo readings seeded.`,
    '',
    ...notes.map((n) => `- ${n}`),
    `- Naive: DISTINCT ON over every reading of each device up to the period's end within its service life (no look-back limit: a meter silent for weeks keeps its start value), same device selection, columns and rule; HTTP, handler and naive must agree on every row or the benchmark fails. Naive 7-day: the query of earlier runs (the period's readings plus a ${NAIVE_LOOKBACK} look-back, end before the midnight rule), timed to show what the correct baseline costs; its wrong rows are counted, not required to be zero.`,
    '- CPU: mean CPU milliseconds per call of this process (client, server, PGlite) plus the PostgreSQL backends, from /proc: nearly independent of other load, unlike the wall times.',
    `- HTTP: fetch (undici) to buildApp listening on 127.0.0.1 with a real bearer token, until the whole body is read (res.text()); the texts of the devices' fixed fields (names, address, codes) kept from the previous call, as between two calls with no master-data change in between. HTTP cold: each call right after a master-data change (a row added to master_change, as its trigger does), so every device's text is read again; handler: the service as the route calls it (getDevicesDataJson: the JSON bytes the route sends); naive: the SQL only.`,
    ...(pg5000
      ? [
          `- Aim (PostgreSQL, 5,000 devices over HTTP): median ${fmtMs(pg5000.http.medianMs)} ms (aim <= 100 ms: ${pg5000.http.medianMs <= 100 ? 'met' : 'MISSED'}), ` +
            `${(pg5000.naive.medianMs / pg5000.http.medianMs).toFixed(1)}x faster than naive (aim >= 6x: ${pg5000.naive.medianMs / pg5000.http.medianMs >= 6 ? 'met' : 'MISSED'}).`,
        ]
      : []),
    '',
    'Machine:',
    ...machineInfo(postgresVersion).map((m) => `- ${m}`),
    `- PostgreSQL settings: ${Object.entries(POSTGRES_SETTINGS)
      .map(([k, v]) => `${k} ${v.replaceAll("'", '')}`)
      .join(', ')}, fsync off (throwaway cluster from scripts/pg-cluster.mjs)`,
    `- Load average (1 min) during the measurements: ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)} ` +
      `on ${cpus().length} cores${Math.max(...loads) > cpus().length ? ' (other work was running: figures are inflated)' : ''}`,
    ...(failed.length
      ? [
          '',
          `FAILED: the answers differ (${failed.map((r) => `${r.database} ${r.selection.label}: ${r.agree}`).join('; ')}): these figures are not evidence.`,
        ]
      : []),
  ];
  console.log(out.join('\n'));
  if (failed.length) {
    log('FAILED: HTTP, handler and naive query do not give the same answer');
    process.exitCode = 1;
  }
}

await main();
