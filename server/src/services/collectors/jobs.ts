import type { JobDef } from '../jobs/index.js';
import { checkCollectors } from './silence.js';

/** The collector fleet's scheduled work (docs/collectors.md): silent collectors open, resumed ones resolve, their anomaly. */
export const collectorJobs: JobDef[] = [
  {
    name: 'collectors',
    run: async (db, now) => {
      const r = await checkCollectors(db, now);
      return { silent: r.silent, opened: r.opened, resolved: r.resolved };
    },
    nextSql: "$1::timestamptz + interval '1 minute'",
  },
];
