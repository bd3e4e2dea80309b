/**
 * `npm run bench:partition-move -w bench`: how long moving a month out of the default partition
 * holds its lock (docs/scaling.md, "Month partitions"). One month of hourly readings of
 * BENCH_DEVICES devices waits in `reading_default`; `month_partition_create` moves it (the
 * readers and writers of `reading` wait meanwhile). Prints the time, the rate and, from that
 * rate, the time for a full month of the capacity benchmark's 200 M-reading database (13,019
 * devices, 9.69 M readings a month). `reading` has no foreign key, so no devices are needed.
 */
import { loadavg } from 'node:os';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { startPostgres } from './lib/postgres.js';
import { envInt } from './lib/stats.js';

const DEVICES = envInt('BENCH_DEVICES', 2_000);
const RUNS = envInt('BENCH_RUNS', 3);
const CAPACITY_MONTH = 9_690_000;
const load1 = () => loadavg()[0]!.toFixed(1);

const cluster = await startPostgres({ durable: true, settings: { shared_buffers: "'1GB'", max_wal_size: "'4GB'" } });
const db = openPostgres(cluster.url, 'Europe/Vilnius');
try {
  await migrate(db);
  const rates: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const month = `2018-${String(run).padStart(2, '0')}-01`;
    await db.query(
      `INSERT INTO reading (device_id, ts, value)
       SELECT d, h, d + extract(epoch FROM h - $1::timestamptz) / 3600
         FROM generate_series(1, $2::int) d
        CROSS JOIN generate_series($1::timestamptz, $1::timestamptz + interval '1 month' - interval '1 hour', interval '1 hour') h`,
      [`${month}T00:00:00Z`, DEVICES],
    );
    await db.query('ANALYZE reading_default');
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reading_default');
    const n = rows[0]!.n;
    const loadBefore = load1();
    const t0 = performance.now();
    await db.query("SELECT month_partition_create('reading', $1::date)", [month]);
    const ms = performance.now() - t0;
    // The same answer after the move: every reading of the month in its partition, none left behind.
    const { rows: after } = await db.query<{ moved: number; left: number }>(
      `SELECT (SELECT count(*)::int FROM reading WHERE ts >= $1::timestamptz AND ts < $1::timestamptz + interval '1 month') AS moved,
              (SELECT count(*)::int FROM ONLY reading_default) AS left`,
      [`${month}T00:00:00Z`],
    );
    if (after[0]!.moved !== n || after[0]!.left !== 0) {
      console.error(
        `FAILED: after the move ${after[0]!.moved} of ${n} readings are found, ${after[0]!.left} left in the default partition`,
      );
      process.exitCode = 1;
      break;
    }
    const rate = n / (ms / 1000);
    rates.push(rate);
    console.log(
      `run ${run}: moved ${n.toLocaleString('en')} readings of ${month.slice(0, 7)} in ${ms.toFixed(0)} ms ` +
        `(${Math.round(rate).toLocaleString('en')} readings/s), load ${loadBefore} → ${load1()}`,
    );
  }
  const median = rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)];
  if (median !== undefined && process.exitCode !== 1)
    console.log(
      `median ${Math.round(median).toLocaleString('en')} readings/s: a full month of the 200 M database ` +
        `(${CAPACITY_MONTH.toLocaleString('en')} readings) would hold the lock about ${(CAPACITY_MONTH / median).toFixed(0)} s ` +
        `(computed from this rate, not measured at that size); load now ${load1()}`,
    );
} finally {
  await db.close();
  await cluster.stop();
}
