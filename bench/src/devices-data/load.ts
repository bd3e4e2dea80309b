/* Loading the dataset, the midnight readings, and the product's first start. */

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@rodmenys/server/db/db.js';
import { openPglite } from '@rodmenys/server/db/pglite.js';
import { monthPartitions, withoutKeys } from '../lib/bulk-load.js';
import type { Dataset } from '../lib/dataset.js';
import { timed } from '../lib/stats.js';
import { ALLOCATOR, type lastMonth, periodBounds, TIME_ZONE } from './shared.js';

/**
 * Readings stamped exactly at the period's bounds F and T (00:00 local), as CSV files with day-only
 * times give them, for every 10th allocator: the rows the midnight rule changes (docs/domain.md §5).
 * Each is the device's latest value before it plus one. Returns how many were added.
 */
export async function addMidnightReadings(db: Db, month: ReturnType<typeof lastMonth>): Promise<number> {
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
export async function load(db: Db, dataset: Dataset, filter?: Parameters<Dataset['readings']>[0]) {
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
export async function firstStart(): Promise<{ ms: number; readings: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-first-'));
  const serverJs = path.join(import.meta.dirname, '../../../server/dist/server.js');
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
