import type { JobDef } from '../jobs/index.js';
import { checkCollectors } from './silence.js';

/**
 * The collector fleet's scheduled work (docs/collectors.md): silent collectors open, resumed ones resolve, their
 * anomaly; so do silent LoRaWAN connections (docs/lorawan.md, "A silent connection").
 */
export const collectorJobs: JobDef[] = [
  {
    name: 'collectors',
    run: async (db, now) => {
      const r = await checkCollectors(db, now);
      return {
        silent: r.silent,
        silentConnections: r.connections.silent,
        opened: r.opened + r.undecoded.opened + r.connections.opened,
        resolved: r.resolved + r.undecoded.resolved + r.connections.resolved,
        undecoded: r.undecoded.undecoded,
      };
    },
    nextSql: "$1::timestamptz + interval '1 minute'",
  },
];
