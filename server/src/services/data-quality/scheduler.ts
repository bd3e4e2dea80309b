import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db.js';
import { checkCollectors } from '../collectors/silence.js';
import { ensurePartitions } from '../partitions/partitions.js';
import { markMailNotConfigured } from '../statements/notify.js';
import { refreshMonthEnds } from './refresh-month-ends.js';
import { loadSettings } from './settings.js';
import { validate } from './validate.js';

/**
 * What a run did, as counts by name (`devices`, `monthEnds`, `found`, `opened`, …): the job list
 * shows each by its translated name. docs/data-quality.md.
 */
export type JobResult = Record<string, number>;

/** A scheduled job: what it does and when it runs next. */
export interface JobDef {
  name: string;
  run: (db: Db, now: Date) => Promise<JobResult>;
  /** SQL for the next run after `$1` (now), given the settings `$2` (jsonb). */
  nextSql: string;
}

/** Sends the digests (services/data-quality/digest.ts); set by whoever starts the scheduler with mail configured. */
export type DigestRunner = (db: Db, now: Date) => Promise<JobResult>;

/**
 * The scheduled work (docs/data-quality.md): the queued month-end values and
 * the incremental rules every minute; new months, catch-up and the full
 * validation every `schedule.validateMinutes`; the month partitions of the
 * coming months daily; the digest daily at `schedule.digestHour`.
 */
export function defaultJobs(digest?: DigestRunner, statementMail?: DigestRunner): JobDef[] {
  return [
    {
      name: 'month-ends',
      run: async (db, now) => {
        const r = await refreshMonthEnds(db, now, { ensure: false });
        const v = r.devices.length ? await validate(db, r.devices, now) : null;
        return {
          devices: r.devices.length,
          monthEnds: r.written,
          ...(v ? { opened: v.opened, resolved: v.resolved } : {}),
        };
      },
      nextSql: "$1::timestamptz + interval '1 minute'",
    },
    {
      name: 'validate',
      run: async (db, now) => {
        // New months and anything the queue missed first, then every rule over everything.
        const r = await refreshMonthEnds(db, now, { ensure: true });
        const v = await validate(db, null, now);
        return { monthEnds: r.written, found: v.found, opened: v.opened, resolved: v.resolved };
      },
      nextSql: "$1::timestamptz + make_interval(mins => ($2::jsonb ->> 'schedule.validateMinutes')::int)",
    },
    {
      // The month partitions of readings and telegrams for the coming months (docs/scaling.md).
      name: 'partitions',
      run: async (db, now) => ({ partitions: await ensurePartitions(db, now) }),
      nextSql: "$1::timestamptz + interval '1 day'",
    },
    {
      // Silent collectors open (and resumed ones resolve) their anomaly (docs/collectors.md).
      name: 'collectors',
      run: async (db, now) => {
        const r = await checkCollectors(db, now);
        return { silent: r.silent, opened: r.opened, resolved: r.resolved };
      },
      nextSql: "$1::timestamptz + interval '1 minute'",
    },
    {
      name: 'digest',
      // Without SMTP_URL nothing is sent; the list says so (`mailNotConfigured`).
      run: async (db, now) => (digest ? digest(db, now) : { mailNotConfigured: 1 }),
      // The next digest hour in the provider's zone (wall time, DST included).
      nextSql: `CASE WHEN ($1::timestamptz::date::timestamp + make_interval(hours => ($2::jsonb ->> 'schedule.digestHour')::int))::timestamptz > $1::timestamptz
                     THEN ($1::timestamptz::date::timestamp + make_interval(hours => ($2::jsonb ->> 'schedule.digestHour')::int))::timestamptz
                     ELSE (($1::timestamptz::date + 1)::timestamp + make_interval(hours => ($2::jsonb ->> 'schedule.digestHour')::int))::timestamptz END`,
    },
    {
      name: 'statement-mail',
      // The e-mails a publication queued (docs/statements.md); without SMTP_URL they are logged as not sent.
      run: async (db, now) => (statementMail ? statementMail(db, now) : markMailNotConfigured(db)),
      nextSql: "$1::timestamptz + interval '1 minute'",
    },
  ];
}

/** How long a claim holds; the running instance extends it every third of that. */
const LEASE_MS = 10 * 60_000;

/**
 * Runs due jobs, once per schedule whatever the number of instances: each tick
 * claims a due job in a short transaction (`FOR UPDATE SKIP LOCKED`, then a
 * lease in the row), runs it outside that transaction, and records the
 * outcome and the next run. A crashed instance's lease expires and another
 * takes the job; a run missed during downtime happens at the first tick.
 * Works the same on PGlite and a PostgreSQL server.
 */
export class Scheduler {
  readonly owner = randomUUID();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> = Promise.resolve();
  #stopped = false;

  constructor(
    private readonly db: Db,
    private readonly jobs: JobDef[] = defaultJobs(),
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Ticks every `intervalMs` until stopped. */
  start(intervalMs = 15_000): void {
    const loop = () => {
      if (this.#stopped) return;
      this.#running = this.tick()
        .catch(this.onError)
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
            WHERE name = $1 AND lease_owner = $2 AND $7::jsonb IS NOT NULL`,
          [job.name, this.owner, LEASE_MS],
        )
        .catch(this.onError);
    }, LEASE_MS / 3);
    let result: JobResult | null = null;
    let error: string | null = null;
    const t0 = performance.now();
    try {
      result = await job.run(this.db, started);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      this.onError(err);
    } finally {
      clearInterval(heartbeat);
    }
    const settings = await loadSettings(this.db);
    await this.db.query(
      `UPDATE job SET lease_until = NULL, lease_owner = NULL, last_finished_at = $3::timestamptz,
              last_duration_ms = $4, last_error = $5, last_result = $6, runs = runs + 1,
              failures = failures + CASE WHEN $5::text IS NULL THEN 0 ELSE 1 END,
              next_run_at = ${job.nextSql.replaceAll('$1', '$3').replaceAll('$2', '$7')}
        WHERE name = $1 AND lease_owner = $2 AND $7::jsonb IS NOT NULL`,
      [
        job.name,
        this.owner,
        now(),
        Math.round(performance.now() - t0),
        error,
        result && JSON.stringify(result),
        JSON.stringify(settings),
      ],
    );
    return true;
  }
}
