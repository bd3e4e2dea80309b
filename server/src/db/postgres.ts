import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { assertCopyFromStdin, type CsvChunks, type Db, type Queryable, type QueryResult, type Tx } from './db.js';
import { isDatabaseUnavailable } from './unavailable.js';

// numeric and bigint arrive as exact strings; keep them so (the SQL casts what
// the API needs). int8 counts (count(*)) are parsed: they never exceed 2^53 here.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** COPY … FROM STDIN on one client, fed from the chunks with back-pressure. One statement: all rows or none. */
async function copyInto(client: pg.PoolClient, sql: string, rows: CsvChunks): Promise<void> {
  assertCopyFromStdin(sql);
  await pipeline(Readable.from(rows), client.query(copyFrom(sql)));
}

/**
 * A pg.Client that names the provider's time zone in its startup packet (`TimeZone`, a
 * parameter PostgreSQL applies at login). A transaction pooler hands every transaction to
 * whichever server connection is free, so a session `SET` or the `options` parameter (which
 * PgBouncer refuses, or drops with `ignore_startup_parameters`) would not follow the client;
 * PgBouncer keeps `TimeZone` per client and sets it again on every server connection it
 * lends that client (docs/scaling.md, "PgBouncer in transaction pooling mode"). Directly, it
 * is simply the session's zone.
 */
function zonedClient(timeZone: string): new () => pg.Client {
  // getStartupConf is node-postgres' own (not in its types): the parameters of the startup
  // packet. db/db.test.ts checks the zone arrives, so an upgrade that renames it fails there.
  type WithStartup = { getStartupConf(): Record<string, string> };
  const base = (pg.Client.prototype as unknown as WithStartup).getStartupConf;
  return class ZonedClient extends pg.Client {
    getStartupConf(): Record<string, string> {
      return { ...base.call(this), TimeZone: timeZone };
    }
  };
}

/**
 * A client of the pool for a transaction or a COPY. While it is out of the pool nobody listens
 * for its `error` event, and node-postgres emits one when the server ends the connection (a
 * killed or demoted primary: docs/operations.md, "Failover") even though the running statement
 * is told too; unheard, that event would end the process. It is heard here, and `release`
 * (with the error, so the pool closes the client) gives it back.
 */
async function checkout(pool: pg.Pool) {
  const client = await pool.connect();
  let error: Error | undefined;
  const onError = (err: Error) => (error ??= err);
  client.on('error', onError);
  return {
    client,
    lost: () => error,
    release(err: Error | undefined) {
      client.release(err);
      client.off('error', onError);
    },
  };
}

/**
 * A PostgreSQL server, directly or through a transaction pooler (PgBouncer), through a pool;
 * every session runs in the provider's time zone (zonedClient). JIT compilation is turned off
 * by setDatabaseDefaults, for the database: the product's queries are short index probes whose
 * estimated cost can still pass jit_above_cost (a statement's figures did: 0.7 s compiling a
 * 0.1 s query).
 */
export function openPostgres(url: string, timeZone: string, poolSize = 10): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    application_name: 'rodmenys',
    Client: zonedClient(timeZone),
    // Through a failover (docs/operations.md, "Failover"): a connection attempt that gets no answer
    // gives up (the request answers 503) instead of waiting for the kernel, and TCP keepalive finds a
    // server that vanished without closing its sockets.
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
  });
  // An idle client that loses its server must not crash the process; the pool drops it.
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
      const { client, lost, release } = await checkout(pool);
      let broken: Error | undefined;
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
        // A connection that lost its server, or that now leads to a standby (25006 after a failover),
        // is closed rather than pooled again: the next request connects afresh (to the new primary).
        if (isDatabaseUnavailable(err)) broken = err as Error;
        await client.query('ROLLBACK').catch((e: Error) => (broken ??= e));
        throw err;
      } finally {
        release(broken ?? lost());
      }
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async copyIn(sql, rows) {
      const { client, lost, release } = await checkout(pool);
      let failed: unknown;
      try {
        await copyInto(client, sql, rows);
      } catch (err) {
        failed = err;
        throw err;
      } finally {
        // A COPY stopped half-way may leave the connection unusable: do not pool it again.
        release(failed instanceof Error ? failed : lost());
      }
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * The database's own defaults, for every session whoever opens it (each instance, a pooler's
 * server connections, psql): the provider's zone and no JIT (see openPostgres). Written only
 * when they differ, under the migrations' lock (instances start together). Needs the
 * database's owner; without that right it changes nothing and says so (false): the zone still
 * comes with every connection of the product, JIT is then the server's setting.
 */
export async function setDatabaseDefaults(db: Db, timeZone: string): Promise<boolean> {
  const wanted = [`TimeZone=${timeZone}`, 'jit=off'];
  try {
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(7243901)');
      const { rows } = await tx.query<{ config: string[] | null }>(
        `SELECT setconfig AS config FROM pg_db_role_setting
          WHERE setrole = 0 AND setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      const config = rows[0]?.config ?? [];
      if (wanted.every((w) => config.includes(w))) return;
      await tx.query("SELECT set_config('rodmenys.zone', $1, true)", [timeZone]);
      // ALTER DATABASE takes no parameters: the zone is quoted by format(), the name by %I.
      await tx.exec(`DO $$ BEGIN
        EXECUTE format('ALTER DATABASE %I SET TimeZone = %L', current_database(), current_setting('rodmenys.zone'));
        EXECUTE format('ALTER DATABASE %I SET jit = off', current_database());
      END $$`);
    });
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === '42501') return false; // not the database's owner
    throw err;
  }
}

/**
 * Whether this database's sessions run in `timeZone`: the wall time of a winter and a summer
 * moment (DST) read back through the pool. False behind a pooler that loses the zone.
 */
export async function keepsTimeZone(db: Queryable, timeZone: string): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>(
    `SELECT bool_and(m::timestamp AT TIME ZONE $1 = m::timestamptz) AS ok
       FROM unnest(ARRAY['2026-01-15 12:00', '2026-07-15 12:00']) AS m`,
    [timeZone],
  );
  return rows[0]?.ok === true;
}

/** The pool behind a PostgreSQL Db, for COPY streams (bulk loads). */
export type { pg };
