/**
 * `npm run bench:lorawan -w bench`: LoRaWAN uplinks per second (docs/lorawan.md, "Throughput").
 *
 * The built server (`node server/dist/server.js`) in a process of its own, on embedded PGlite and
 * on a throwaway PostgreSQL server with fsync and synchronous_commit on (every answer after a
 * durable COMMIT). 16 concurrent senders, one event per request as ChirpStack's HTTP integration
 * sends them, each request a new reading of one of 2,000 meters:
 * - the collectors' path beside it (POST /api/ingest/wmbusmeters, one telegram per request), the baseline;
 * - ChirpStack JSON and ChirpStack Protobuf (POST /api/lorawan/chirpstack?event=up, a W1 payload).
 * Each path writes the same values at its own times; the bench fails unless every path stored every
 * reading and the values' sum is the baseline's. Prints the machine's load beside the figures.
 *
 * BENCH_LNS_REQUESTS (default 4,000 on PostgreSQL) and BENCH_LNS_REQUESTS_PGLITE (default 1,000)
 * set the requests per path.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPglite } from '@rodmenys/server/db/pglite.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { w1Payload } from '@rodmenys/server/demo/seed/lorawan.js';
import { createCollectorKey } from '@rodmenys/server/services/ingest/collector-keys.js';
import { createConnection } from '@rodmenys/server/services/lorawan/connections.js';
import { chirpstackUplinkJson, chirpstackUplinkProtobuf } from '@rodmenys/server/services/lorawan/envelope-writers.js';
import { startBuiltServer } from './lib/built-server.js';
import { procCpuMs } from './lib/cpu.js';
import { machineInfo } from './lib/machine.js';
import { startPostgres } from './lib/postgres.js';
import { envInt } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const DEVICES = 2_000;
const SENDERS = 16;
const log = (message: string) => console.error(`[bench:lorawan] ${message}`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const PATHS = ['wmbusmeters (baseline)', 'ChirpStack JSON', 'ChirpStack Protobuf'] as const;
type PathName = (typeof PATHS)[number];

/** Path p's times start at its own day, so the readings of the three paths never meet. */
const timeOf = (p: number, n: number) => new Date(Date.UTC(2026, 9, 1 + p * 5) + n * 60_000);
const devEui = (d: number) => `A8B2E00000${d.toString(16).toUpperCase().padStart(6, '0')}`;

/** Request n of path p: meter n % DEVICES, value n litres (n / 1000 m³), at its time. */
function request(
  p: number,
  n: number,
  keys: { collector: string; lns: string },
): { url: string; headers: Record<string, string>; body: string | Blob } {
  const d = n % DEVICES;
  const at = timeOf(p, n);
  if (p === 0)
    return {
      url: '/api/ingest/wmbusmeters',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.collector}` },
      body: JSON.stringify({
        _: 'telegram',
        meter: 'iperl',
        id: `M${d}`,
        total_m3: n / 1000,
        timestamp: at.toISOString(),
      }),
    };
  const spec = {
    devEui: devEui(d),
    fCnt: Math.floor(n / DEVICES) + 1,
    fPort: 100,
    payload: w1Payload(at, n, Array(23).fill(0)),
    // The LNS's time, a second after the meter's own: the reading takes the meter's.
    time: new Date(at.getTime() + 1000).toISOString(),
    gateways: [{ id: 'a84041ffff1f7a01', rssi: -97, snr: 6.5 }],
  };
  return p === 1
    ? {
        url: '/api/lorawan/chirpstack?event=up',
        headers: { 'content-type': 'application/json', 'x-rodmenys-key': keys.lns },
        body: JSON.stringify(chirpstackUplinkJson(spec)),
      }
    : {
        url: '/api/lorawan/chirpstack?event=up',
        headers: { 'content-type': 'application/octet-stream', 'x-rodmenys-key': keys.lns },
        body: new Blob([new Uint8Array(chirpstackUplinkProtobuf(spec))]),
      };
}

/** 2,000 cold-water meters with serials (wM-Bus) and DevEUIs (W1), one connection and one collector key. */
async function seed(db: Db) {
  await migrate(db);
  await db.query(`INSERT INTO location (id, level, name, path, country) VALUES (1, 1, 'Lietuva', '{1}', 'Lietuva')`);
  await db.query(
    `INSERT INTO device (device_type_id, location_id, device_code, dev_eui, model)
     SELECT 3, 1, 'M' || d, 'A8B2E00000' || lpad(upper(to_hex(d)), 6, '0'), 'Qalcosonic W1'
       FROM generate_series(0, $1 - 1) d`,
    [DEVICES],
  );
  const collector = (await createCollectorKey(db, 'bench', null)).Key;
  const connection = await createConnection(db, { kind: 'chirpstack', name: 'bench' }, null);
  // The country as its one location (the API takes buildings and streets; the scope test is the same).
  await db.query('INSERT INTO lns_connection_location (connection_id, location_id) VALUES ($1, 1)', [connection.Id]);
  return { collector, lns: connection.Key };
}

/** What each path stored: readings in its time range and their values' sum (in litres). */
async function stored(db: Db, p: number, requests: number) {
  const { rows } = await db.query<{ n: number; litres: string }>(
    'SELECT count(*)::int AS n, coalesce(sum(value * 1000), 0)::bigint::text AS litres FROM reading WHERE ts >= $1 AND ts < $2',
    [timeOf(p, 0), timeOf(p, requests)],
  );
  return { readings: rows[0]!.n, litres: BigInt(rows[0]!.litres) };
}

async function run(engine: 'PGlite' | 'PostgreSQL', requests: number): Promise<string[][]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-lorawan-'));
  const cluster =
    engine === 'PostgreSQL' ? await startPostgres({ durable: true, settings: { shared_buffers: "'512MB'" } }) : null;
  const open = () => (cluster ? openPostgres(cluster.url, 'Europe/Vilnius') : openPglite(dataDir, 'Europe/Vilnius'));
  let db: Db = await open();
  let server: ChildProcess | undefined;
  const rows: string[][] = [];
  try {
    const version = (await db.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
    const keys = await seed(db);
    // The embedded database has one owner: the server opens it once the bench let it go.
    if (!cluster) await db.close();
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    server = await startBuiltServer({
      ...(cluster ? { DATABASE_URL: cluster.url } : {}),
      PORT: String(port),
      DATA_DIR: dataDir,
    });
    const results: { path: PathName; seconds: number; cpuMs: number; load: string }[] = [];
    for (const [p, name] of PATHS.entries()) {
      const bodies = Array.from({ length: requests }, (_, n) => request(p, n, keys));
      let next = 0;
      const cpuBefore = procCpuMs(server.pid!);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: SENDERS }, async () => {
          while (next < bodies.length) {
            const r = bodies[next++]!;
            const res = await fetch(`http://127.0.0.1:${port}${r.url}`, {
              method: 'POST',
              headers: r.headers,
              body: r.body,
            });
            if (!res.ok) throw new Error(`${name}: ${res.status} ${await res.text()}`);
            await res.arrayBuffer();
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      results.push({ path: name, seconds, cpuMs: procCpuMs(server.pid!) - cpuBefore, load: load() });
      log(`${engine} ${name}: ${requests} in ${seconds.toFixed(2)} s (load ${load()})`);
    }
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
    server = undefined;
    if (!cluster) db = await open();
    // The same answer on every path: every reading stored, the same values.
    const baseline = await stored(db, 0, requests);
    const expectedLitres = (BigInt(requests) * BigInt(requests - 1)) / 2n;
    for (const [p, r] of results.entries()) {
      const got = await stored(db, p, requests);
      if (got.readings !== requests || got.litres !== baseline.litres || got.litres !== expectedLitres)
        throw new Error(
          `${r.path}: ${got.readings} readings, ${got.litres} l; baseline ${baseline.readings}, ${baseline.litres} l`,
        );
      rows.push([
        engine,
        r.path,
        requests.toLocaleString('en'),
        r.seconds.toFixed(2),
        Math.round(requests / r.seconds).toLocaleString('en'),
        ((r.cpuMs * 1000) / requests).toFixed(0),
        r.load,
      ]);
    }
    rows.push([engine, `(${version}${cluster ? ', fsync on' : ''})`, '', '', '', '', '']);
    return rows;
  } finally {
    server?.kill('SIGKILL');
    await db.close().catch(() => {});
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  log(`load before: ${load()}`);
  const rows = [
    ...(await run('PGlite', envInt('BENCH_LNS_REQUESTS_PGLITE', 1_000))),
    ...(await run('PostgreSQL', envInt('BENCH_LNS_REQUESTS', 4_000))),
  ];
  console.log(
    `\nLoRaWAN uplinks over HTTP: ${SENDERS} concurrent senders, one event per request, ${DEVICES.toLocaleString('en')} meters`,
  );
  for (const line of machineInfo('see the table')) console.log(`- ${line}`);
  console.log(`- Load average at the end: ${load()}\n`);
  console.log(
    formatTable(['Engine', 'Path', 'Requests', 'Seconds', 'Per second', 'Server CPU ms/1k', 'Load (1/5/15 min)'], rows),
  );
  console.log('\nEvery path stored every reading with the same values (checked); the baseline is the collectors path.');
}

await main();
