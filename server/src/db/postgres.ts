import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { assertCopyFromStdin, type CsvChunks, type Db, type Queryable, type QueryResult, type Tx } from './db.js';

// numeric and bigint arrive as exact strings; keep them so (the SQL casts what
// the API needs). int8 counts (count(*)) are parsed: they never exceed 2^53 here.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** COPY … FROM STDIN on one client, fed from the chunks with back-pressure. One statement: all rows or none. */
async function copyInto(client: pg.PoolClient, sql: string, rows: CsvChunks): Promise<void> {
  assertCopyFromStdin(sql);
  await pipeline(Readable.from(rows), client.query(copyFrom(sql)));
}

/**
 * A PostgreSQL server through a pool; every session runs in the provider's time zone, and
 * without JIT compilation: the product's queries are short index probes whose estimated cost
 * can still pass jit_above_cost (a statement's figures did: 0.7 s compiling a 0.1 s query).
 */
export function openPostgres(url: string, timeZone: string, poolSize = 10): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: `-c TimeZone=${timeZone} -c jit=off`,
    application_name: 'rodmenys',
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  const wrap = (c: pg.Pool | pg.PoolClient): Queryable => ({
    async query<R>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      const r = await c.query(sql, params as unknown[] | undefined);
      return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn, options = {}) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: Tx = {
          ...wrap(client),
          exec: async (sql) => void (await client.query(sql)),
          copyIn: (sql, rows) => copyInto(client, sql, rows),
        };
        const result = await fn(tx);
        await client.query(options.rollback ? 'ROLLBACK' : 'COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async copyIn(sql, rows) {
      const client = await pool.connect();
      let failed: unknown;
      try {
        await copyInto(client, sql, rows);
      } catch (err) {
        failed = err;
        throw err;
      } finally {
        // A COPY stopped half-way may leave the connection unusable: do not pool it again.
        client.release(failed instanceof Error ? failed : undefined);
      }
    },
    async close() {
      await pool.end();
    },
  };
}

/** The pool behind a PostgreSQL Db, for COPY streams (bulk loads). */
export type { pg };
