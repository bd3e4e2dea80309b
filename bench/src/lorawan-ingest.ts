/**
 * `npm run bench:lorawan -w bench`: LoRaWAN uplinks per second over HTTP (docs/benchmarks.md,
 * "LoRaWAN ingest"), beside the wmbusmeters path in the same run.
 *
 * Per engine (embedded PGlite in a data folder; a throwaway PostgreSQL cluster with fsync and
 * synchronous_commit on): seeds Qalcosonic W1 water meters with DevEUIs in buildings served by one
 * ChirpStack connection, starts the built server in a process of its own, then
 * - warms up with 512 uplinks of set C in both marshalers (and learns whether this build decodes
 *   the W1: every uplink must then give a reading, or none may);
 * - sends UPLINKS uplinks of each set-A meter in ChirpStack's JSON, then the same uplinks of the
 *   set-B meters in Protobuf, one event per request from 16 concurrent senders;
 * - sends wmbusmeters telegrams in collector batches of 1,000 from 2 clients (as bench:ingest);
 * - resends a tenth of each set's uplinks in the other marshaler: every answer must be `duplicate`;
 * - stops the server and counts in the database: every acknowledged uplink stored exactly once,
 *   the readings, set A equal to set B, the telegrams' readings. A difference exits non-zero.
 *
 * Sizes: BENCH_LORAWAN_DEVICES meters per set (default 250), BENCH_LORAWAN_UPLINKS per meter
 * (default 4), BENCH_TELEGRAMS (default 20,000); the same as --devices=, --uplinks=,
 * --telegrams=. BENCH_ENGINES=pglite or postgres runs one engine. BENCH_PG_STATEMENTS=1 prints
 * each uplink path's statements on PostgreSQL (lib/pg-statements.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPglite } from '@rodmenys/server/db/pglite.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { machineCpuMs, procCpuMs } from './lib/cpu.js';
import { checkStored, type Expected } from './lib/lorawan-checks.js';
import { sendTelegrams, sendUplinks } from './lib/lorawan-send.js';
import { chirpstackRequest, type DeviceSet, SETS, seedWorld, uplinkSpec, WMBUS_PREFIX } from './lib/lorawan-world.js';
import { machineInfo } from './lib/machine.js';
import { PROFILE_SETTINGS, PROFILE_STATEMENTS, resetStatements, statementLines } from './lib/pg-statements.js';
import { startPostgres } from './lib/postgres.js';
import { type ServerProcess, startServerProcess } from './lib/server-process.js';
import { envInt } from './lib/stats.js';
import { formatTable } from './lib/table.js';
import { telegramLines } from './lib/wmbus-telegrams.js';

/** `--devices=2000` overrides BENCH_LORAWAN_DEVICES, and so on. */
function size(flag: string, env: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${flag}=`));
  if (arg) process.env[env] = arg.slice(flag.length + 3);
  return envInt(env, fallback);
}
const DEVICES = size('devices', 'BENCH_LORAWAN_DEVICES', 1_000);
const UPLINKS = size('uplinks', 'BENCH_LORAWAN_UPLINKS', 4);
const TELEGRAMS = size('telegrams', 'BENCH_TELEGRAMS', 20_000);
const WARMUP_DEVICES = 64;
/**
 * Enough for the server's code (and the senders') to be compiled by V8's optimising tier and the
 * pool's connections opened before a path is measured: a server in service has long been warm.
 * 512 uplinks until 2026-12-08 (8,192 now) left the first thousands of measured requests in the slower tiers
 * (a bare Fastify route costs about 4 times its warm CPU over its first 4,000 requests here).
 */
const WARMUP_UPLINKS = 128;
const SENDERS = 16;
const BATCH = 1_000;
const COLLECTORS = 2;
const WMBUS_DEVICES = 1_000;
/** The aim (docs/lorawan.md, "Throughput"): at least this many uplinks per second on PostgreSQL on this machine. */
const AIM = 2_000;
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',').map((e) => e.trim());
const TIME_ZONE = 'Europe/Vilnius';
const log = (message: string) => console.error(`[bench:lorawan] ${message}`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const fmt = (n: number) => Math.round(n).toLocaleString('en');
const ms = (n: number) => (n < 100 ? n.toFixed(1) : fmt(n));

interface Engine {
  name: 'PGlite' | 'PostgreSQL';
  /** A handle on the database; for PGlite only while the server is stopped. */
  open(): Promise<Db>;
  server(): Promise<ServerProcess>;
  /** The database's processes (PostgreSQL) for the CPU columns; none for PGlite (it runs in the server). */
  pids(): Promise<number[]>;
  stop(): Promise<void>;
}

async function pgliteEngine(): Promise<Engine> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-lorawan-'));
  return {
    name: 'PGlite',
    open: () => openPglite(dataDir, TIME_ZONE),
    server: () => startServerProcess({ dataDir, logLevel: 'info' }),
    pids: async () => [],
    stop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function postgresEngine(): Promise<Engine> {
  const cluster = await startPostgres({ durable: true, settings: PROFILE_STATEMENTS ? PROFILE_SETTINGS : {} });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-lorawan-'));
  const watcher = openPostgres(cluster.url, TIME_ZONE);
  return {
    name: 'PostgreSQL',
    open: async () => openPostgres(cluster.url, TIME_ZONE),
    server: () => startServerProcess({ databaseUrl: cluster.url, dataDir, logLevel: 'info' }),
    pids: async () => (await watcher.query<{ pid: number }>('SELECT pid FROM pg_stat_activity')).rows.map((r) => r.pid),
    stop: async () => {
      await watcher.close();
      await cluster.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * CPU ms of the server process, of the database's processes and of the senders (this process)
 * between two calls, and the cores the whole machine kept busy meanwhile (everything, other
 * sessions' work included): below the cores there are, a path waits rather than computes.
 */
async function cpuMeter(engine: Engine, serverPid: number) {
  const before = new Map((await engine.pids()).map((pid) => [pid, procCpuMs(pid)]));
  const server = procCpuMs(serverPid);
  const senders = process.cpuUsage();
  const machine = machineCpuMs();
  const started = performance.now();
  return async () => {
    let database = 0;
    for (const pid of await engine.pids()) database += procCpuMs(pid) - (before.get(pid) ?? 0);
    const own = process.cpuUsage(senders);
    const now = machineCpuMs();
    return {
      server: procCpuMs(serverPid) - server,
      database,
      senders: (own.user + own.system) / 1000,
      busyCores: (now.busy - machine.busy) / (performance.now() - started),
    };
  };
}

const requestsOf = (set: DeviceSet, marshaler: 'json' | 'protobuf', devices: number, uplinks: number, every = 1) => {
  const out = [];
  // Uplink k of every meter before uplink k + 1 of any: the meters report side by side, as a day's traffic.
  for (let k = 0; k < uplinks; k++)
    for (let i = 0; i < devices; i += every) out.push(chirpstackRequest(uplinkSpec(set, i, k), marshaler));
  return out;
};

async function runEngine(engine: Engine): Promise<{ rows: string[][]; notes: string[]; failures: string[] }> {
  const seedDb = await engine.open();
  let version = 'PGlite';
  let world: Awaited<ReturnType<typeof seedWorld>>;
  try {
    await migrate(seedDb);
    if (engine.name === 'PostgreSQL')
      version = (await seedDb.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
    world = await seedDb.transaction((tx) =>
      seedWorld(tx, { perSet: DEVICES, warmup: WARMUP_DEVICES, wmbusDevices: WMBUS_DEVICES }),
    );
    // A database in service has its statistics and its vacuum done, and its seeding long written
    // out: without this, autovacuum's analyze of the freshly seeded tables and the checkpoint of
    // the seeding ran during the first measured path and were counted in it.
    await seedDb.query('VACUUM ANALYZE');
    await seedDb.query('CHECKPOINT');
  } finally {
    await seedDb.close();
  }
  log(`${engine.name}: ${fmt(DEVICES * 2 + WARMUP_DEVICES)} meters in ${world.buildings} buildings seeded`);
  const notes: string[] = [];
  const failures: string[] = [];
  const rows: string[][] = [];
  const server = await engine.server();
  const expected: Expected = { uplinks: {}, readings: {}, telegrams: 0 };
  let decodes = false;
  try {
    // Warm-up: the server's first requests (and a month's partitions); tells whether this build decodes the W1.
    // Both marshalers, uplink by uplink in turn.
    const warmRequests = [];
    for (let k = 0; k < WARMUP_UPLINKS; k++)
      for (let i = 0; i < WARMUP_DEVICES; i++)
        warmRequests.push(chirpstackRequest(uplinkSpec(SETS.warmup, i, k), k % 2 ? 'protobuf' : 'json'));
    const warm = await sendUplinks(server.origin, world.lnsKey, warmRequests, SENDERS);
    decodes = warm.answers[0]!.Reading;
    const reading = decodes ? 'stored, reading' : `stored, no reading (${warm.answers[0]!.Reason})`;
    if (!decodes)
      notes.push(
        `${engine.name}: this build does not decode the W1 (reason "${warm.answers[0]!.Reason}"): uplinks are stored undecoded and give no readings.`,
      );
    const expectAll = (what: string, r: { outcomes: Record<string, number>; requests: number }, outcome: string) => {
      if (r.outcomes[outcome] !== r.requests)
        failures.push(`${engine.name}, ${what}: answers ${JSON.stringify(r.outcomes)}, expected ${outcome} for all`);
    };
    expectAll('warm-up', warm, reading);
    expected.uplinks[SETS.warmup] = warm.outcomes[reading] ?? 0;
    expected.readings[SETS.warmup] = decodes ? expected.uplinks[SETS.warmup]! : 0;

    for (const [set, marshaler] of [
      [SETS.json, 'json'],
      [SETS.protobuf, 'protobuf'],
    ] as const) {
      const requests = requestsOf(set, marshaler, DEVICES, UPLINKS);
      log(`${engine.name}: ${fmt(requests.length)} uplinks, ${marshaler}, ${SENDERS} senders (load ${load()})`);
      const profiler = PROFILE_STATEMENTS && engine.name === 'PostgreSQL' ? await engine.open() : undefined;
      if (profiler) await resetStatements(profiler);
      const cpu = await cpuMeter(engine, server.child.pid!);
      const r = await sendUplinks(server.origin, world.lnsKey, requests, SENDERS);
      const used = await cpu();
      if (profiler) {
        log(
          `${engine.name}, ${marshaler}: statements per 1,000 uplinks:\n${(await statementLines(profiler, r.requests)).join('\n')}`,
        );
        await profiler.close();
      }
      expectAll(marshaler, r, reading);
      expected.uplinks[set] = r.outcomes[reading] ?? 0;
      expected.readings[set] = decodes ? expected.uplinks[set]! : 0;
      const perSecond = r.requests / r.seconds;
      const aim =
        engine.name === 'PostgreSQL' ? (perSecond >= AIM ? 'met' : 'BELOW the aim') : '(aim is on PostgreSQL)';
      rows.push([
        engine.name,
        `LoRaWAN uplinks, ChirpStack ${marshaler === 'json' ? 'JSON' : 'Protobuf'}, 1 per request`,
        fmt(r.requests),
        fmt(expected.readings[set]!),
        r.seconds.toFixed(1),
        `${fmt(perSecond)} uplinks/s`,
        ms(r.p50Ms),
        ms(r.p95Ms),
        fmt((used.server * 1000) / r.requests),
        engine.name === 'PostgreSQL' ? fmt((used.database * 1000) / r.requests) : '(in server)',
        fmt((used.senders * 1000) / r.requests),
        used.busyCores.toFixed(2),
        `≥ ${fmt(AIM)} uplinks/s: ${aim}`,
      ]);
      log(rows.at(-1)!.join('  '));
    }

    const batches = Array.from({ length: Math.ceil(TELEGRAMS / BATCH) }, (_, b) =>
      // Values that rise as a meter's do (bench:ingest's jump by thousands a minute, which the ingest
      // holds back as suspect: docs/collectors.md), so that every telegram is a reading.
      telegramLines(
        b * BATCH,
        Math.min(BATCH, TELEGRAMS - b * BATCH),
        WMBUS_DEVICES,
        WMBUS_PREFIX,
        (_, d, round) => d * 10 + round,
      ),
    );
    log(`${engine.name}: ${fmt(TELEGRAMS)} telegrams in batches of ${fmt(BATCH)}, ${COLLECTORS} clients`);
    const cpu = await cpuMeter(engine, server.child.pid!);
    const t = await sendTelegrams(server.origin, world.collectorKey, batches, COLLECTORS);
    const used = await cpu();
    expected.telegrams = t.stored;
    if (t.stored !== TELEGRAMS) failures.push(`${engine.name}: ${t.stored} telegrams stored of ${TELEGRAMS}`);
    rows.push([
      engine.name,
      `wmbusmeters telegrams, ${fmt(BATCH)} per request`,
      fmt(t.requests),
      fmt(t.stored),
      t.seconds.toFixed(1),
      `${fmt(t.stored / t.seconds)} readings/s`,
      ms(t.p50Ms),
      ms(t.p95Ms),
      fmt((used.server * 1000) / t.stored),
      engine.name === 'PostgreSQL' ? fmt((used.database * 1000) / t.stored) : '(in server)',
      fmt((used.senders * 1000) / t.stored),
      used.busyCores.toFixed(2),
      '',
    ]);
    log(rows.at(-1)!.join('  '));

    // The same uplinks again, in the other marshaler (a retry, a second integration): nothing new.
    const again = [
      ...requestsOf(SETS.json, 'protobuf', DEVICES, UPLINKS, 10),
      ...requestsOf(SETS.protobuf, 'json', DEVICES, UPLINKS, 10),
    ];
    const resent = await sendUplinks(server.origin, world.lnsKey, again, SENDERS);
    expectAll('resent slice', resent, 'duplicate');
    notes.push(
      `${engine.name}: resent ${fmt(resent.requests)} uplinks (every 10th meter's, in the other marshaler): ${JSON.stringify(resent.outcomes)}.`,
    );
    // The server logs at info as in production: one line per request, counted in the figures above.
    const logged = server.logLines?.().request ?? 0;
    const sent = warm.requests + expected.uplinks[SETS.json]! + expected.uplinks[SETS.protobuf]! + resent.requests;
    notes.push(
      `${engine.name}: the server logged at info, ${fmt(logged)} request lines (${fmt(sent)} uplink requests sent).`,
    );
    if (logged < sent) failures.push(`${engine.name}: ${logged} request lines logged for ${sent} uplink requests`);
  } finally {
    await server.stop();
  }

  const db = await engine.open();
  try {
    const counted = await checkStored(db, expected);
    failures.push(...counted.failures.map((f) => `${engine.name}: ${f}`));
    notes.push(
      `${engine.name}: in the database: uplinks ${JSON.stringify(counted.uplinks)}, readings ${JSON.stringify(counted.readings)} ` +
        `(sets: A = JSON, B = Protobuf, C = warm-up), telegram readings ${fmt(counted.telegramReadings)}; ` +
        (counted.failures.length ? `${counted.failures.length} checks FAILED.` : 'every check passed.'),
    );
  } finally {
    await db.close();
  }
  if (engine.name === 'PostgreSQL') notes.unshift(`PostgreSQL server: ${version}, fsync and synchronous_commit on`);
  return { rows, notes, failures };
}

async function main() {
  const loadAtStart = load();
  log(`load average at start: ${loadAtStart}`);
  const rows: string[][] = [];
  const notes: string[] = [];
  const failures: string[] = [];
  let postgresVersion = 'not run';
  for (const name of ENGINES) {
    if (name !== 'pglite' && name !== 'postgres') throw new Error(`BENCH_ENGINES: unknown engine "${name}"`);
    const engine = name === 'pglite' ? await pgliteEngine() : await postgresEngine();
    try {
      const r = await runEngine(engine);
      rows.push(...r.rows);
      notes.push(...r.notes);
      failures.push(...r.failures);
      if (name === 'postgres') postgresVersion = r.notes[0]!.replace(/^PostgreSQL server: /, '').split(',')[0]!;
    } finally {
      await engine.stop();
    }
  }
  console.log(
    `\nLoRaWAN ingest: ${fmt(DEVICES)} W1 meters per marshaler × ${UPLINKS} uplinks, ${SENDERS} concurrent senders; ` +
      `${fmt(TELEGRAMS)} wmbusmeters telegrams (${fmt(WMBUS_DEVICES)} devices)`,
  );
  for (const line of machineInfo(postgresVersion)) console.log(`- ${line}`);
  console.log(`- Server build: ${process.env.BENCH_SERVER_ROOT || 'this checkout'} (BENCH_SERVER_ROOT)`);
  console.log(`- Load average (1, 5, 15 min): at start ${loadAtStart}, at end ${load()}\n`);
  console.log(
    formatTable(
      [
        'Engine',
        'Path',
        'Requests',
        'Readings',
        'Seconds',
        'Per second',
        'p50 ms',
        'p95 ms',
        'Server CPU ms/1k',
        'PostgreSQL CPU ms/1k',
        'Senders CPU ms/1k',
        'Machine busy cores',
        'Aim',
      ],
      rows,
    ),
  );
  console.log('');
  for (const note of notes) console.log(`- ${note}`);
  for (const row of rows.filter((r) => r[0] === 'PostgreSQL' && r[1]!.startsWith('LoRaWAN'))) {
    const verdict = row[12]!.endsWith('met') ? 'meets' : 'is BELOW';
    console.log(`- ${row[1]} on PostgreSQL: ${row[5]}, which ${verdict} the aim of ≥ ${fmt(AIM)} uplinks/s.`);
  }
  if (failures.length) {
    console.log('\nCHECKS FAILED:');
    for (const f of failures) console.log(`- ${f}`);
    process.exitCode = 1;
  }
}

await main();
