import { GROUP, listJobs, runJob, updateDqSetting } from '@rodmenys/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { JOBS } from '../jobs.js';
import { Scheduler } from '../services/jobs/index.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeSignedIn } from '../test/factories.js';

const MINUTE = 60_000;

describe(`POST /api/data-quality/jobs/:name/run and rescheduling (${dbKind()})`, () => {
  const t = useApp();
  const nextRun = async (name: string) =>
    new Date(
      (await t.db.query<{ t: string }>('SELECT iso(next_run_at) AS t FROM job WHERE name = $1', [name])).rows[0]!.t,
    ).getTime();

  beforeEach(async () => {
    // Every job registered, none due for a day.
    await t.db.query('INSERT INTO job (name) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [
      JOBS.map((j) => j.name),
    ]);
    await t.db.query("UPDATE job SET next_run_at = now() + interval '1 day', lease_until = NULL, lease_owner = NULL");
  });

  it('runs each job on demand for group 1: due at once, one run by the scheduler, its result listed, audited', async () => {
    const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    const scheduler = new Scheduler(t.db, JOBS);
    expect(await scheduler.tick()).toEqual([]);
    for (const name of ['validate', 'collectors', 'digest']) {
      const before = Date.now();
      const res = await inject(t.app, runJob, { token: operator.token, params: { name } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.Name).toBe(name);
      expect(new Date(res.body.NextRunAt).getTime()).toBeLessThanOrEqual(Date.now());
      expect(new Date(res.body.NextRunAt).getTime()).toBeGreaterThan(before - MINUTE);
      // The next tick runs it, and only it; the list shows the run.
      expect(await scheduler.tick()).toEqual([name]);
      const listed = (await inject(t.app, listJobs, { token: operator.token })).body.find((j) => j.Name === name)!;
      expect(listed).toMatchObject({ Runs: 1, Failures: 0, LastError: null, Running: false });
      expect(listed.LastDurationMs).toBeGreaterThanOrEqual(0);
      expect(listed.LastResult).not.toBeNull();
      expect(await nextRun(name)).toBeGreaterThan(Date.now());
    }
    const { rows } = await t.db.query<{ entity_id: string; actor_id: number }>(
      "SELECT entity_id, actor_id FROM audit_log WHERE kind = 'job.run' ORDER BY id",
    );
    expect(rows).toEqual(['validate', 'collectors', 'digest'].map((n) => ({ entity_id: n, actor_id: operator.id })));
  });

  it('refuses an unknown job (404) and anyone but group 1', async () => {
    const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    const missing = await inject(t.app, runJob, { token: operator.token, params: { name: 'validat' } });
    expect(missing.status).toBe(404);
    expect(missing.error.code).toBe('jobNotFound');
    const admin = await makeSignedIn(t.app, { groupId: GROUP.admin });
    expect((await inject(t.app, runJob, { token: admin.token, params: { name: 'validate' } })).status).toBe(403);
    expect((await inject(t.app, runJob, { params: { name: 'validate' } })).status).toBe(401);
    expect(await nextRun('validate')).toBeGreaterThan(Date.now() + 23 * 60 * MINUTE);
  });

  it("changing a job's schedule setting reschedules it by the new schedule", async () => {
    const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    const set = async (key: string, value: number) => {
      const res = await inject(t.app, updateDqSetting, { token: operator.token, params: { key }, body: { value } });
      expect(res.status, res.text).toBe(200);
    };
    const before = Date.now();
    await set('schedule.validateMinutes', 5);
    const validate = await nextRun('validate');
    expect(validate).toBeGreaterThanOrEqual(before + 5 * MINUTE - 2000);
    expect(validate).toBeLessThanOrEqual(Date.now() + 5 * MINUTE + 2000);
    // The digest's hour: the next such hour in the provider's zone, within a day.
    const hour = (new Date().getUTCHours() + 3) % 24;
    await set('schedule.digestHour', hour);
    const digest = await nextRun('digest');
    expect(digest).toBeGreaterThan(Date.now());
    expect(digest).toBeLessThanOrEqual(Date.now() + 24 * 60 * MINUTE);
    const { rows } = await t.db.query<{ h: number }>(
      "SELECT extract(hour FROM next_run_at AT TIME ZONE current_setting('TimeZone'))::int AS h FROM job WHERE name = 'digest'",
    );
    expect(rows[0]!.h).toBe(hour);
    // A setting no schedule reads moves nothing.
    const month = await nextRun('month-ends');
    await set('window.days', 30);
    expect(await nextRun('month-ends')).toBe(month);
  });
});
