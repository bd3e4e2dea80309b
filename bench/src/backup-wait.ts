/**
 * How long writes wait while `npm run db:backup` backs up the running server's embedded database
 * (docs/operations.md, "Backups of the embedded database"): the medium demo in a PGlite folder, the
 * built server on it, COLLECTORS collectors posting batches of BATCH telegrams without pause, and the
 * built backup command run once they are going. The same collectors without a backup, as long (at
 * most a minute), are the baseline. Printed per phase: the phase's length, batches acknowledged, batches
 * acknowledged while the backup ran, the longest and the median wait of a batch, and the machine's
 * load. Both phases must give the same answer: every acknowledged telegram is in the database once
 * (checked after the server stopped), and the backup restores with every batch acknowledged before it
 * began; else the bench fails.
 *
 * npm run bench:backup -w bench   (builds the server first)
 * BENCH_BACKUP_DATA_DIR=/tmp/rodmenys-medium keeps the seeded folder for the next run (seeding the
 * medium demo takes minutes); COLLECTORS (3) and BATCH (25) change the load.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEVICE_TYPE } from '@rodmenys/contract';
import { restoreDataDir } from '@rodmenys/server/db/backup.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPglite } from '@rodmenys/server/db/pglite.js';
import { seedDemo } from '@rodmenys/server/demo/generate.js';
import { createCollectorKey } from '@rodmenys/server/services/ingest/collector-keys.js';
import { startBuiltServer } from './lib/built-server.js';
import { machineInfo } from './lib/machine.js';
import { envInt, fmtMs, median } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ZONE = 'Europe/Vilnius';
const COLLECTORS = envInt('COLLECTORS', 3);
const BATCH = envInt('BATCH', 25);
const DEVICES = 40;
/** The baseline's batches count from here (minutes of 2022): the backup's never get this far. */
const BASELINE_FIRST_BATCH = 20_000;
const run = promisify(execFile);
const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

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

/** The medium demo in `dataDir`, with DEVICES meters of the bench's own and a collector key. */
async function prepare(dataDir: string): Promise<string> {
  const db = await openPglite(dataDir, ZONE);
  try {
    await migrate(db);
    const seeded = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM location');
    if (seeded.rows[0]!.n === 0) {
      log('seeding the medium demo (minutes)…');
      await seedDemo(db, { size: 'medium' });
    }
    await db.query(
      `INSERT INTO device (device_type_id, location_id, device_code)
       SELECT $2, (SELECT min(id) FROM location), 'BW' || d FROM generate_series(0, $1 - 1) d
       WHERE NOT EXISTS (SELECT 1 FROM device WHERE device_code = 'BW' || d)`,
      [DEVICES, DEVICE_TYPE.coldWaterMeter],
    );
    // Earlier runs' telegrams out: each phase counts its own.
    for (const table of ['reading', 'telegram']) {
      await db.query(`DELETE FROM ${table} WHERE device_id IN (SELECT id FROM device WHERE device_code LIKE 'BW%')`);
    }
    return (await createCollectorKey(db, `backup bench ${Date.now()}`, null)).Key;
  } finally {
    await db.close();
  }
}

const startServer = (dataDir: string, port: number) =>
  startBuiltServer({
    ...process.env,
    DATABASE_URL: '',
    PORT: String(port),
    DATA_DIR: dataDir,
    DEMO_DATA: 'none',
    WEB_DIR: '',
    LOG_LEVEL: 'warn',
    // The month-end and data-quality jobs would hold the one session for minutes on a fresh demo.
    SCHEDULER: 'false',
  });

interface Phase {
  name: string;
  ms: number;
  /** Per batch: collector, number, when sent and when acknowledged. */
  batches: { c: number; b: number; sent: number; acked: number }[];
  backup?: { began: number; ended: number; bytes: number; file: string };
  load: string;
}

/** Collectors post until `work` resolves (and a second after), each batch once, in turn. */
async function phase(
  name: string,
  url: string,
  key: string,
  firstBatch: number,
  work: () => Promise<Phase['backup'] | number>,
) {
  const batches: Phase['batches'] = [];
  let writing = true;
  const collector = async (c: number) => {
    for (let b = firstBatch; writing; b++) {
      const sent = Date.now();
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
        body: batch(c, b),
        signal: AbortSignal.timeout(300_000),
      });
      if (res.status !== 200) throw new Error(`${name}: batch ${c}:${b} answered ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      batches.push({ c, b, sent, acked: Date.now() });
    }
  };
  const collectors = Array.from({ length: COLLECTORS }, (_, c) => collector(c));
  // Going before the measured part starts.
  while (batches.length < COLLECTORS * 2) await new Promise((r) => setTimeout(r, 10));
  const started = Date.now();
  const result = await work();
  await new Promise((r) => setTimeout(r, 1000));
  writing = false;
  await Promise.all(collectors);
  const ms = typeof result === 'number' ? result : result!.ended - result!.began;
  return { name, ms, batches, backup: typeof result === 'number' ? undefined : result, load: load(), started };
}

/** The bench meters' readings in the database, per batch number. */
async function storedBatches(dataDir: string): Promise<Map<number, number>> {
  const db = await openPglite(dataDir, ZONE);
  try {
    const { rows } = await db.query<{ batch: number; n: number }>(
      `SELECT floor((extract(epoch FROM ts) - extract(epoch FROM timestamptz '2020-01-01 00:00Z')) / 60 / $1)::int AS batch,
              count(*)::int AS n
         FROM reading WHERE device_id IN (SELECT id FROM device WHERE device_code LIKE 'BW%') GROUP BY 1`,
      [BATCH],
    );
    return new Map(rows.map((r) => [r.batch, r.n]));
  } finally {
    await db.close();
  }
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'rodmenys-bench-backup-'));
  const kept = process.env.BENCH_BACKUP_DATA_DIR;
  const dataDir = kept ?? path.join(work, 'data');
  let server: ChildProcess | undefined;
  try {
    const seedStarted = Date.now();
    const key = await prepare(dataDir);
    log(`prepared ${dataDir} in ${fmtMs(Date.now() - seedStarted)} ms`);
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    server = await startServer(dataDir, port);
    const url = `http://127.0.0.1:${port}/api/ingest/wmbusmeters`;

    log('backup while collectors post…');
    const file = path.join(work, 'medium.backup.gz');
    const withBackup = await phase('during a backup', url, key, 0, async () => {
      const began = Date.now();
      const { stdout } = await run('node', ['server/dist/cli/backup.js', file], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      });
      const ended = Date.now();
      if (!stdout.includes('by the running server'))
        throw new Error(`the backup was not made by the server: ${stdout}`);
      return { began, ended, bytes: statSync(file).size, file };
    });
    if (withBackup.batches.some((x) => x.b >= BASELINE_FIRST_BATCH))
      throw new Error("too many batches: they reach the baseline's");
    // As long as the backup, at most a minute: enough to know how long a batch takes without one.
    const baselineMs = Math.min(withBackup.ms, 60_000);
    log(
      `backup took ${fmtMs(withBackup.ms)} ms; the baseline: the same collectors for ${fmtMs(baselineMs)} ms, no backup…`,
    );
    const baseline = await phase('no backup (baseline)', url, key, BASELINE_FIRST_BATCH, async () => {
      await new Promise((r) => setTimeout(r, baselineMs));
      return baselineMs;
    });
    await new Promise<void>((resolve) => {
      server!.once('exit', () => resolve());
      server!.kill('SIGTERM');
    });
    server = undefined;

    const rows = [withBackup, baseline].map((p) => {
      const from = p.backup?.began ?? p.started;
      const till = from + p.ms;
      const during = p.batches.filter((x) => x.acked > from && x.acked < till);
      const overlapping = p.batches.filter((x) => x.acked > from && x.sent < till);
      const waits = overlapping.map((x) => x.acked - x.sent);
      return [
        p.name,
        fmtMs(p.ms),
        String(during.length),
        fmtMs(Math.max(...waits)),
        fmtMs(median(waits)),
        p.backup ? (p.backup.bytes / 1e6).toFixed(1) : '',
        p.load,
      ];
    });
    // Said now: the checks below take minutes on a big folder (the table comes once they pass).
    for (const row of rows) log(row.join(' | '));

    // The same answer from both phases: every acknowledged telegram stored, once (whole batches).
    const stored = await storedBatches(dataDir);
    for (const p of [withBackup, baseline]) {
      for (const { c, b } of p.batches) {
        const n = stored.get(b * COLLECTORS + c) ?? 0;
        if (n !== BATCH) throw new Error(`${p.name}: batch ${c}:${b} acknowledged, ${n} of ${BATCH} telegrams stored`);
      }
    }
    // The backup: every batch acknowledged before it began, each whole or absent.
    const restoredDir = path.join(work, 'restored');
    await restoreDataDir(withBackup.backup!.file, restoredDir, ZONE);
    const inBackup = await storedBatches(restoredDir);
    for (const { c, b, acked } of withBackup.batches) {
      const n = inBackup.get(b * COLLECTORS + c) ?? 0;
      if (n !== 0 && n !== BATCH) throw new Error(`the backup holds ${n} of ${BATCH} telegrams of batch ${c}:${b}`);
      if (acked < withBackup.backup!.began && n !== BATCH) throw new Error(`the backup lacks batch ${c}:${b}`);
    }

    console.log(
      `\nWrites during \`npm run db:backup\` of the running server (medium demo, ${COLLECTORS} collectors × ${BATCH} telegrams a batch)\n`,
    );
    console.log(`Data folder: ${(folderBytes(path.join(dataDir, 'pgdata')) / 1e6).toFixed(0)} MB`);
    console.log(
      formatTable(
        [
          'phase',
          'ms',
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
      'Same answer: every acknowledged telegram stored once in both phases; the backup has every batch acknowledged before it began.',
    );
  } finally {
    server?.kill('SIGKILL');
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
