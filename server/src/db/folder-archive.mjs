// The archive of a backup of the embedded database (docs/operations.md, "Backups of the embedded
// database"), run as a worker thread by backup.ts: the copy of the data folder as a tar stream, gzip,
// into a file. In a thread of its own because the server's event loop is kept busy by the database's
// session under load, and each piece of the archive would wait for a turn of it (a GB took tens of
// minutes there). Plain JavaScript so that the same file runs from src/ (tests) and dist/.
//
// The tar (ustar) has the form of PGlite's own image of a data folder (its `dumpDataDir`, which
// `openPglite(…, { loadDataDir })` reads back): every folder and file, named from the folder's root
// with a leading slash ("/base/5/1259"), mode and modification time kept, owner 0. Streamed file by
// file, so a folder of gigabytes never sits in memory.
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { workerData } from 'node:worker_threads';
import { createGzip } from 'node:zlib';

const BLOCK = 512;

function field(header, offset, length, value) {
  header.write(value, offset, length, 'latin1');
}

/** An octal number of `length - 1` digits and a NUL, as ustar has it. */
const octal = (n, length) =>
  `${Math.floor(n)
    .toString(8)
    .padStart(length - 1, '0')}\0`;

/** The 512-byte ustar header of one entry. */
function header(name, kind, mode, size, mtimeMs) {
  if (Buffer.byteLength(name, 'latin1') > 99) throw new Error(`a name too long for the archive: ${name}`);
  const h = Buffer.alloc(BLOCK);
  field(h, 0, 100, name);
  field(h, 100, 8, octal(mode & 0o777, 8));
  field(h, 108, 8, octal(0, 8));
  field(h, 116, 8, octal(0, 8));
  field(h, 124, 12, octal(size, 12));
  field(h, 136, 12, octal(mtimeMs / 1000, 12));
  field(h, 148, 8, '        ');
  field(h, 156, 1, kind === 'file' ? '0' : '5');
  field(h, 257, 8, 'ustar\u000000');
  let sum = 0;
  for (const byte of h) sum += byte;
  field(h, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

/** The entries under `root`, parents before their children, names sorted (the archive is reproducible). */
async function* entries(root, dir = root) {
  const children = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const child of children) {
    const full = path.join(dir, child.name);
    const name = `/${path.relative(root, full).split(path.sep).join('/')}`;
    if (child.isDirectory()) {
      yield { name, full, folder: true };
      yield* entries(root, full);
    } else if (child.isFile()) {
      yield { name, full, folder: false };
    }
  }
}

/**
 * The folder `root` as a tar stream. The folder must not change meanwhile (a file that grew or
 * shrank fails the stream rather than give a wrong archive).
 */
function folderTar(root) {
  async function* blocks() {
    for await (const entry of entries(root)) {
      const info = await stat(entry.full);
      if (entry.folder) {
        yield header(entry.name, 'folder', info.mode, 0, info.mtimeMs);
        continue;
      }
      yield header(entry.name, 'file', info.mode, info.size, info.mtimeMs);
      let written = 0;
      for await (const chunk of createReadStream(entry.full, { highWaterMark: 1 << 20 })) {
        written += chunk.length;
        yield chunk;
      }
      if (written !== info.size) throw new Error(`${entry.full} changed while it was archived`);
      if (written % BLOCK) yield Buffer.alloc(BLOCK - (written % BLOCK));
    }
    // The end: two empty blocks.
    yield Buffer.alloc(2 * BLOCK);
  }
  return Readable.from(blocks(), { objectMode: false });
}

const { from, to } = workerData;
// Output in 1 MB pieces (zlib's default is 16 kB).
await pipeline(folderTar(from), createGzip({ chunkSize: 1 << 20 }), createWriteStream(to, { mode: 0o600 }));
