import type { JobDef } from '../jobs/index.js';
import { ensurePartitions } from './partitions.js';

/** The month partitions of readings and telegrams for the coming months, daily (docs/scaling.md). */
export const partitionJobs: JobDef[] = [
  {
    name: 'partitions',
    run: async (db, now) => ({ partitions: await ensurePartitions(db, now) }),
    nextSql: "$1::timestamptz + interval '1 day'",
  },
];
