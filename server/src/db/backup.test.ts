import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_TIME_ZONE } from '../test/db.js';
import { backupToFile, restoreDataDir } from './backup.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { openPglite, type PgliteDb } from './pglite.js';

// docs/operations.md, "Backups of the embedded database": writes wait only for the cut (a
// checkpoint and a copy of the data folder), not while the archive is built; the archive restores
// to the database as it was at the cut, like the backups made before (PGlite's own image). The
// server's socket and the commands are driven in backup.durable.test.ts.

/** Rows of every table, by name (leaf tables: a partitioned table's rows are its partitions'). */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  return db.transaction(async (tx) => {
    const { rows: tables } = await tx.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      counts[name] = (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`)).rows[0]!.n;
    }
    return counts;
  });
}

/** The names in a tar image, in order. */
function tarNames(image: Buffer): string[] {
  const names: string[] = [];
  for (let at = 0; at + 512 <= image.length && image[at] !== 0; ) {
    const name = image.toString('latin1', at, at + 100).replace(/\0.*$/s, '');
    const size = Number.parseInt(image.toString('latin1', at + 124, at + 135), 8);
    names.push(name);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

describe('embedded backup: writes wait for the cut only', () => {
  let work: string;
  let dataDir: string;
  let db: PgliteDb;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'rodmenys-backup-cut-'));
    dataDir = path.join(work, 'data');
    // The migrated image of the run (global-setup.ts) into a folder of its own, else migrated here.
    const image = inject('pgliteImage');
    db = await openPglite(dataDir, TEST_TIME_ZONE, image ? { loadDataDir: new Blob([readFileSync(image)]) } : {});
    if (!image) await migrate(db);
    // Rows that do not compress away, so that the archive takes a while against the copy.
    await db.exec(`CREATE TABLE backup_probe (n int PRIMARY KEY, filler text NOT NULL)`);
    await db.query(`INSERT INTO backup_probe SELECT -g, repeat(md5(g::text), 8) FROM generate_series(1, 100000) g`);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('acknowledges writes while the archive is built, and restores to the cut', async () => {
    const writes: { n: number; sent: number; acked: number }[] = [];
    let writing = true;
    const writer = (async () => {
      for (let n = 1; writing; n++) {
        const sent = Date.now();
        await db.transaction((tx) => tx.query('INSERT INTO backup_probe VALUES ($1, $2)', [n, `write ${n}`]));
        writes.push({ n, sent, acked: Date.now() });
        // A query resolves without leaving the microtask queue: let timers (and the backup's I/O) run.
        await new Promise((r) => setImmediate(r));
      }
    })();
    const file = path.join(work, 'cut.backup.gz');
    let began: number;
    let ended: number;
    let timing: Awaited<ReturnType<typeof backupToFile>>;
    let countsAtCut: Record<string, number>;
    try {
      while (writes.length < 20) await new Promise((r) => setTimeout(r, 5));
      // Queued on the mutex right before the cut (backupToFile queues it when called): the rows at the cut.
      const atCut = rowCounts(db);
      began = Date.now();
      timing = await backupToFile(db, dataDir, file);
      ended = Date.now();
      countsAtCut = await atCut;
      while (!writes.some((w) => w.sent > ended)) await new Promise((r) => setTimeout(r, 5));
    } finally {
      writing = false;
      await writer;
    }
    const { cutMs, cutEndedAt } = timing;

    const archiveMs = ended - cutEndedAt;
    const duringArchive = writes.filter((w) => w.acked > cutEndedAt && w.acked < ended).length;
    const longestWait = Math.max(
      ...writes.filter((w) => w.acked > began && w.sent < ended).map((w) => w.acked - w.sent),
    );
    const said = `cut ${cutMs.toFixed(0)} ms, archive ${archiveMs} ms, longest wait ${longestWait} ms, ${duringArchive} writes during the archive`;
    // Writes go on while the archive is built: no write waited as long as the archive took.
    expect(duringArchive, said).toBeGreaterThan(2);
    expect(longestWait, said).toBeLessThan(archiveMs);

    const restoredDir = path.join(work, 'restored');
    const migrations = await restoreDataDir(file, restoredDir, TEST_TIME_ZONE);
    const restored = await openPglite(restoredDir, TEST_TIME_ZONE);
    try {
      // The app's checks: every migration there, nothing left to apply.
      expect(migrations).toBe(
        (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migration')).rows[0]!.n,
      );
      await migrate(restored);
      expect(await rowCounts(restored)).toEqual(countsAtCut);
      const { rows } = await restored.query<{ n: number }>('SELECT n FROM backup_probe WHERE n > 0');
      const inBackup = new Set(rows.map((r) => r.n));
      for (const w of writes) {
        if (w.acked < began) expect(inBackup.has(w.n), `write ${w.n}, acknowledged before the backup`).toBe(true);
        if (w.sent > cutEndedAt) expect(inBackup.has(w.n), `write ${w.n}, sent after the cut`).toBe(false);
      }
    } finally {
      await restored.close();
    }
  }, 300_000);

  it('writes the image PGlite writes, and a backup made the way before restores too', async () => {
    const before = path.join(work, 'before.backup.gz');
    const image = Buffer.from(await (await db.dumpDataDir()).arrayBuffer());
    writeFileSync(before, gzipSync(image));
    const now = path.join(work, 'now.backup.gz');
    await backupToFile(db, dataDir, now);
    expect(tarNames(gunzipSync(readFileSync(now))).sort()).toEqual(tarNames(image).sort());
    const counts = await rowCounts(db);
    for (const [name, file] of [
      ['before', before],
      ['now', now],
    ] as const) {
      const dir = path.join(work, `restored-${name}`);
      await restoreDataDir(file, dir, TEST_TIME_ZONE);
      const restored = await openPglite(dir, TEST_TIME_ZONE);
      try {
        expect(await rowCounts(restored), name).toEqual(counts);
      } finally {
        await restored.close();
      }
    }
  }, 300_000);
});
