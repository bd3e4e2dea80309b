/**
 * `npm run bench`: GetDevicesData (docs/domain.md §5) on a large dataset (shared.ts, selection.ts, load.ts).
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
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPglite } from '@rodmenys/server/db/pglite.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { createDataset } from '../lib/dataset.js';
import { machineInfo } from '../lib/machine.js';
import { NAIVE_LOOKBACK } from '../lib/naive-devices-data.js';
import { startPostgres } from '../lib/postgres.js';
import { fmtMs, timed } from '../lib/stats.js';
import { formatTable } from '../lib/table.js';
import { addMidnightReadings, firstStart, load } from './load.js';
import { ENCODINGS, LINKS, type Result, runSelection } from './selection.js';
import {
  ALLOCATOR,
  DEVICES,
  lastMonth,
  log,
  POSTGRES_SETTINGS,
  READINGS,
  RUNS,
  selectBuildings,
  TIME_ZONE,
  WARMUP,
} from './shared.js';

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
