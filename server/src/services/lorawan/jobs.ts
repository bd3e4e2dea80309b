import type { JobDef } from '../jobs/index.js';

/** Days uplinks are kept (their readings stay with all readings), and days other LNS events are kept. */
export const UPLINK_KEEP_DAYS = 400;
export const EVENT_KEEP_DAYS = 8;

/** LoRaWAN's scheduled work (docs/lorawan.md): old uplinks and events deleted, once a day. */
export const lorawanJobs: JobDef[] = [
  {
    name: 'lorawan',
    run: async (db, now) => {
      const { rowCount: uplinks } = await db.query(
        'DELETE FROM lorawan_uplink WHERE received_at < $1::timestamptz - make_interval(days => $2)',
        [now, UPLINK_KEEP_DAYS],
      );
      const { rowCount: events } = await db.query(
        'DELETE FROM lns_event WHERE at < $1::timestamptz - make_interval(days => $2)',
        [now, EVENT_KEEP_DAYS],
      );
      return { uplinks, events };
    },
    nextSql: "$1::timestamptz + interval '1 day'",
  },
];
