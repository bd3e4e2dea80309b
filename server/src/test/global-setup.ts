import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../db/migrate.js';
import { openPglite } from '../db/pglite.js';
import { openPostgres } from '../db/postgres.js';
import { admin, TEST_TIME_ZONE } from './db.js';

/**
 * Runs once before the server's test files: migrates one database and hands it to
 * every file to copy (createTestDb), instead of each file migrating its own. On
 * PGlite the copy is the data folder's image (`dumpDataDir`, loaded with
 * `loadDataDir`); on a PostgreSQL server a template database.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-test-image-'));
    const db = await openPglite(undefined, TEST_TIME_ZONE);
    try {
      await migrate(db);
      const image = path.join(dir, 'migrated.tar');
      writeFileSync(image, Buffer.from(await (await db.dumpDataDir()).arrayBuffer()));
      project.provide('pgliteImage', image);
      project.provide('postgresTemplate', undefined);
    } finally {
      await db.close();
    }
    return async () => rmSync(dir, { recursive: true, force: true });
  }
  const template = `test_template_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, (c) => c.query(`CREATE DATABASE ${template}`));
  const url = new URL(serverUrl);
  url.pathname = `/${template}`;
  const db = openPostgres(url.toString(), TEST_TIME_ZONE);
  try {
    await migrate(db);
  } finally {
    // A template must have no connection while it is copied.
    await db.close();
  }
  project.provide('pgliteImage', undefined);
  project.provide('postgresTemplate', template);
  return async () => {
    await admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
  };
}
