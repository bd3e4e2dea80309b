import { once } from 'node:events';
import {
  chmodSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import path from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { gunzip } from 'node:zlib';
import { hasPgliteData, openPglite, type PgliteDb } from './pglite.js';

// Backups of the embedded database (docs/operations.md, "Backups of the embedded database"). The
// running server holds its data folder (a second process is refused), so `npm run db:backup` asks
// it, through a Unix socket in a folder only the service's user can enter, for a backup. The cut is
// a copy of the data folder made between two transactions after a checkpoint (`copyDataDir`: the
// only time writes wait); the archive is built from that copy while requests go on. The file is the
// folder's tar image, gzip-compressed, in the form of PGlite's own image (restored by `loadDataDir`,
// as the backups made before were); the token secret and the key encryption key are not in it
// (docs/collectors.md: the key is kept apart from the data).

export class BackupError extends Error {}

/** Where the running server listens for backup requests. */
export const backupSocketPath = (dataDir: string): string => path.join(dataDir, 'admin', 'backup.sock');

/** DATA_DIR/admin, made if absent: only the service's user (and root) can enter it. */
function adminDir(dataDir: string): string {
  const dir = path.dirname(backupSocketPath(dataDir));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}

/** Folders of backups under way are named so; one left by a process that died is removed. */
const WORK_PREFIX = 'backup-';

/** Removes what backups of a process that is gone left in DATA_DIR/admin (its caller holds the folder's lock). */
function removeLeftovers(dataDir: string): void {
  const dir = adminDir(dataDir);
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith(WORK_PREFIX)) rmSync(path.join(dir, entry), { recursive: true, force: true });
  }
}

/**
 * The copy `from` as the backup's archive in `to` (folder-archive.mjs), in a worker thread: the
 * server's event loop, busy with the database under load, is not in its way.
 */
function archive(from: string, to: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./folder-archive.mjs', import.meta.url), { workerData: { from, to } });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the archive stopped (exit ${code})`))));
  });
}

export interface BackupTiming {
  /** How long writes waited for the cut: the database's mutex held for the checkpoint and the copy (ms). */
  cutMs: number;
  /** When the cut ended and writes went on (Date.now()); the archive is built after it. */
  cutEndedAt: number;
}

/**
 * Writes a backup of the open database to `file` (aside first, renamed once complete), mode 0600.
 * The cut (the copy of the folder) is queued on the database's mutex when this is called, so a
 * query queued just before runs just before the cut. Resolves to the file's size and the timing.
 */
export async function backupToFile(
  db: PgliteDb,
  dataDir: string,
  file: string,
): Promise<{ bytes: number } & BackupTiming> {
  const work = mkdtempSync(path.join(adminDir(dataDir), WORK_PREFIX));
  const copy = path.join(work, 'pgdata');
  const cut = db.copyDataDir(copy);
  const partial = `${file}.partial`;
  try {
    const cutMs = await cut;
    const cutEndedAt = Date.now();
    await archive(copy, partial);
    renameSync(partial, file);
    return { bytes: statSync(file).size, cutMs, cutEndedAt };
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
}

/**
 * Serves backups of the running server's database on its socket: each connection gets the
 * backup's length (8 bytes) and the backup. Resolves to a function that stops serving; rejects when
 * the socket cannot be made (the server then runs without it and says so).
 */
export async function serveBackups(
  db: PgliteDb,
  dataDir: string,
  onError: (err: unknown) => void,
): Promise<() => Promise<void>> {
  removeLeftovers(dataDir);
  // This process holds the folder's lock: a socket left here is a dead server's.
  rmSync(backupSocketPath(dataDir), { force: true });
  const send = async (socket: Socket) => {
    const work = mkdtempSync(path.join(adminDir(dataDir), WORK_PREFIX));
    try {
      const file = path.join(work, 'backup.gz');
      const { bytes } = await backupToFile(db, dataDir, file);
      const head = Buffer.alloc(8);
      head.writeBigUInt64BE(BigInt(bytes));
      socket.write(head);
      await pipeline(createReadStream(file), socket);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };
  const server = createServer((socket) => {
    socket.on('error', () => {});
    send(socket).catch((err) => {
      onError(err);
      socket.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(backupSocketPath(dataDir), () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Receives a backup from the running server into `file` (written aside, renamed once complete). */
async function receiveBackup(socketPath: string, file: string): Promise<number> {
  const socket = connect(socketPath);
  await once(socket, 'connect');
  const partial = `${file}.partial`;
  const out = createWriteStream(partial, { mode: 0o600 });
  let head = Buffer.alloc(0);
  let expected: number | undefined;
  let received = 0;
  try {
    for await (const chunk of socket) {
      let data = chunk as Buffer;
      if (expected === undefined) {
        head = Buffer.concat([head, data]);
        if (head.length < 8) continue;
        expected = Number(head.readBigUInt64BE(0));
        data = head.subarray(8);
      }
      received += data.length;
      if (!out.write(data)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
    if (expected === undefined || received !== expected) {
      throw new BackupError('the server stopped before the backup was complete; nothing was written');
    }
    renameSync(partial, file);
    return received;
  } catch (err) {
    out.destroy();
    rmSync(partial, { force: true });
    throw err;
  }
}

const isNoServer = (err: unknown) => ['ENOENT', 'ECONNREFUSED'].includes((err as NodeJS.ErrnoException).code ?? '');

/**
 * Writes a backup of the embedded database in `dataDir` to `file`: from the running server
 * when there is one, else by opening the folder (which refuses while another process holds it).
 * Returns the file's size and whether the running server made it.
 */
export async function backupDataDir(
  dataDir: string,
  file: string,
  timeZone: string,
): Promise<{ bytes: number; fromServer: boolean }> {
  try {
    return { bytes: await receiveBackup(backupSocketPath(dataDir), file), fromServer: true };
  } catch (err) {
    if (!isNoServer(err)) throw err;
  }
  if (!hasPgliteData(dataDir)) throw new BackupError(`no embedded database in ${dataDir} (DATA_DIR)`);
  // Opening the folder writes to it (the lock, a checkpoint): only as its owner, never leaving root's files.
  const folderOwner = statSync(path.join(dataDir, 'pgdata')).uid;
  if (process.getuid && process.getuid() !== folderOwner) {
    throw new BackupError(
      `no server is running on ${dataDir}: run the backup as the folder's owner (uid ${folderOwner})`,
    );
  }
  const db = await openPglite(dataDir, timeZone);
  try {
    removeLeftovers(dataDir);
    return { bytes: (await backupToFile(db, dataDir, file)).bytes, fromServer: false };
  } finally {
    await db.close();
  }
}

/**
 * Restores a backup into `dataDir`, which must be empty or absent (never over a database), and
 * checks that the database opens. Returns the number of migrations it holds.
 */
export async function restoreDataDir(file: string, dataDir: string, timeZone: string): Promise<number> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new BackupError(`${dataDir} is not empty: restore into an empty folder (DATA_DIR), never over a database`);
  }
  if (!existsSync(file)) throw new BackupError(`no backup file ${file}`);
  let image: Buffer;
  try {
    image = await promisify(gunzip)(readFileSync(file));
  } catch {
    throw new BackupError(`${file} is not a backup made by npm run db:backup (not gzip, or cut short)`);
  }
  mkdirSync(dataDir, { recursive: true });
  try {
    const db = await openPglite(dataDir, timeZone, { loadDataDir: new Blob([image]) });
    try {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migration');
      return rows[0]!.n;
    } finally {
      await db.close();
    }
  } catch (err) {
    // The folder was empty: leave it so.
    for (const entry of readdirSync(dataDir)) rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    throw err instanceof BackupError
      ? err
      : new BackupError(`${file} could not be restored: ${(err as Error).message}`);
  }
}
