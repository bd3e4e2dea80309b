import pg from 'pg';
import type { Db, Queryable, QueryResult, Tx } from './db.js';

// numeric and bigint arrive as exact strings; keep them so (the SQL casts what
// the API needs). int8 counts (count(*)) are parsed: they never exceed 2^53 here.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** A PostgreSQL server through a pool; every session runs in the provider's time zone. */
export function openPostgres(url: string, timeZone: string, poolSize = 10): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: `-c TimeZone=${timeZone}`,
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
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: Tx = { ...wrap(client), exec: async (sql) => void (await client.query(sql)) };
        const result = await fn(tx);
        await client.query('COMMIT');
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
    async close() {
      await pool.end();
    },
  };
}

/** The pool behind a PostgreSQL Db, for COPY streams (bulk loads). */
export type { pg };
