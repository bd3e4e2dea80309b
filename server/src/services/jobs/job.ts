import type { Db } from '../../db/db.js';
import type { Mailer } from '../mail/index.js';
import type { OutgoingPolicy } from '../outgoing.js';

/**
 * What a run did, as counts by name (`devices`, `monthEnds`, `found`, `opened`, …): the job list
 * shows each by its translated name (`anomalies.jobs.results.<name>` in web/src/i18n). docs/data-quality.md.
 */
export type JobResult = Record<string, number>;

/** What the runner hands every job besides the database: the mailer when SMTP_URL is set, where outgoing calls may go. */
export interface JobContext {
  mailer: Mailer | undefined;
  /** OUTGOING_ALLOWED_NETWORKS (services/outgoing.ts); absent: no internal network. */
  outgoing?: OutgoingPolicy | undefined;
}

/**
 * A scheduled job, declared by the feature that owns the work (docs/ARCHITECTURE.md, "Jobs and
 * mail") and listed in server/src/jobs.ts. Its row in the `job` table is created by the runner.
 */
export interface JobDef {
  /** Unique; the job list shows it and `anomalies.jobs.names.<name>` (web/src/i18n) translates it; each result count `anomalies.jobs.results.<key>`. */
  name: string;
  /** The work; may take minutes (the runner holds a lease meanwhile). Throwing records the error. */
  run: (db: Db, now: Date, ctx: JobContext) => Promise<JobResult>;
  /**
   * A SQL expression for the next run after `$1` (timestamptz: the end of this run); it may read
   * the feature's own settings with a subquery.
   */
  nextSql: string;
  /** The `dq_setting` keys `nextSql` reads: changing one reschedules the job (services/jobs/on-demand.ts). */
  settings?: readonly string[];
}
