import type { Config } from '../env.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/** The one place that picks the database: a PostgreSQL server when DATABASE_URL is set, else embedded PGlite. */
export async function openDb(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'timeZone'>): Promise<Db> {
  const db = config.databaseUrl
    ? openPostgres(config.databaseUrl, config.timeZone)
    : await openPglite(config.dataDir, config.timeZone);
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
