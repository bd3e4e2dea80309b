import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db.js';
import type { JobContext, JobDef, JobResult } from './job.js';

/** How long a claim holds; the running instance extends it every third of that. */
const LEASE_MS = 10 * 60_000;

export interface RunnerOptions extends Partial<JobContext> {
  /** Told of every failed run or tick (the server logs it). */
  onError?: (err: unknown) => void;
}

/**
 * Runs due jobs, once per schedule whatever the number of instances: each tick
 * claims a due job in a short transaction (`FOR UPDATE SKIP LOCKED`, then a
 * lease in the row), runs it outside that transaction, and records the
 * outcome and the next run. A crashed instance's lease expires and another
 * takes the job; a run missed during downtime happens at the first tick, and a run
 * whose outcome the database could not take (it went away) runs again at the next.
 * Works the same on PGlite and a PostgreSQL server. Knows no job: they are
 * given to it (server/src/jobs.ts).
 */
export class Scheduler {
  readonly owner = randomUUID();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> = Promise.resolve();
  #stopped = false;
  #registered = false;
  /** Jobs this instance ran whose outcome (and lease release) could not be written. */
  readonly #unrecorded = new Set<string>();
  readonly #ctx: JobContext;
  readonly #onError: (err: unknown) => void;

  constructor(
    private readonly db: Db,
    private readonly jobs: readonly JobDef[],
    options: RunnerOptions = {},
  ) {
    this.#ctx = { mailer: options.mailer, outgoing: options.outgoing };
    this.#onError = options.onError ?? (() => {});
  }

  /** Ticks every `intervalMs` until stopped. */
  start(intervalMs = 15_000): void {
    const loop = () => {
      if (this.#stopped) return;
      this.#running = this.tick()
        .catch(this.#onError)
        .finally(() => {
          if (!this.#stopped) this.#timer = setTimeout(loop, intervalMs);
        });
    };
    this.#timer = setTimeout(loop, 1000);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** Runs every job that is due and not claimed by another instance; returns the names it ran. */
  async tick(now: () => Date = () => new Date()): Promise<string[]> {
    if (!this.#registered) {
      // A job new to this database is due at once; an existing row keeps its schedule.
      await this.db.query('INSERT INTO job (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING', [
        this.jobs.map((j) => j.name),
      ]);
      this.#registered = true;
    }
    if (this.#unrecorded.size > 0) {
      // Runs whose outcome the database could not take (it went away mid-run, e.g. a failover):
      // free their leases, and those jobs, whose next run was not moved, run again now rather
      // than when the lease would have ended.
      await this.db.query(
        'UPDATE job SET lease_until = NULL, lease_owner = NULL WHERE name = ANY($1) AND lease_owner = $2',
        [[...this.#unrecorded], this.owner],
      );
      this.#unrecorded.clear();
    }
    const ran: string[] = [];
    for (const job of this.jobs) {
      if (this.#stopped) break;
      if (await this.#runIfDue(job, now)) ran.push(job.name);
    }
    return ran;
  }

  async #runIfDue(job: JobDef, now: () => Date): Promise<boolean> {
    const started = now();
    const { rows } = await this.db.query<{ name: string }>(
      `UPDATE job SET lease_until = $2::timestamptz + make_interval(secs => $4::float8 / 1000), lease_owner = $3,
              last_started_at = $2::timestamptz
        WHERE name = (SELECT name FROM job
                       WHERE name = $1 AND next_run_at <= $2::timestamptz
                         AND (lease_until IS NULL OR lease_until < $2::timestamptz)
                         FOR UPDATE SKIP LOCKED)
        RETURNING name`,
      [job.name, started, this.owner, LEASE_MS],
    );
    if (rows.length === 0) return false;
    const heartbeat = setInterval(() => {
      this.db
        .query(
          `UPDATE job SET lease_until = now() + make_interval(secs => $3::float8 / 1000)
            WHERE name = $1 AND lease_owner = $2`,
          [job.name, this.owner, LEASE_MS],
        )
        .catch(this.#onError);
    }, LEASE_MS / 3);
    let result: JobResult | null = null;
    let error: string | null = null;
    const t0 = performance.now();
    try {
      result = await job.run(this.db, started, this.#ctx);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      this.#onError(err);
    } finally {
      clearInterval(heartbeat);
    }
    const finished = now();
    try {
      await this.#record(job, finished, Math.round(performance.now() - t0), error, result);
    } catch (err) {
      this.#unrecorded.add(job.name);
      throw err;
    }
    return true;
  }

  /** Writes a run's outcome and its next run, and frees the lease. */
  async #record(job: JobDef, finished: Date, ms: number, error: string | null, result: JobResult | null) {
    const next = await this.db.query<{ next: Date }>(`SELECT (${job.nextSql})::timestamptz AS next`, [finished]);
    await this.db.query(
      `UPDATE job SET lease_until = NULL, lease_owner = NULL, last_finished_at = $3::timestamptz,
              last_duration_ms = $4, last_error = $5, last_result = $6, runs = runs + 1,
              failures = failures + CASE WHEN $5::text IS NULL THEN 0 ELSE 1 END,
              next_run_at = $7::timestamptz
        WHERE name = $1 AND lease_owner = $2`,
      [job.name, this.owner, finished, ms, error, result && JSON.stringify(result), next.rows[0]!.next],
    );
  }
}
