import { once } from 'node:events';
import {
  chmodSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { hasPgliteData, openPglite, type PgliteDb } from './pglite.js';

// Backups of the embedded database (docs/operations.md, "Backups of the embedded database"). The
// running server holds its data folder (a second process is refused), so `npm run db:backup` asks
// it, through a Unix socket in a folder only the service's user can enter, for the data folder's
// image: taken between two transactions after a checkpoint, so consistent, while the server keeps
// answering. The file is PGlite's tar image of the folder, gzip-compressed; the token secret and the
// key encryption key are not in it (docs/collectors.md: the key is kept apart from the data).

export class BackupError extends Error {}

/** Where the running server listens for backup requests. */
export const backupSocketPath = (dataDir: string): string => path.join(dataDir, 'admin', 'backup.sock');

/** The open database's image, compressed (outside the database's mutex: requests go on meanwhile). */
async function backupImage(db: PgliteDb): Promise<Buffer> {
  const image = Buffer.from(await (await db.dumpDataDir()).arrayBuffer());
  return promisify(gzip)(image);
}

/**
 * Serves backups of the running server's database on its socket: each connection gets the
 * image's length (8 bytes) and the image. Resolves to a function that stops serving; rejects when
 * the socket cannot be made (the server then runs without it and says so).
 */
export async function serveBackups(
  db: PgliteDb,
  dataDir: string,
  onError: (err: unknown) => void,
): Promise<() => Promise<void>> {
  const dir = path.dirname(backupSocketPath(dataDir));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  // This process holds the folder's lock: a socket left here is a dead server's.
  rmSync(backupSocketPath(dataDir), { force: true });
  const server = createServer((socket) => {
    socket.on('error', () => {});
    backupImage(db).then(
      (image) => {
        const head = Buffer.alloc(8);
        head.writeBigUInt64BE(BigInt(image.length));
        socket.end(Buffer.concat([head, image]));
      },
      (err) => {
        onError(err);
        socket.destroy();
      },
    );
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
    const image = await backupImage(db);
    const partial = `${file}.partial`;
    const out = createWriteStream(partial, { mode: 0o600 });
    out.end(image);
    await finished(out);
    renameSync(partial, file);
    return { bytes: image.length, fromServer: false };
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
