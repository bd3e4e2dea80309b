import type { JobDef } from '../jobs/index.js';
import { anonymiseExpired } from './anonymise.js';

/** Personal data's scheduled work (docs/personal-data.md): expired occupancies anonymised, once a day. */
export const personalDataJobs: JobDef[] = [
  {
    name: 'personal-data',
    run: (db, now) => anonymiseExpired(db, now),
    nextSql: "$1::timestamptz + interval '1 day'",
  },
];
