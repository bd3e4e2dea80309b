import type { Config } from '../env.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import { keepsTimeZone, openPostgres, setDatabaseDefaults } from './postgres.js';

/**
 * The one place that picks the database: a PostgreSQL server when DATABASE_URL is set, else
 * embedded PGlite. On a server it also writes the database's defaults (zone, no JIT) and
 * refuses to go on when the sessions do not run in the provider's zone (a pooler that loses
 * it would shift every day bound; docs/scaling.md). `warn` hears what could not be done.
 */
export async function openDb(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'timeZone'>,
  warn: (message: string) => void = console.warn,
): Promise<Db> {
  const db = config.databaseUrl
    ? openPostgres(config.databaseUrl, config.timeZone)
    : await openPglite(config.dataDir, config.timeZone);
  try {
    await migrate(db);
    if (db.kind === 'postgres') {
      if (!(await setDatabaseDefaults(db, config.timeZone))) {
        warn(
          'not the owner of the database: its defaults (TimeZone, jit = off) are left as they are; ' +
            'set them once with ALTER DATABASE (docs/operations.md)',
        );
      }
      if (!(await keepsTimeZone(db, config.timeZone))) {
        throw new Error(
          `the database sessions do not run in TIME_ZONE ${config.timeZone}: a connection pooler that drops ` +
            'the TimeZone startup parameter? (docs/scaling.md, "PgBouncer in transaction pooling mode")',
        );
      }
    }
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
