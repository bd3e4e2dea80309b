import { getHealth, getReady } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/db.js';
import { RETRY_AFTER_SECONDS } from '../db/unavailable.js';
import { HttpError } from '../errors.js';
import { defineRoute } from './define.js';

/** How long /api/ready waits for a database before it says no. */
const PING_MS = 3000;

/** Resolves when `db` answers within PING_MS, else rejects. */
async function ping(db: Db): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), PING_MS);
  });
  try {
    await Promise.race([db.query('SELECT 1'), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const unavailable = () =>
  new HttpError(503, 'databaseUnavailable', {}, undefined, { 'retry-after': String(RETRY_AFTER_SECONDS) });

/** Liveness and readiness for systemd, HAProxy and orchestrators (docs/operations.md). */
export default async function healthRoutes(app: FastifyInstance) {
  defineRoute(app, getHealth, async () => ({ Status: 'ok' as const }));
  defineRoute(app, getReady, async () => {
    const standby = app.reads.standby;
    try {
      await Promise.all([ping(app.db), standby ? ping(standby) : undefined]);
    } catch {
      throw unavailable();
    }
    return { Status: 'ok' as const, Database: 'ok' as const, Standby: standby ? ('ok' as const) : ('none' as const) };
  });
}
