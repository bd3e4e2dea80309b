import type { Job } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import type { JobDef } from './job.js';

/** A job row as the job list shows it (GET /api/data-quality/jobs). */
export const JOB_ROW = `name AS "Name", iso(next_run_at) AS "NextRunAt", coalesce(lease_until > now(), false) AS "Running",
            iso(last_started_at) AS "LastStartedAt", iso(last_finished_at) AS "LastFinishedAt",
            last_duration_ms AS "LastDurationMs", last_error AS "LastError", last_result AS "LastResult",
            runs AS "Runs", failures AS "Failures"`;

/**
 * Runs a job now (docs/data-quality.md, "Scheduled work"): it becomes due at once, so the
 * scheduler of whichever instance ticks first claims it as any due job (one run, a lease, the
 * outcome in its row); a running job runs again when it ends. 404 for a name that is no job.
 * Audited (`job.run`). Returns the job's row as it is now.
 */
export async function requestJobRun(
  db: Db,
  caller: Caller,
  jobs: readonly JobDef[],
  name: string,
): Promise<Omit<Job, 'LastResult'> & { LastResult: string | null }> {
  if (!jobs.some((j) => j.name === name)) throw notFound('jobNotFound', { name });
  return db.transaction(async (tx) => {
    // A job no scheduler has registered yet gets its row here, due at once as a new job is.
    const { rows } = await tx.query<Omit<Job, 'LastResult'> & { LastResult: string | null }>(
      `INSERT INTO job AS j (name, next_run_at) VALUES ($1, now())
       ON CONFLICT (name) DO UPDATE SET next_run_at = least(j.next_run_at, now())
       RETURNING ${JOB_ROW}`,
      [name],
    );
    await recordAudit(tx, {
      actor: caller,
      kind: 'job.run',
      entity: 'job',
      entityId: name,
      before: null,
      after: { Job: name },
    });
    return rows[0]!;
  });
}

/**
 * After a setting changed (in its transaction): every job whose schedule reads it (JobDef.settings)
 * is due next when its new schedule says, counted from now, instead of when the old one said.
 */
export async function rescheduleFor(
  tx: Queryable,
  jobs: readonly JobDef[],
  key: string,
  now = new Date(),
): Promise<string[]> {
  const moved: string[] = [];
  for (const job of jobs) {
    if (!job.settings?.includes(key)) continue;
    await tx.query(`UPDATE job SET next_run_at = (${job.nextSql})::timestamptz WHERE name = $2`, [now, job.name]);
    moved.push(job.name);
  }
  return moved;
}
