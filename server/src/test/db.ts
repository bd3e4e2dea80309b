import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, inject as provided } from 'vitest';
import type { Db } from '../db/db.js';
import { migrate } from '../db/migrate.js';
import { openPglite } from '../db/pglite.js';
import { openPostgres } from '../db/postgres.js';

/** The provider zone of every test database. */
export const TEST_TIME_ZONE = 'Europe/Vilnius';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the data folder image of a migrated PGlite database (global-setup.ts). */
    pgliteImage: string | undefined;
    /** A migrated database on the PostgreSQL server, copied for each test file (global-setup.ts). */
    postgresTemplate: string | undefined;
  }
}

/** Which database the tests run on: a PostgreSQL server when TEST_DATABASE_URL is set, else embedded PGlite. */
export const dbKind = (): Db['kind'] => (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');

export async function admin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The global setup's value, or undefined outside vitest's runner (a plain script). */
function fromSetup<K extends 'pgliteImage' | 'postgresTemplate'>(key: K): string | undefined {
  try {
    return provided(key);
  } catch {
    return undefined;
  }
}

/**
 * A fresh, migrated database of its own; `close()` removes it. On PGlite it is the
 * migrated image made once per run by global-setup.ts (about 3× faster than
 * migrating in every file: docs/benchmarks.md, "Test databases"); on a PostgreSQL
 * server a copy of the migrated template database. Without the global setup, both
 * migrate from empty.
 */
export async function createTestDb(): Promise<Db> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const image = fromSetup('pgliteImage');
    if (image) return openPglite(undefined, TEST_TIME_ZONE, { loadDataDir: new Blob([readFileSync(image)]) });
    const db = await openPglite(undefined, TEST_TIME_ZONE);
    await migrate(db);
    return db;
  }
  const template = fromSetup('postgresTemplate');
  const name = `test_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, (c) => c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = openPostgres(url.toString(), TEST_TIME_ZONE);
  const close = async () => {
    await db.close();
    await admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  };
  try {
    if (!template) await migrate(db);
  } catch (err) {
    await close();
    throw err;
  }
  return { ...db, close };
}

/** What a `useDb()` or `useApp()` gives a test file: its database, there from `beforeAll` on. */
export interface TestDb {
  readonly db: Db;
}

/** A getter that explains itself when read before `beforeAll` has run. */
export function ready<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} exists from beforeAll on (read it inside a hook or a test)`);
  return value;
}

/**
 * A fresh migrated database for the test file (or the `describe` block) that calls
 * it, closed and removed after its last test. For tests of services and SQL; with
 * HTTP, `useApp()`.
 */
export function useDb(): TestDb {
  let db: Db | undefined;
  beforeAll(async () => {
    db = await createTestDb();
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });
  return {
    get db() {
      return ready(db, 'useDb().db');
    },
  };
}
