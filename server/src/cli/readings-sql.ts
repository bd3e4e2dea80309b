// npm run cli:readings-sql -w server -- --type 1 --from 2026-02-01 --till 2026-02-28 [--parents 12,40] [--scope 3,4] [--parts 2]
// Prints the SQL GetDevicesData runs for that request, in order, with its parameters written in: the
// plan, each part, the devices' kept texts (docs/device-data.md, "The readings query"). Paste it into
// psql, or put EXPLAIN (ANALYZE, BUFFERS) before a statement. Reads only; the parts are run to find
// the devices. On the embedded database, stop the server first (one process per data folder).
import { parseArgs } from 'node:util';
import { openDb } from '../db/open.js';
import { loadConfig } from '../env.js';
import { devicesDataStatements } from '../services/devices/devices-data/index.js';
import { printable } from '../services/devices/devices-data/sql.js';
import { parseIdList } from '../services/id-list.js';
import { parseDayRange } from '../services/time.js';
import { runCli } from './run.js';

const USAGE =
  'Usage: npm run cli:readings-sql -w server -- --type N --from YYYY-MM-DD --till YYYY-MM-DD [--parents ID,…] [--scope ID,…] [--parts N]';

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      type: { type: 'string' },
      from: { type: 'string' },
      till: { type: 'string' },
      parents: { type: 'string' },
      scope: { type: 'string' },
      parts: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const type = Number(values.type);
  const parts = values.parts === undefined ? undefined : Number(values.parts);
  if (
    values.help ||
    !Number.isSafeInteger(type) ||
    !values.from ||
    !values.till ||
    (parts !== undefined && !(Number.isSafeInteger(parts) && parts >= 1))
  ) {
    console.error(USAGE);
    return values.help ? 0 : 1;
  }
  const range = parseDayRange(values.from, values.till);
  const config = loadConfig();
  const db = await openDb(config);
  try {
    const statements = await devicesDataStatements(db, {
      deviceTypeId: type,
      range,
      scope: parseIdList(values.scope, 'scope'),
      parents: parseIdList(values.parents, 'parents'),
      timeZone: config.timeZone,
      ...(parts ? { parts } : {}),
    });
    for (const statement of statements) console.log(printable(statement));
    return 0;
  } finally {
    await db.close();
  }
}

await runCli(() => main(process.argv.slice(2)));
