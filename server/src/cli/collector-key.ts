// npm run cli:collector-key -w server -- create NAME | list | revoke ID
// Manages the keys collectors send readings with (the same as the API for group 1).
import { openDb } from '../db/open.js';
import { loadConfig } from '../env.js';
import { createCollectorKey, listCollectorKeys, revokeCollectorKey } from '../services/ingest/collector-keys.js';

const USAGE = 'Usage: npm run cli:collector-key -w server -- create NAME | list | revoke ID';

async function main(argv: string[]): Promise<number> {
  const [command, arg] = argv;
  if (!['create', 'list', 'revoke'].includes(command ?? '') || (command !== 'list' && !arg?.trim())) {
    console.error(USAGE);
    return command === '--help' || command === '-h' ? 0 : 1;
  }
  const db = await openDb(loadConfig());
  try {
    if (command === 'create') {
      const key = await createCollectorKey(db, arg!, null);
      console.log(`Collector key ${key.Id} "${key.Name}" created. It is shown this once; keep it in the collector:\n`);
      console.log(key.Key);
    } else if (command === 'revoke') {
      const id = Number(arg);
      if (!Number.isSafeInteger(id) || id < 1) {
        console.error(`ID must be a key number (see "list"), got "${arg}"`);
        return 1;
      }
      const key = await revokeCollectorKey(db, id);
      console.log(`Collector key ${key.Id} "${key.Name}" revoked at ${key.RevokedAt}.`);
    } else {
      const keys = await listCollectorKeys(db);
      if (keys.length === 0) console.log('No collector keys yet.');
      for (const k of keys) {
        const state = k.RevokedAt ? `revoked ${k.RevokedAt}` : `last used ${k.LastUsedAt ?? 'never'}`;
        console.log(`${String(k.Id).padStart(4)}  ${k.Prefix}…  ${k.Name}  (created ${k.CreatedAt}; ${state})`);
      }
    }
    return 0;
  } catch (err) {
    console.error((err as Error).message);
    return 1;
  } finally {
    await db.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
