import type { JobDef } from '../jobs/index.js';
import { sendDigests } from './digest.js';
import { checkHeatBalance } from './heat-unbalanced.js';
import { refreshMonthEnds } from './refresh-month-ends.js';
import { validate } from './validate.js';

/** A data-quality setting (dq_setting) as SQL, for a job's next run. */
const setting = (key: string) => `(SELECT (value #>> '{}')::int FROM dq_setting WHERE key = '${key}')`;

/**
 * The data-quality work (docs/data-quality.md), run by services/jobs: the queued month-end
 * values and the incremental rules every minute; new months, catch-up and the full
 * validation every `schedule.validateMinutes`; the digest daily at `schedule.digestHour`.
 */
export const dataQualityJobs: JobDef[] = [
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
      // The buildings whose month does not balance by their heat method (docs/heat-method.md).
      const h = await checkHeatBalance(db, now);
      return {
        monthEnds: r.written,
        found: v.found + h.found,
        opened: v.opened + h.opened,
        resolved: v.resolved + h.resolved,
      };
    },
    nextSql: `$1::timestamptz + make_interval(mins => ${setting('schedule.validateMinutes')})`,
    settings: ['schedule.validateMinutes'],
  },
  {
    name: 'digest',
    // Without SMTP_URL nothing is sent; the list says so (`mailNotConfigured`).
    run: async (db, now, { mailer }) => (mailer ? sendDigests(db, mailer, now) : { mailNotConfigured: 1 }),
    // The next digest hour in the provider's zone (wall time, DST included).
    nextSql: `CASE WHEN ($1::timestamptz::date::timestamp + make_interval(hours => ${setting('schedule.digestHour')}))::timestamptz > $1::timestamptz
                   THEN ($1::timestamptz::date::timestamp + make_interval(hours => ${setting('schedule.digestHour')}))::timestamptz
                   ELSE (($1::timestamptz::date + 1)::timestamp + make_interval(hours => ${setting('schedule.digestHour')}))::timestamptz END`,
    settings: ['schedule.digestHour'],
  },
];
