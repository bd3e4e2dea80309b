// npm run db:backup -- FILE
// Writes a consistent backup of the embedded database (DATA_DIR) to FILE without stopping the server:
// the running server makes it, else the folder is opened here (docs/operations.md, "Backups of the
// embedded database"). A PostgreSQL server is backed up with its own tools (pgBackRest).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { backupDataDir } from '../db/backup.js';
import { dataDirOf } from '../env.js';
import { embeddedFileArgument, runCli } from './run.js';

const USAGE = 'Usage: npm run db:backup -- FILE   (the embedded database in DATA_DIR, to one file)';

async function main(argv: string[]): Promise<number> {
  const file = embeddedFileArgument(argv, USAGE, 'back up the PostgreSQL server with pgBackRest');
  if (typeof file === 'number') return file;
  const dataDir = dataDirOf();
  const target = path.resolve(file);
  const { bytes, fromServer } = await backupDataDir(dataDir, target, process.env.TIME_ZONE || 'Europe/Vilnius');
  console.log(
    `Backup of ${dataDir} written to ${target} (${(bytes / 1e6).toFixed(1)} MB, ${fromServer ? 'by the running server' : 'no server was running'}).`,
  );
  if (existsSync(path.join(dataDir, 'key-encryption-key'))) {
    console.log(
      `Not in it: ${path.join(dataDir, 'key-encryption-key')}; keep a copy of that apart (docs/collectors.md).`,
    );
  }
  return 0;
}

await runCli(() => main(process.argv.slice(2)));
