import type { JobDef } from '../jobs/index.js';
import { checkCollectors } from './silence.js';

/** The collector fleet's scheduled work (docs/collectors.md): silent collectors open, resumed ones resolve, their anomaly. */
export const collectorJobs: JobDef[] = [
  {
    name: 'collectors',
    run: async (db, now) => {
      const r = await checkCollectors(db, now);
      return {
        silent: r.silent,
        opened: r.opened + r.undecoded.opened,
        resolved: r.resolved + r.undecoded.resolved,
        undecoded: r.undecoded.undecoded,
      };
    },
    nextSql: "$1::timestamptz + interval '1 minute'",
  },
];
