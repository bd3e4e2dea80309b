// npm run cli:partition-detach -w server -- --before YYYY-MM [--telegrams-only]
// Detaches the month partitions of readings and telegrams (or of the raw telegrams alone) before that month
// (docs/operations.md): they stay as plain tables to dump with pg_dump -t and drop.
import { openDb } from '../db/open.js';
import { loadConfig } from '../env.js';
import { detachPartitions, listPartitions, parseMonth } from '../services/partitions/partitions.js';
import { runCli } from './run.js';

const USAGE = 'Usage: npm run cli:partition-detach -w server -- --before YYYY-MM [--telegrams-only] | --list';

async function main(argv: string[]): Promise<number> {
  const telegramsOnly = argv.includes('--telegrams-only');
  const [flag, value] = argv.filter((a) => a !== '--telegrams-only');
  if (flag === '--list') {
    const db = await openDb(loadConfig());
    try {
      for (const p of await listPartitions(db)) console.log(`${p.parent}\t${p.name}`);
      return 0;
    } finally {
      await db.close();
    }
  }
  const before = flag === '--before' && value ? parseMonth(value) : null;
  if (!before) {
    console.error(USAGE);
    return flag === '--help' || flag === '-h' ? 0 : 1;
  }
  const db = await openDb(loadConfig());
  try {
    const names = await detachPartitions(db, before, { telegramsOnly });
    if (names.length === 0) console.log(`No partition before ${before.slice(0, 7)}.`);
    for (const name of names) console.log(`Detached ${name}`);
    return 0;
  } finally {
    await db.close();
  }
}

await runCli(() => main(process.argv.slice(2)));
