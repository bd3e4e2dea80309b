// npm run db:restore -- FILE
// Restores a backup made by `npm run db:backup` into DATA_DIR, which must be empty or absent
// (docs/operations.md, "Backups of the embedded database").
import { existsSync } from 'node:fs';
import path from 'node:path';
import { restoreDataDir } from '../db/backup.js';
import { dataDirOf } from '../env.js';
import { runCli } from './run.js';

const USAGE = 'Usage: npm run db:restore -- FILE   (into DATA_DIR, which must be empty)';

async function main(argv: string[]): Promise<number> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const [file] = argv;
  if (!file || file.startsWith('-') || argv.length > 1) {
    console.error(USAGE);
    return file === '--help' || file === '-h' ? 0 : 1;
  }
  if (process.env.DATABASE_URL) {
    throw new Error('DATABASE_URL is set: restore the PostgreSQL server with pgBackRest (docs/operations.md)');
  }
  const dataDir = dataDirOf();
  const migrations = await restoreDataDir(path.resolve(file), dataDir, process.env.TIME_ZONE || 'Europe/Vilnius');
  console.log(`Restored ${path.resolve(file)} into ${dataDir} (${migrations} migrations). Start the server on it.`);
  return 0;
}

await runCli(() => main(process.argv.slice(2)));
