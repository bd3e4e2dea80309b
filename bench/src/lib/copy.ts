import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export type CsvChunks = Iterable<string> | AsyncIterable<string>;

/** One connection that bulk-loads: COPY … FROM STDIN with CSV chunks, plus plain SQL. */
export interface CopyTarget {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
  exec(sql: string): Promise<void>;
  copyIn(sql: string, rows: CsvChunks): Promise<void>;
  close(): Promise<void>;
}

/** COPY FROM STDIN on one connection of a PostgreSQL server. */
export async function postgresCopyTarget(url: string): Promise<CopyTarget> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    query: async <R>(sql: string, params?: unknown[]) => ({ rows: (await client.query(sql, params)).rows as R[] }),
    exec: async (sql) => void (await client.query(sql)),
    copyIn: (sql, rows) => pipeline(Readable.from(rows), client.query(copyFrom(sql))),
    close: () => client.end(),
  };
}

/** PGlite has no COPY FROM STDIN: the rows go in as a blob read from `/dev/blob`, ~64 MB per COPY. */
export async function pgliteCopyTarget(pgdata: string): Promise<CopyTarget> {
  const db = await PGlite.create(pgdata);
  return {
    query: async <R>(sql: string, params?: unknown[]) => ({ rows: (await db.query<R>(sql, params)).rows }),
    exec: async (sql) => void (await db.exec(sql)),
    async copyIn(sql, rows) {
      const fromBlob = sql.replace(/\sFROM\s+STDIN\b/i, " FROM '/dev/blob'");
      let parts: string[] = [];
      let size = 0;
      const flush = async () => {
        if (size > 0) await db.query(fromBlob, [], { blob: new Blob(parts) });
        parts = [];
        size = 0;
      };
      for await (const chunk of rows) {
        parts.push(chunk);
        size += chunk.length;
        if (size >= 64 * 1024 * 1024) await flush();
      }
      await flush();
    },
    close: () => db.close(),
  };
}

/**
 * The usual bulk-load recipe: drop the table's constraints and indexes, run
 * `load`, then build them again (one sort per index instead of one insert per
 * row; foreign keys validated by one join). Whatever the migrations defined is
 * read from the catalog and recreated as it was.
 */
export async function withoutKeys(target: CopyTarget, table: string, load: () => Promise<void>): Promise<void> {
  const { rows: constraints } = await target.query<{ name: string; def: string }>(
    `SELECT quote_ident(conname) AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE conrelid = $1::regclass AND contype IN ('p', 'u', 'f') ORDER BY contype = 'f', conname`,
    [table],
  );
  const { rows: indexes } = await target.query<{ name: string; def: string }>(
    `SELECT quote_ident(i.relname) AS name, pg_get_indexdef(i.oid) AS def FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
    [table],
  );
  for (const c of [...constraints].reverse()) await target.exec(`ALTER TABLE ${table} DROP CONSTRAINT ${c.name}`);
  for (const i of indexes) await target.exec(`DROP INDEX ${i.name}`);
  await load();
  for (const i of indexes) await target.exec(i.def);
  for (const c of constraints) await target.exec(`ALTER TABLE ${table} ADD CONSTRAINT ${c.name} ${c.def}`);
}
