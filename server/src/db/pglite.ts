import {
  closeSync,
  existsSync,
  constants as fsConstants,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import {
  assertCopyFromStdin,
  type CsvChunks,
  type Db,
  Mutex,
  type QueryResult,
  type TransactionOptions,
  type Tx,
} from './db.js';

export class DataDirLockedError extends Error {}

/** Lock files this process holds: a second open of one folder here is refused too. */
const heldHere = new Set<string>();

/**
 * PGlite keeps no lock on its folder and two processes on one folder lose rows
 * silently (docs/ARCHITECTURE.md, "Plain SQL over an ORM"), so we hold a lock file with our pid. A lock left by a
 * process that is gone is taken over.
 */
function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = path.resolve(dir, 'rodmenys.lock');
  if (heldHere.has(file)) {
    throw new DataDirLockedError(`The database folder ${dir} is already open in this process.`);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(file);
      return () => {
        heldHere.delete(file);
        rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(
          `The database folder ${dir} is in use by another Rodmenys process (pid ${pid}). ` +
            'Stop that process, or set DATA_DIR to another folder.',
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the database folder ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How much CSV one PGlite COPY takes at most: the chunk is held in memory twice (string, blob). */
export const PGLITE_COPY_CHUNK_CHARS = 50 * 1024 * 1024;

/**
 * COPY into PGlite: it has no COPY FROM STDIN, so the rows go in as a blob read from
 * the virtual file `/dev/blob`, one COPY per ~50 MB so that memory stays bounded.
 * The caller holds the mutex and the transaction.
 */
export async function pgliteCopyIn(
  pg: PGlite,
  sql: string,
  rows: CsvChunks,
  chunkChars = PGLITE_COPY_CHUNK_CHARS,
): Promise<void> {
  assertCopyFromStdin(sql);
  const fromBlob = sql.replace(/\sFROM\s+STDIN\b/i, " FROM '/dev/blob'");
  let parts: string[] = [];
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    const blob = new Blob(parts);
    parts = [];
    size = 0;
    await pg.query(fromBlob, [], { blob });
  };
  for await (const chunk of rows) {
    parts.push(chunk);
    size += chunk.length;
    if (size >= chunkChars) await flush();
  }
  await flush();
}

/** An embedded database, which can also write its whole data folder as one image. */
export interface PgliteDb extends Db {
  readonly kind: 'pglite';
  /**
   * The data folder as an uncompressed tar image, for `openPglite(…, { loadDataDir })`: taken
   * between transactions (the mutex) after a checkpoint, so it is consistent (docs/operations.md,
   * "Backups of the embedded database").
   */
  dumpDataDir(): Promise<Blob>;
  /**
   * Copies the data folder's files to `target` (a new folder) while no statement runs: a checkpoint,
   * then the files copied by the operating system, under the mutex. PGlite writes its folder through
   * to the files at each write (Emscripten's NODEFS keeps nothing aside), so the copy is the database
   * as of that moment, every committed transaction in it (docs/operations.md, "Backups of the embedded
   * database"). The mutex is queued when this is called (before any await). Resolves to how long the
   * mutex was held, in ms.
   */
  copyDataDir(target: string): Promise<number>;
}

export interface PgliteOptions {
  /** Start from this image of a data folder (`dumpDataDir`) instead of an empty database. */
  loadDataDir?: Blob;
}

/**
 * Embedded PostgreSQL (PGlite). It is one session shared by every request, so a
 * mutex is held from the start of a transaction to its end: no other request's
 * statement can run inside it, and a failed transaction is never committed by
 * someone else. `dir` undefined = in memory (tests).
 */
export async function openPglite(
  dir: string | undefined,
  timeZone: string,
  options: PgliteOptions = {},
): Promise<PgliteDb> {
  const unlock = dir ? lockDataDir(dir) : () => {};
  let pg: PGlite;
  try {
    pg = await PGlite.create(dir ? path.join(dir, 'pgdata') : undefined, { loadDataDir: options.loadDataDir });
    await pg.exec(`SET TIME ZONE '${timeZone.replace(/'/g, "''")}'`);
  } catch (err) {
    unlock();
    throw err;
  }
  const mutex = new Mutex();
  const run = async <R>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> => {
    const r = await pg.query<R>(sql, params as unknown[] | undefined);
    // affectedRows is 0 for a SELECT: count the rows of anything that returns rows.
    return { rows: r.rows, rowCount: r.fields.length > 0 ? r.rows.length : (r.affectedRows ?? 0) };
  };
  const direct: Tx = {
    query: run,
    exec: async (sql) => void (await pg.exec(sql)),
    copyIn: (sql, rows) => pgliteCopyIn(pg, sql, rows),
  };
  const transaction = <T>(fn: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> =>
    mutex.run(async () => {
      await pg.exec('BEGIN');
      try {
        const result = await fn(direct);
        await pg.exec(options.rollback ? 'ROLLBACK' : 'COMMIT');
        return result;
      } catch (err) {
        await pg.exec('ROLLBACK').catch(() => {});
        throw err;
      }
    });
  return {
    kind: 'pglite',
    query: (sql, params) => mutex.run(() => run(sql, params)),
    transaction,
    // Several COPYs in one transaction: all rows or none, as one COPY on a server.
    copyIn: (sql, rows) => transaction((tx) => tx.copyIn(sql, rows)),
    exec: (sql) => mutex.run(async () => void (await pg.exec(sql))),
    dumpDataDir: () =>
      mutex.run(async () => {
        await pg.exec('CHECKPOINT');
        return pg.dumpDataDir('none');
      }),
    copyDataDir: (target) => {
      if (!dir) return Promise.reject(new Error('an in-memory database has no data folder to copy'));
      return mutex.run(async () => {
        const began = performance.now();
        await pg.exec('CHECKPOINT');
        await copyFolder(path.join(dir, 'pgdata'), target);
        return performance.now() - began;
      });
    },
    async close() {
      await mutex.run(() => pg.close());
      unlock();
    },
  };
}

/**
 * `from`'s files and folders into `to` (created), each file by copyFile: a clone where the file system
 * can (btrfs, XFS), else copy_file_range in the kernel, never through JavaScript's memory.
 */
async function copyFolder(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true, mode: 0o700 });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await copyFolder(source, target);
    else if (entry.isFile()) await copyFile(source, target, fsConstants.COPYFILE_FICLONE);
  }
}

export const hasPgliteData = (dir: string): boolean => existsSync(path.join(dir, 'pgdata', 'PG_VERSION'));
