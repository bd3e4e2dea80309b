// npm run cli:import-csv -w server -- FILE
// Imports `serial;time;value` readings from a file into the configured database
// (the same code as POST /api/ingest/csv). Exit code 0 when every line was taken.
import { readFileSync } from 'node:fs';
import { MAX_LISTED_CSV_REJECTS } from '@rodmenys/contract';
import { openDb } from '../db/open.js';
import { loadConfig } from '../env.js';
import { HttpError } from '../errors.js';
import { importCsv } from '../services/ingest/import-csv.js';

async function main(file: string | undefined): Promise<number> {
  if (!file || file === '--help' || file === '-h') {
    console.error('Usage: npm run cli:import-csv -w server -- FILE');
    return file ? 0 : 1;
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    console.error(`Cannot read ${file}: ${(err as Error).message}`);
    return 1;
  }
  const db = await openDb(loadConfig());
  try {
    const started = Date.now();
    const r = await importCsv(db, text);
    const seconds = (Date.now() - started) / 1000;
    for (const bad of r.Rejected) console.error(`line ${bad.Position}: ${bad.Reason}`);
    if (r.RejectedCount > MAX_LISTED_CSV_REJECTS) {
      console.error(`… and ${r.RejectedCount - MAX_LISTED_CSV_REJECTS} more bad lines`);
    }
    console.log(
      `${file}: ${r.Lines} lines, ${r.Stored} readings stored, ${r.Duplicates} already there, ` +
        `${r.RejectedCount} bad lines (${seconds.toFixed(1)} s)`,
    );
    return r.RejectedCount === 0 ? 0 : 2;
  } catch (err) {
    console.error(err instanceof HttpError ? err.message : err);
    return 1;
  } finally {
    await db.close();
  }
}

process.exitCode = await main(process.argv[2]);
