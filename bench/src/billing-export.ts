/**
 * The billing export (docs/integration.md), printed, not asserted, on bench:statements' dataset (grown
 * to at least 5,000 flats, BENCH_FLATS): every building of the month over HTTP (the real app on a
 * local port, a signed-in operator, uncompressed) in JSON, CSV and XLSX, live and once published,
 * with the time, the bytes, and the peak memory of this process (server and client: the client
 * only counts the bytes) above what it held before the request. On a PostgreSQL server.
 *
 *   npm run bench:billing -w bench   (BENCH_DEVICES, BENCH_FLATS, BENCH_READINGS, BENCH_RUNS)
 */
import { loadavg } from 'node:os';
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { refreshMonthEnds } from '@rodmenys/server/services/data-quality/refresh-month-ends.js';
import { monthPartitions, withoutKeys } from './lib/bulk-load.js';
import { createDataset, type Dataset } from './lib/dataset.js';
import { machineInfo } from './lib/machine.js';
import { startPostgres } from './lib/postgres.js';
import { startServer } from './lib/server.js';
import { envInt, fmtMs, median, timed } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const TIME_ZONE = 'Europe/Vilnius';
const DEVICES = envInt('BENCH_DEVICES', 13_000);
const FLATS = envInt('BENCH_FLATS', 5_000);
const READINGS = envInt('BENCH_READINGS', 20_000_000);
const RUNS = envInt('BENCH_RUNS', 3);
const POSTGRES_SETTINGS = { shared_buffers: "'2GB'", work_mem: "'64MB'", effective_cache_size: "'8GB'" };

const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const load1 = () => loadavg()[0]!.toFixed(1);
const MiB = (b: number) => (b / 2 ** 20).toFixed(0);

async function loadData(db: Db, dataset: Dataset) {
  for (const { sql, rows } of dataset.masterData()) await db.copyIn(sql, rows);
  await monthPartitions(db, dataset.start, dataset.end);
  await withoutKeys(db, 'reading', () => db.copyIn(dataset.readingsSql, dataset.readings({})));
  await db.query('SELECT keep_last_seen(array(SELECT id FROM device))');
  await db.exec('ANALYZE');
}

/** Runs `fn` while sampling this process's resident memory every 20 ms: the peak above the start. */
async function withPeakMemory<T>(fn: () => Promise<T>): Promise<{ result: T; peakRss: number; peakHeap: number }> {
  global.gc?.();
  const start = process.memoryUsage();
  let rss = start.rss;
  let heap = start.heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  }, 20);
  try {
    const result = await fn();
    return { result, peakRss: rss - start.rss, peakHeap: heap - start.heapUsed };
  } finally {
    clearInterval(timer);
  }
}

type Row = [step: string, format: string, median: string, bytes: string, rows: string, peak: string, load: string];

async function main() {
  const now = new Date();
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  const coverFrom = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1));
  const dataset = createDataset({ devices: DEVICES, flats: FLATS, readings: READINGS, end: now, coverFrom });
  log(
    `dataset: ${dataset.deviceCount} devices, readings every ${dataset.intervalHours} h from ${dataset.start.toISOString()}`,
  );
  const rows: Row[] = [];
  const cluster = await startPostgres({ settings: POSTGRES_SETTINGS });
  let version = '';
  try {
    const db = openPostgres(cluster.url, TIME_ZONE);
    try {
      await migrate(db);
      version = (await db.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.split(' on ')[0]!;
      log(`loading ${READINGS.toLocaleString('en-US')} readings`);
      await loadData(db, dataset);
      const ends = await timed(() => refreshMonthEnds(db, now, { ensure: true }));
      log(`month ends: ${ends.result.written} in ${fmtMs(ends.ms)} ms`);
      const server = await startServer(db, TIME_ZONE);
      try {
        /** One export over HTTP, read as it comes and counted (the client keeps nothing). */
        const get = async (query: string) => {
          const res = await fetch(`${server.api}/billing/export${query}`, {
            headers: { authorization: `Bearer ${server.token}`, 'accept-encoding': 'identity' },
          });
          if (!res.ok || !res.body) throw new Error(`${query}: ${res.status} ${await res.text()}`);
          let bytes = 0;
          const reader = res.body.getReader();
          for (let next = await reader.read(); !next.done; next = await reader.read()) bytes += next.value.byteLength;
          return { bytes };
        };
        const measureExport = async (step: string, format: 'json' | 'csv' | 'xlsx', extra: string) => {
          const query = format === 'json' ? `?month=${month}${extra}` : `/file?month=${month}&format=${format}${extra}`;
          const times: number[] = [];
          const peaks: number[] = [];
          let bytes = 0;
          for (let i = 0; i < RUNS; i++) {
            const m = await withPeakMemory(() => timed(() => get(query)));
            times.push(m.result.ms);
            peaks.push(m.peakRss);
            bytes = m.result.result.bytes;
          }
          // Rows: every export has the same rows; counted once the month is frozen (below).
          const rowCount = '';
          rows.push([
            step,
            format,
            fmtMs(median(times)),
            `${(bytes / 1e6).toFixed(1)} MB`,
            rowCount,
            `${MiB(Math.max(...peaks))} MiB`,
            load1(),
          ]);
          log(`${step} ${format}: ${fmtMs(median(times))} ms, ${bytes} B, peak +${MiB(Math.max(...peaks))} MiB RSS`);
        };
        for (const format of ['json', 'csv', 'xlsx'] as const) await measureExport('live (not published)', format, '');
        const publish = await timed(async () => {
          const res = await fetch(`${server.api}/statements/publications`, {
            method: 'POST',
            headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ month }),
          });
          if (!res.ok) throw new Error(`publish: ${res.status} ${await res.text()}`);
          return (await res.json()) as { Buildings: number; Flats: number };
        });
        rows.push([
          `publish the month (${publish.result.Buildings} buildings, ${publish.result.Flats} flats; export frozen)`,
          '-',
          fmtMs(publish.ms),
          '-',
          '-',
          '-',
          load1(),
        ]);
        for (const format of ['json', 'csv', 'xlsx'] as const) await measureExport('published (frozen)', format, '');
        const { rows: counted } = await db.query<{ n: number }>(
          'SELECT coalesce(sum(row_count), 0)::int AS n FROM billing_snapshot',
        );
        for (const r of rows) if (r[4] === '') r[4] = counted[0]!.n.toLocaleString('en-US');
      } finally {
        await server.close();
      }
    } finally {
      await db.close();
    }
  } finally {
    await cluster.stop();
  }
  console.log(`\nBilling export (npm run bench:billing -w bench), ${new Date().toISOString()}`);
  for (const line of machineInfo(version)) console.log(`- ${line}`);
  console.log(
    `- ${dataset.deviceCount.toLocaleString('en-US')} devices, ${READINGS.toLocaleString('en-US')} readings; month ${month}; ` +
      `median of ${RUNS} runs; peak = this process's resident memory above its level before the request (server and ` +
      'client in one process); load average (1 min) after each step; the machine is shared\n',
  );
  console.log(formatTable(['Step', 'Format', 'median ms', 'Size', 'Rows', 'Peak memory', 'Load'], rows));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
