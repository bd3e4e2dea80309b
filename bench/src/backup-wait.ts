/**
 * How long writes wait while the running server backs up its embedded database
 * (docs/operations.md, "Backups of the embedded database"): the medium demo in a PGlite folder, the
 * real app on it (in this process, as the server runs it), COLLECTORS collectors posting batches of
 * BATCH telegrams over HTTP without pause, and three windows one after the other while they post:
 * a backup made the way before (PGlite's image of the folder taken inside the database's one
 * session, `dumpDataDir`, then gzip), a backup made the way `npm run db:backup` now has the server
 * make it (`backupToFile`: a checkpoint and a copy of the folder inside the session, the archive
 * built from the copy after), and a window without a backup, as long as the second backup (at most
 * a minute), as the baseline. Printed per window: its length, how long the database's session was
 * held for the backup, batches acknowledged meanwhile, the longest and the median wait of a batch,
 * the backup's size and the machine's load.
 *
 * The same answer or the bench fails: every acknowledged batch stored whole; each backup restores
 * (`npm run db:restore`'s function) with the row count of every table equal to the live database's
 * at its cut (counted in the session right before it) and every batch acknowledged before it began.
 *
 * npm run bench:backup -w bench   (builds the server first)
 * BENCH_BACKUP_DATA_DIR=/tmp/rodmenys-medium keeps the seeded folder for the next run (seeding the
 * medium demo takes a minute or two); DEMO (medium) picks the demo's size; COLLECTORS (3) and
 * BATCH (25) change the load.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { DEVICE_TYPE } from '@rodmenys/contract';
import { backupToFile, restoreDataDir } from '@rodmenys/server/db/backup.js';
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPglite, type PgliteDb } from '@rodmenys/server/db/pglite.js';
import { type DemoSize, seedDemo } from '@rodmenys/server/demo/generate.js';
import { createCollectorKey } from '@rodmenys/server/services/ingest/collector-keys.js';
import { machineInfo } from './lib/machine.js';
import { startServer } from './lib/server.js';
import { envInt, fmtMs, median } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const ZONE = 'Europe/Vilnius';
const COLLECTORS = envInt('COLLECTORS', 3);
const BATCH = envInt('BATCH', 25);
const DEMO = (process.env.DEMO ?? 'medium') as DemoSize;
const DEVICES = 40;
const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Batch b of collector c: meters of the bench's own (no demo readings), at their own minutes from
 * 2020 (a reception time may not lie ahead of now), so that a batch's telegrams can be counted.
 */
function batch(c: number, b: number): string {
  const lines: string[] = [];
  for (let i = 0; i < BATCH; i++) {
    const n = (b * COLLECTORS + c) * BATCH + i;
    lines.push(
      JSON.stringify({
        _: 'telegram',
        meter: 'iperl',
        id: `BW${n % DEVICES}`,
        total_m3: n / 1000,
        timestamp: new Date(Date.UTC(2020, 0, 1) + n * 60_000).toISOString(),
      }),
    );
  }
  return lines.join('\n');
}

/** The demo in `db`, with DEVICES meters of the bench's own (no readings yet) and a collector key. */
async function prepare(db: Db): Promise<string> {
  await migrate(db);
  const seeded = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM location');
  if (seeded.rows[0]!.n === 0) {
    log(`seeding the ${DEMO} demo…`);
    await seedDemo(db, { size: DEMO });
  }
  await db.query(
    `INSERT INTO device (device_type_id, location_id, device_code)
     SELECT $2, (SELECT min(id) FROM location), 'BW' || d FROM generate_series(0, $1 - 1) d
     WHERE NOT EXISTS (SELECT 1 FROM device WHERE device_code = 'BW' || d)`,
    [DEVICES, DEVICE_TYPE.coldWaterMeter],
  );
  // Earlier runs' telegrams out: this run counts its own.
  for (const table of ['reading', 'telegram']) {
    await db.query(`DELETE FROM ${table} WHERE device_id IN (SELECT id FROM device WHERE device_code LIKE 'BW%')`);
  }
  return (await createCollectorKey(db, `backup bench ${Date.now()}`, null)).Key;
}

/** The public schema's leaf tables (a partitioned table's rows are its partitions'). */
async function tables(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

/** Rows of `names`, in one transaction. */
function rowCounts(db: Db, names: readonly string[]): Promise<Record<string, number>> {
  return db.transaction(async (tx) => {
    const counts: Record<string, number> = {};
    for (const name of names) {
      counts[name] = (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`)).rows[0]!.n;
    }
    return counts;
  });
}

/**
 * Rows of every table but `unchanged` (big tables counted before the collectors started: counting
 * millions of readings in the session would hold it, and the writers, as long), in one transaction: queued
 * right before a cut, the rows at the cut. A partition the collectors made meanwhile is counted too.
 */
function rowCountsAtCut(db: Db, unchanged: Record<string, number>): Promise<Record<string, number>> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1`,
    );
    const counts: Record<string, number> = { ...unchanged };
    for (const { name } of rows.filter((r) => !Object.hasOwn(unchanged, r.name))) {
      counts[name] = (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`)).rows[0]!.n;
    }
    return counts;
  });
}

interface Sent {
  c: number;
  b: number;
  sent: number;
  acked: number;
}

interface Window {
  name: string;
  began: number;
  ended: number;
  /** How long the database's session was held for the backup (ms). */
  heldMs?: number;
  file?: string;
  atCut?: Record<string, number>;
  load: string;
}

/** The way before: PGlite's image of the folder inside the session (checkpoint, dumpDataDir), gzip after. */
async function backupByImage(db: PgliteDb, file: string): Promise<number> {
  const began = performance.now();
  const image = await db.dumpDataDir();
  const heldMs = performance.now() - began;
  // As the server did (zlib's thread pool, the event loop free meanwhile), but in 1 MB pieces as now:
  // with zlib's 16 kB ones, each a round trip through the busy event loop, this took tens of minutes
  // here. It comes after the session is let go, so the writes' waits are the same either way.
  const compressed = await promisify(gzip)(Buffer.from(await image.arrayBuffer()), { chunkSize: 1 << 20 });
  writeFileSync(file, compressed, { mode: 0o600 });
  return heldMs;
}

/** The bench meters' readings in a database, per batch number. */
async function storedBatches(db: Db): Promise<Map<number, number>> {
  const { rows } = await db.query<{ batch: number; n: number }>(
    `SELECT floor((extract(epoch FROM ts) - extract(epoch FROM timestamptz '2020-01-01 00:00Z')) / 60 / $1)::int AS batch,
            count(*)::int AS n
       FROM reading WHERE device_id IN (SELECT id FROM device WHERE device_code LIKE 'BW%') GROUP BY 1`,
    [BATCH],
  );
  return new Map(rows.map((r) => [r.batch, r.n]));
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-backup-'));
  const dataDir = process.env.BENCH_BACKUP_DATA_DIR ?? path.join(work, 'data');
  const db = await openPglite(dataDir, ZONE);
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let writing = true;
  try {
    const prepared = Date.now();
    const key = await prepare(db);
    log(`prepared ${dataDir} in ${fmtMs(Date.now() - prepared)} ms`);
    server = await startServer(db, ZONE);
    const url = `${server.api}/ingest/wmbusmeters`;

    const all = await tables(db);
    const before = await rowCounts(db, all);
    const batches: Sent[] = [];
    const collector = async (c: number) => {
      for (let b = 0; writing; b++) {
        const sent = Date.now();
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
          body: batch(c, b),
          signal: AbortSignal.timeout(30 * 60_000),
        });
        if (res.status !== 200) throw new Error(`batch ${c}:${b} answered ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        batches.push({ c, b, sent, acked: Date.now() });
      }
    };
    const collectors = Array.from({ length: COLLECTORS }, (_, c) => collector(c));
    // Going before the first window (and between windows: a few batches each).
    const settle = async () => {
      const from = batches.length;
      while (batches.length < from + COLLECTORS * 3) await pause(10);
    };

    // The tables the collectors write: those that changed or appeared once they are going.
    await settle();
    const going = await rowCountsAtCut(db, {});
    const written = Object.keys(going).filter((t) => going[t] !== before[t]);
    // Counted once, not at each cut: the big tables the collectors left alone (the demo's readings).
    const unchanged = Object.fromEntries(
      Object.entries(before).filter(([t, n]) => n >= 100_000 && !written.includes(t)),
    );
    log(`the collectors write ${written.join(', ')}`);

    const windows: Window[] = [];
    const backupWindow = async (name: string, make: (file: string) => Promise<number>) => {
      await settle();
      log(`${name}…`);
      const file = path.join(work, `${windows.length}.backup.gz`);
      // Queued on the session right before the cut (each way queues its cut when called).
      const atCut = rowCountsAtCut(db, unchanged);
      const began = Date.now();
      const heldMs = await make(file);
      const ended = Date.now();
      windows.push({ name, began, ended, heldMs, file, atCut: await atCut, load: load() });
      log(`${name}: ${fmtMs(ended - began)} ms, the session held ${fmtMs(heldMs)} ms`);
    };
    await backupWindow('before: image in the session, then gzip', (file) => backupByImage(db, file));
    await backupWindow('now: copy in the session, archive after', async (file) => {
      const { cutMs } = await backupToFile(db, dataDir, file);
      return cutMs;
    });
    await settle();
    const baselineMs = Math.min(windows[1]!.ended - windows[1]!.began, 60_000);
    log(`no backup, ${fmtMs(baselineMs)} ms…`);
    const began = Date.now();
    await pause(baselineMs);
    windows.push({ name: 'no backup (baseline)', began, ended: Date.now(), load: load() });
    await settle();
    writing = false;
    await Promise.all(collectors);
    await server.close();
    server = undefined;
    const after = await rowCounts(db, Object.keys(unchanged));
    const unseen = Object.keys(unchanged).filter((t) => after[t] !== unchanged[t]);
    if (unseen.length) throw new Error(`the collectors wrote ${unseen.join(', ')} too, not counted at the cuts`);

    const rows = windows.map((w) => {
      const during = batches.filter((x) => x.acked > w.began && x.acked < w.ended);
      const waits = batches.filter((x) => x.acked > w.began && x.sent < w.ended).map((x) => x.acked - x.sent);
      return [
        w.name,
        fmtMs(w.ended - w.began),
        w.heldMs === undefined ? '' : fmtMs(w.heldMs),
        String(during.length),
        fmtMs(Math.max(...waits)),
        fmtMs(median(waits)),
        w.file ? (statSync(w.file).size / 1e6).toFixed(1) : '',
        w.load,
      ];
    });
    // Said now: the checks below take minutes on a big folder (the table comes once they pass).
    for (const row of rows) log(row.join(' | '));

    // The same answer: every acknowledged telegram stored once (whole batches)…
    const stored = await storedBatches(db);
    for (const { c, b } of batches) {
      const n = stored.get(b * COLLECTORS + c) ?? 0;
      if (n !== BATCH) throw new Error(`batch ${c}:${b} acknowledged, ${n} of ${BATCH} telegrams stored`);
    }
    // …and each backup the database at its cut, with every batch acknowledged before it began.
    for (const [i, w] of windows.entries()) {
      if (!w.file) continue;
      log(`restoring "${w.name}"…`);
      const restoredDir = path.join(work, `restored-${i}`);
      await restoreDataDir(w.file, restoredDir, ZONE);
      const restored = await openPglite(restoredDir, ZONE);
      try {
        const counts = await rowCounts(restored, await tables(restored));
        for (const table of new Set([...Object.keys(counts), ...Object.keys(w.atCut!)])) {
          if (counts[table] !== w.atCut![table])
            throw new Error(`${w.name}: ${table} has ${counts[table]} rows restored, ${w.atCut![table]} at the cut`);
        }
        const inBackup = await storedBatches(restored);
        for (const { c, b, acked } of batches) {
          const n = inBackup.get(b * COLLECTORS + c) ?? 0;
          if (n !== 0 && n !== BATCH) throw new Error(`${w.name}: ${n} of ${BATCH} telegrams of batch ${c}:${b}`);
          if (acked < w.began && n !== BATCH) throw new Error(`${w.name}: batch ${c}:${b} is missing`);
        }
      } finally {
        await restored.close();
      }
      rmSync(restoredDir, { recursive: true, force: true });
    }

    console.log(
      `\nWrites during a backup of the running server's embedded database (${DEMO} demo, ${COLLECTORS} collectors × ${BATCH} telegrams a batch)\n`,
    );
    console.log(`Data folder: ${(folderBytes(path.join(dataDir, 'pgdata')) / 1e6).toFixed(0)} MB`);
    console.log(
      formatTable(
        [
          'window',
          'ms',
          'session held ms',
          'batches acknowledged meanwhile',
          'longest wait ms',
          'median wait ms',
          'backup MB',
          'load (1, 5, 15 min)',
        ],
        rows,
      ),
    );
    console.log(`\n${machineInfo('none (embedded only)').join('\n')}`);
    console.log(
      'Same answer: every acknowledged telegram stored once; each backup restores with every table as at its cut and every batch acknowledged before it began.',
    );
  } finally {
    writing = false;
    await server?.close().catch(() => {});
    await db.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The bytes of the files under `dir`. */
function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

await main();
