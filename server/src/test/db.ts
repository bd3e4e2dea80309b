import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Db } from '../db/db.js';
import { migrate } from '../db/migrate.js';
import { openPglite } from '../db/pglite.js';
import { openPostgres } from '../db/postgres.js';

const TIME_ZONE = 'Europe/Vilnius';

/** Which database the tests run on: a PostgreSQL server when TEST_DATABASE_URL is set, else embedded PGlite. */
export const dbKind = (): Db['kind'] => (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');

async function admin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database of its own; `close()` removes it. */
export async function createTestDb(): Promise<Db> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const db = await openPglite(undefined, TIME_ZONE);
    await migrate(db);
    return db;
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = openPostgres(url.toString(), TIME_ZONE);
  const close = async () => {
    await db.close();
    await admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  };
  try {
    await migrate(db);
  } catch (err) {
    await close();
    throw err;
  }
  return { ...db, close };
}
