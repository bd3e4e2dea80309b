import { type ChildProcess, execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { DEVICE_TYPE } from '@rodmenys/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollectorKey } from '../services/ingest/collector-keys.js';
import { freePort, startBuiltServer } from '../test/built-server.js';
import { makeBuilding, makeDevice, makeFlat } from '../test/factories.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';

// docs/operations.md, "Backups of the embedded database": `npm run db:backup` of a running built
// server while two collectors keep posting, then `npm run db:restore` into an empty folder. Every
// batch acknowledged before the backup began is in it, every batch is there whole or not at all,
// and a restore over a folder that holds anything is refused. It drives the built server and the
// built commands (dist/): `npm run test:durable -w server` builds them first.

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');
const ROOT = path.resolve(SERVER_DIR, '..');
const run = promisify(execFile);
const DEVICES = 40;
const BATCH = 25;

/** Batch b of collector c: BATCH telegrams at their own minutes, so a batch's readings can be counted. */
function batch(c: number, b: number): string {
  const lines: string[] = [];
  for (let i = 0; i < BATCH; i++) {
    const n = (b * 2 + c) * BATCH + i;
    lines.push(
      JSON.stringify({
        _: 'telegram',
        meter: 'iperl',
        id: `P${n % DEVICES}`,
        total_m3: n / 1000,
        timestamp: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
      }),
    );
  }
  return lines.join('\n');
}

/** `npm run db:backup|db:restore -- file` as an operator types it, at the repository's root. */
const command = (name: 'backup' | 'restore', file: string, dataDir: string) =>
  run('npm', ['run', '--silent', `db:${name}`, '--', file], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
  }).then(
    ({ stdout }) => ({ code: 0, out: stdout }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
  );

describe('npm run db:backup and db:restore (embedded database, server running)', () => {
  let work: string;
  let dataDir: string;
  let key: string;
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'rodmenys-backup-'));
    dataDir = path.join(work, 'data');
    const db = await openPglite(dataDir, 'Europe/Vilnius');
    try {
      await migrate(db);
      const flat = await makeFlat(db, await makeBuilding(db), { order: 1 });
      for (let d = 0; d < DEVICES; d++)
        await makeDevice(db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: `P${d}` });
      key = (await createCollectorKey(db, 'backup test', null)).Key;
    } finally {
      await db.close();
    }
  });
  afterAll(() => {
    server?.kill('SIGKILL');
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('backs up the running server while collectors write, and restores into an empty folder only', async () => {
    const port = await freePort();
    server = await startBuiltServer({ PORT: String(port), DATA_DIR: dataDir });
    const url = `http://127.0.0.1:${port}/api/ingest/wmbusmeters`;
    /** Per batch, when it was acknowledged (ms since the epoch). */
    const acknowledged = new Map<string, number>();
    let writing = true;
    const collector = async (c: number) => {
      for (let b = 0; writing; b++) {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
          body: batch(c, b),
        });
        expect(res.status).toBe(200);
        acknowledged.set(`${c}:${b}`, Date.now());
      }
    };
    const collectors = [collector(0), collector(1)];
    while (acknowledged.size < 10) await new Promise((r) => setTimeout(r, 10));

    const file = path.join(work, 'rodmenys.backup.gz');
    const began = Date.now();
    const backup = await command('backup', file, dataDir);
    const ended = Date.now();
    const duringBackup = [...acknowledged.values()].filter((t) => t > began && t < ended).length;
    const afterBackup = acknowledged.size;
    while (acknowledged.size < afterBackup + 4) await new Promise((r) => setTimeout(r, 10));
    writing = false;
    await Promise.all(collectors);
    expect(backup).toMatchObject({ code: 0 });
    expect(backup.out).toContain('by the running server');
    expect(duringBackup).toBeGreaterThan(0);

    // Over the running server's folder, or any folder that holds a file: refused, and nothing is touched.
    const refused = await command('restore', file, dataDir);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('is not empty');
    const other = path.join(work, 'other');
    mkdirSync(other);
    writeFileSync(path.join(other, 'notes.txt'), 'keep me');
    expect((await command('restore', file, other)).code).toBe(1);
    expect(readdirSync(other)).toEqual(['notes.txt']);

    const restoredDir = path.join(work, 'restored');
    const restored = await command('restore', file, restoredDir);
    expect(restored).toMatchObject({ code: 0 });
    expect(existsSync(path.join(restoredDir, 'key-encryption-key'))).toBe(false);

    const db = await openPglite(restoredDir, 'Europe/Vilnius');
    try {
      const { rows } = await db.query<{ batch: number; n: number }>(
        `SELECT floor((extract(epoch FROM ts) - extract(epoch FROM timestamptz '2026-01-01 00:00Z')) / 60 / $1)::int AS batch,
                count(*)::int AS n
           FROM reading GROUP BY 1`,
        [BATCH],
      );
      const inBackup = new Map(rows.map((r) => [r.batch, r.n]));
      for (const [id, at] of acknowledged) {
        const [c, b] = id.split(':').map(Number) as [number, number];
        const n = inBackup.get(b * 2 + c) ?? 0;
        // Whole or absent; and there for certain when acknowledged before the backup began.
        expect([0, BATCH]).toContain(n);
        if (at < began) expect(n, `batch ${id}, acknowledged before the backup`).toBe(BATCH);
      }
      expect(inBackup.size).toBeLessThan(acknowledged.size); // the writes after the backup are not in it
    } finally {
      await db.close();
    }
  }, 300_000);

  it('backs up a stopped installation by opening its folder', async () => {
    server?.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
    server = undefined;
    const file = path.join(work, 'stopped.backup.gz');
    const backup = await command('backup', file, dataDir);
    expect(backup).toMatchObject({ code: 0 });
    expect(backup.out).toContain('no server was running');
    // The same kind of file as the running server's (restored above): the folder's tar image, gzip.
    const image = gunzipSync(readFileSync(file));
    expect(image.includes('PG_VERSION')).toBe(true);
    expect(image.includes('global/pg_control')).toBe(true);
    // The command let the folder go again: the server can start on it.
    expect(readdirSync(dataDir)).not.toContain('rodmenys.lock');
  }, 180_000);
});
