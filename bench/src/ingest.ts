/**
 * `npm run bench:ingest -w bench`: readings ingest (docs/ingest.md §4).
 *
 * A throwaway PostgreSQL server with fsync and synchronous_commit on (every
 * answer comes after a durable COMMIT), 10,000 devices, and the built server
 * (`node server/dist/server.js`) in a process of its own. Prints:
 * - telegrams per second through POST /api/ingest/wmbusmeters in batches of
 *   1,000 and 10,000 (JSON lines, realistic wmbusmeters objects, 2 clients);
 * - CSV rows per second through the import (the code behind the command and
 *   POST /api/ingest/csv), 1,000,000 rows.
 *
 * BENCH_TELEGRAMS and BENCH_CSV_ROWS override the sizes for a quick run;
 * BENCH_SERVER_NODE_ARGS passes options to the server's node (e.g. --cpu-prof).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { createCollectorKey } from '@rodmenys/server/services/ingest/collector-keys.js';
import { importCsv } from '@rodmenys/server/services/ingest/import-csv.js';
import { startBuiltServer } from './lib/built-server.js';
import { procCpuMs } from './lib/cpu.js';
import { machineInfo } from './lib/machine.js';
import { startPostgres } from './lib/postgres.js';
import { envInt } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const TELEGRAMS = envInt('BENCH_TELEGRAMS', 200_000);
const CSV_ROWS = envInt('BENCH_CSV_ROWS', 1_000_000);
const DEVICES = 10_000;
const CLIENTS = 2;
/**
 * A server configured for its memory, as in production (the default 128 MB of
 * shared buffers makes a million-row import wait for evictions of dirty pages);
 * fsync and synchronous_commit stay on. BENCH_PG_DEFAULTS=1 runs with the defaults.
 */
const POSTGRES_SETTINGS: Record<string, string> = process.env.BENCH_PG_DEFAULTS ? {} : { shared_buffers: "'1GB'" };
const log = (message: string) => console.error(`[bench:ingest] ${message}`);

/** Device d: an allocator, a heat meter or a water meter, with the JSON its driver prints. */
const KINDS = [
  {
    type: 1,
    json: (id: string, n: number) => ({
      _: 'telegram',
      media: 'heat cost allocation',
      meter: 'qcaloric',
      name: 'hca',
      id,
      status: 'OK',
      current_consumption_hca: n % 5000,
      set_date: '2025-12-31',
      consumption_at_set_date_hca: 1234,
      error_date: '',
      device_datetime: '2026-01-20 11:32',
    }),
  },
  {
    type: 2,
    json: (id: string, n: number) => ({
      _: 'telegram',
      media: 'heat',
      meter: 'kamheat',
      name: 'hm',
      id,
      status: 'OK',
      total_energy_consumption_kwh: n / 9,
      total_volume_m3: n / 1000,
      target_date: '2026-01-01',
      target_energy_kwh: 4.7,
      meter_date: '2026-01-20',
    }),
  },
  {
    type: 3,
    json: (id: string, n: number) => ({
      _: 'telegram',
      media: 'water',
      meter: 'iperl',
      name: 'cw',
      id,
      total_m3: n / 1000,
      max_flow_m3h: 0,
    }),
  },
] as const;

function telegramLines(from: number, count: number): string {
  const lines: string[] = [];
  for (let n = from; n < from + count; n++) {
    const d = n % DEVICES;
    const ts = new Date(Date.UTC(2026, 0, 1) + Math.floor(n / DEVICES) * 60_000 + d).toISOString();
    lines.push(JSON.stringify({ ...KINDS[d % 3]!.json(`M${d}`, n), timestamp: ts }));
  }
  return lines.join('\n');
}

/**
 * CPU milliseconds so far of the server process and of every PostgreSQL process
 * (backends, WAL writer, checkpointer…), read from /proc: unlike wall time they
 * barely move when other work shares the machine.
 */
async function cpuMeter(db: Db, serverPid: number | undefined) {
  const pids = async () => (await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity')).rows.map((r) => r.pid);
  const before = new Map((await pids()).map((pid) => [pid, procCpuMs(pid)]));
  const serverBefore = serverPid ? procCpuMs(serverPid) : 0;
  return async () => {
    // The processes alive now (an idle connection the pool closed meanwhile used next to nothing).
    let database = 0;
    for (const pid of await pids()) database += procCpuMs(pid) - (before.get(pid) ?? 0);
    return { server: serverPid ? procCpuMs(serverPid) - serverBefore : 0, database };
  };
}

/** CPU ms per 1,000 rows, as a table cell. */
const perThousand = (ms: number, rows: number) => ((ms * 1000) / rows).toFixed(0);

function startServer(databaseUrl: string, port: number, dataDir: string): Promise<ChildProcess> {
  // e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return startBuiltServer(
    {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO_DATA: 'none',
      WEB_DIR: '',
      LOG_LEVEL: 'warn',
    },
    nodeArgs,
  );
}

async function main() {
  log('starting PostgreSQL (durable: fsync on)');
  const cluster = await startPostgres({ durable: true, settings: POSTGRES_SETTINGS });
  const db = openPostgres(cluster.url, 'Europe/Vilnius');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-ingest-'));
  let server: ChildProcess | undefined;
  try {
    await migrate(db);
    const version = (await db.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!;
    await db.query(`INSERT INTO location (id, level, name, path, country) VALUES (1, 1, 'Lietuva', '{1}', 'Lietuva')`);
    await db.query(
      `INSERT INTO device (device_type_id, location_id, device_code)
       SELECT (ARRAY[1, 2, 3])[d % 3 + 1], 1, 'M' || d FROM generate_series(0, $1 - 1) d`,
      [DEVICES],
    );
    const key = (await createCollectorKey(db, 'bench', null)).Key;
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    server = await startServer(cluster.url, port, dataDir);
    const url = `http://127.0.0.1:${port}/api/ingest/wmbusmeters`;

    const results: string[][] = [];
    let sent = 0;
    for (const size of [1_000, 10_000]) {
      const batches = Array.from({ length: Math.ceil(TELEGRAMS / size) }, (_, b) =>
        telegramLines(sent + b * size, size),
      );
      sent += batches.length * size;
      let next = 0;
      let stored = 0;
      const cpu = await cpuMeter(db, server.pid);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < batches.length) {
            const body = batches[next++]!;
            const res = await fetch(url, {
              method: 'POST',
              headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
              body,
            });
            if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
            stored += ((await res.json()) as { Stored: number }).Stored;
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const used = await cpu();
      if (stored !== batches.length * size) throw new Error(`stored ${stored} of ${batches.length * size}`);
      results.push([
        `HTTP, batches of ${size.toLocaleString('en')}`,
        stored.toLocaleString('en'),
        seconds.toFixed(2),
        Math.round(stored / seconds).toLocaleString('en'),
        perThousand(used.server, stored),
        perThousand(used.database, stored),
      ]);
      log(results.at(-1)!.join('  '));
    }

    const csvLines: string[] = ['serial;time;value'];
    for (let n = 0; n < CSV_ROWS; n++) {
      const d = n % DEVICES;
      const minute = Math.floor(n / DEVICES);
      csvLines.push(
        `M${d};2025-${String(1 + (minute % 12)).padStart(2, '0')}-${String(1 + (Math.floor(minute / 12) % 28)).padStart(2, '0')} ${String(Math.floor(minute / 336) % 24).padStart(2, '0')}:00;${n % 100000},${n % 1000}`,
      );
    }
    const csv = csvLines.join('\n');
    const cpu = await cpuMeter(db, process.pid);
    const started = performance.now();
    const imported = await importCsv(db, csv);
    const seconds = (performance.now() - started) / 1000;
    const used = await cpu();
    if (imported.Stored !== CSV_ROWS)
      throw new Error(
        `CSV: stored ${imported.Stored} of ${CSV_ROWS}: ${JSON.stringify(imported.Rejected.slice(0, 3))}`,
      );
    results.push([
      'CSV import (command)',
      CSV_ROWS.toLocaleString('en'),
      seconds.toFixed(2),
      Math.round(CSV_ROWS / seconds).toLocaleString('en'),
      perThousand(used.server, CSV_ROWS),
      perThousand(used.database, CSV_ROWS),
    ]);

    console.log(`\nReadings ingest: ${DEVICES.toLocaleString('en')} devices, fsync and synchronous_commit on`);
    for (const line of machineInfo(version.v)) console.log(`- ${line}`);
    const settings = Object.entries(POSTGRES_SETTINGS).map(([k, v]) => `${k} = ${v}`);
    console.log(`- PostgreSQL settings: fsync and synchronous_commit on${settings.map((s) => `, ${s}`).join('')}`);
    console.log(
      `- Load average: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n`,
    );
    console.log(
      formatTable(['Path', 'Rows', 'Seconds', 'Per second', 'Node CPU ms/1k', 'PostgreSQL CPU ms/1k'], results),
    );
    console.log('\nNode CPU: the server process (HTTP) or the importing process (CSV); PostgreSQL: all its processes.');
  } finally {
    server?.kill('SIGTERM');
    await db.close();
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
