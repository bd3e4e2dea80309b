/**
 * `BENCH_PG_STATEMENTS=1`: a statement profile of a benchmark's PostgreSQL (docs/benchmarks.md,
 * "LoRaWAN ingest"): the throwaway cluster loads pg_stat_statements (nested statements and
 * planning counted too), and after a measured path the benchmark prints what each statement
 * cost per 1,000 units of work. The extension's own bookkeeping costs CPU: a profiled run's
 * CPU columns are not comparable with an unprofiled one's.
 */
import type { Db } from '@rodmenys/server/db/db.js';

export const PROFILE_STATEMENTS = process.env.BENCH_PG_STATEMENTS === '1';

/** postgresql.conf entries of a profiled cluster. */
export const PROFILE_SETTINGS: Record<string, string | number> = {
  shared_preload_libraries: "'pg_stat_statements'",
  'pg_stat_statements.track': "'all'",
  'pg_stat_statements.track_planning': 'on',
  track_functions: "'all'",
  // BENCH_PG_EXPLAIN=1 also logs every statement's plan with its row counts and times (auto_explain)
  // into BENCH_PG_LOG_DIR, a folder the postgres user may write (else the cluster's own, deleted with it).
  ...(process.env.BENCH_PG_EXPLAIN === '1'
    ? {
        session_preload_libraries: "'auto_explain'",
        'auto_explain.log_min_duration': 0,
        'auto_explain.log_analyze': 'on',
        'auto_explain.log_buffers': 'on',
        logging_collector: 'on',
        log_directory: `'${process.env.BENCH_PG_LOG_DIR ?? 'log'}'`,
      }
    : {}),
};

export async function resetStatements(db: Db): Promise<void> {
  await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await db.query('SELECT pg_stat_statements_reset()');
}

/** The statements run since the reset, most expensive first, per 1,000 units. */
export async function statementLines(db: Db, units: number): Promise<string[]> {
  const { rows } = await db.query<{ calls: string; rows: string; exec: number; plan: number; query: string }>(
    `SELECT calls::text, rows::text, total_exec_time AS exec, total_plan_time AS plan,
            regexp_replace(query, '\\s+', ' ', 'g') AS query
       FROM pg_stat_statements
      WHERE query NOT LIKE '%pg_stat_statements%' AND query NOT LIKE '%pg_stat_activity%'
      ORDER BY total_exec_time + total_plan_time DESC LIMIT 12`,
  );
  const per = (n: number) => ((n * 1000) / units).toFixed(1);
  return rows.map(
    (r) =>
      `  calls ${per(Number(r.calls))}/1k, rows ${per(Number(r.rows))}/1k, exec ${per(r.exec)} ms/1k, ` +
      `plan ${per(r.plan)} ms/1k: ${r.query.slice(0, 160)}`,
  );
}
