// npm run db:restore -- FILE
// Restores a backup made by `npm run db:backup` into DATA_DIR, which must be empty or absent
// (docs/operations.md, "Backups of the embedded database").
import path from 'node:path';
import { restoreDataDir } from '../db/backup.js';
import { dataDirOf } from '../env.js';
import { embeddedFileArgument, runCli } from './run.js';

const USAGE = 'Usage: npm run db:restore -- FILE   (into DATA_DIR, which must be empty)';

async function main(argv: string[]): Promise<number> {
  const file = embeddedFileArgument(argv, USAGE, 'restore the PostgreSQL server with pgBackRest');
  if (typeof file === 'number') return file;
  const dataDir = dataDirOf();
  const migrations = await restoreDataDir(path.resolve(file), dataDir, process.env.TIME_ZONE || 'Europe/Vilnius');
  console.log(`Restored ${path.resolve(file)} into ${dataDir} (${migrations} migrations). Start the server on it.`);
  return 0;
}

await runCli(() => main(process.argv.slice(2)));
