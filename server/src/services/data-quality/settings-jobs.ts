import type { DqSetting, Job } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest, notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import type { JobDef } from '../jobs/index.js';
import { JOB_ROW, requestJobRun, rescheduleFor } from '../jobs/on-demand.js';
import { checkSetting, type DqSettingKey } from '../settings.js';

const SETTING = `key AS "Key", value AS "Value", iso(updated_at) AS "UpdatedAt"`;

export async function listSettings(db: Queryable): Promise<DqSetting[]> {
  return (await db.query<DqSetting>(`SELECT ${SETTING} FROM dq_setting ORDER BY key`)).rows;
}

/**
 * Changes one setting after checking it (400 naming `value` with the reason); audited. The jobs
 * (of `jobs`) whose schedule reads it are rescheduled by their new schedule in the same transaction.
 */
export async function updateSetting(
  db: Db,
  caller: Caller,
  key: string,
  value: unknown,
  jobs: readonly JobDef[] = [],
): Promise<DqSetting> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<DqSetting>(`SELECT ${SETTING} FROM dq_setting WHERE key = $1 FOR UPDATE`, [key]);
    if (!rows[0]) throw notFound('settingNotFound', { key });
    // The row exists, so the key is one of the settings.
    const problem = checkSetting(key as DqSettingKey, value);
    if (problem) throw badRequest(problem.code, { key, ...problem.params }, 'value');
    const { rows: after } = await tx.query<DqSetting>(
      `UPDATE dq_setting SET value = $2::jsonb, updated_at = now(), updated_by = $3 WHERE key = $1 RETURNING ${SETTING}`,
      [key, JSON.stringify(value), caller.id],
    );
    await recordAudit(tx, {
      actor: caller,
      kind: 'dqSetting.update',
      entity: 'dqSetting',
      entityId: key,
      before: { Value: rows[0].Value },
      after: { Value: after[0]!.Value },
    });
    await rescheduleFor(tx, jobs, key);
    return after[0]!;
  });
}

/** A run's counts as stored (JSON); anything else (a text of an older version) is no counts. */
function counts(text: string | null): Record<string, number> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && Object.values(value).every((v) => typeof v === 'number'))
      return value as Record<string, number>;
  } catch {
    // not JSON
  }
  return null;
}

/** The scheduled jobs with their last run. */
export async function listJobs(db: Queryable): Promise<Job[]> {
  const { rows } = await db.query<Omit<Job, 'LastResult'> & { LastResult: string | null }>(
    `SELECT ${JOB_ROW} FROM job ORDER BY name`,
  );
  return rows.map((r) => ({ ...r, LastResult: counts(r.LastResult) }));
}

/** Runs a job now (services/jobs/on-demand.ts): 404 for no such job; audited. */
export async function runJobNow(db: Db, caller: Caller, jobs: readonly JobDef[], name: string): Promise<Job> {
  const row = await requestJobRun(db, caller, jobs, name);
  return { ...row, LastResult: counts(row.LastResult) };
}
