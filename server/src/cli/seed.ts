// npm run db:seed -w server -- [--size small|medium|large] [--seed N] [--force]
// Fills the configured database (DATABASE_URL, else the embedded one in DATA_DIR) with demo data.
import { parseArgs } from 'node:util';
import { openDb } from '../db/open.js';
import { DEMO_SIZES, type DemoSize, formatDemoSummary, seedDemo } from '../demo/generate.js';
import { loadConfig } from '../env.js';
import { runCli } from './run.js';

/** Every data table, in no particular order (TRUNCATE … CASCADE); not the migrations, not the device types. */
const DATA_TABLES = [
  'reading',
  'device',
  'location_right',
  'object',
  'location',
  'client',
  'app_user',
  'revoked_token',
  'app_meta',
];

const USAGE = 'Usage: npm run db:seed -- [--size small|medium|large] [--seed N] [--force]';

async function main(): Promise<number> {
  let args: { size: string; seed: string; force: boolean; help: boolean };
  try {
    args = parseArgs({
      options: {
        size: { type: 'string', default: 'small' },
        seed: { type: 'string', default: '1' },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values as typeof args;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 1;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (!Object.hasOwn(DEMO_SIZES, args.size)) {
    console.error(`--size must be small, medium or large, got "${args.size}"\n${USAGE}`);
    return 1;
  }
  const seed = Number(args.seed);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    console.error(`--seed must be a whole number, got "${args.seed}"\n${USAGE}`);
    return 1;
  }
  const config = loadConfig();
  const db = await openDb(config);
  try {
    const where = config.databaseUrl
      ? 'the PostgreSQL database (DATABASE_URL)'
      : `the embedded database in ${config.dataDir}`;
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM location');
    if (rows[0]!.n > 0) {
      if (!args.force) {
        console.error(
          `Refusing to seed: ${where} already has data (${rows[0]!.n} locations). Use --force to wipe it and seed again.`,
        );
        return 1;
      }
      await db.exec(`TRUNCATE ${DATA_TABLES.join(', ')} RESTART IDENTITY CASCADE`);
      console.log(`Wiped the data in ${where}.`);
    }
    console.log(`Seeding ${where} …`);
    console.log(formatDemoSummary(await seedDemo(db, { size: args.size as DemoSize, seed })));
    return 0;
  } finally {
    await db.close();
  }
}

await runCli(main);
