import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from './db.js';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

/** Applies the forward-only `.sql` migrations not applied yet, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migration (
    name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const done = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migration')).rows.map((r) => r.name));
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const sql = readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
    await db.transaction(async (tx) => {
      // Several servers may start at once: only one applies a migration.
      await tx.query('SELECT pg_advisory_xact_lock(7243901)');
      const again = await tx.query('SELECT 1 FROM schema_migration WHERE name = $1', [file]);
      if (again.rowCount > 0) return;
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migration (name) VALUES ($1)', [file]);
      applied.push(file);
    });
  }
  return applied;
}
