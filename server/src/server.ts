import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { serveBackups } from './db/backup.js';
import type { Db } from './db/db.js';
import { openDb } from './db/open.js';
import { DataDirLockedError, type PgliteDb } from './db/pglite.js';
import { openPostgres } from './db/postgres.js';
import { isDatabaseUnavailable } from './db/unavailable.js';
import { isDemoDatabase } from './demo/cases.js';
import { formatDemoAccounts, formatDemoSummary, seedDemo } from './demo/generate.js';
import { topUpDemo } from './demo/top-up.js';
import { type Config, ConfigError, loadConfig } from './env.js';
import { JOBS } from './jobs.js';
import { Scheduler } from './services/jobs/index.js';
import { createMailer } from './services/mail/index.js';

/** Starts the product: configuration, database (migrated; demo data on a first embedded start), HTTP. */
async function main() {
  // Settings may come from a .env file in the working folder (see .env.example).
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const started = Date.now();
  const db: Db = await openDb(config);
  // A streaming standby answers read-only work when configured (docs/scaling.md); never migrated: it follows.
  const readDb = config.databaseReadUrl ? openPostgres(config.databaseReadUrl, config.timeZone) : undefined;
  const demo = await prepareDemo(db, config);
  const app: FastifyInstance = await buildApp({ config, db, readDb, logger: { level: config.logLevel } });
  // Scheduled work (server/src/jobs.ts): once per schedule across every instance; mail when SMTP_URL is set.
  const scheduler = config.scheduler
    ? new Scheduler(db, JOBS, {
        mailer: createMailer(config),
        outgoing: { allowedNetworks: config.outgoingAllowedNetworks ?? [] },
        onError: (err) =>
          isDatabaseUnavailable(err)
            ? app.log.warn({ reason: (err as Error).message }, 'scheduled work waits for the database')
            : app.log.error({ err }, 'scheduled work failed'),
      })
    : undefined;
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    await scheduler?.stop();
    await stopBackups?.();
    await app.close();
    await readDb?.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  scheduler?.start();
  // `npm run db:backup` asks the running server for a backup of the embedded database (docs/operations.md).
  const stopBackups =
    db.kind === 'pglite'
      ? await serveBackups(db as PgliteDb, config.dataDir, (err) => app.log.error({ err }, 'backup failed')).catch(
          (err: Error) => {
            app.log.warn(`npm run db:backup cannot reach this server (${err.message}); it refuses while it runs`);
            return undefined;
          },
        )
      : undefined;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const where = config.databaseUrl ? 'PostgreSQL server' : `embedded PostgreSQL in ${config.dataDir}`;
  if (demo) console.log(`\n${demo}`);
  console.log(
    `\nRodmenys is running at http://${host}:${port}/  (API docs: /api/docs; database: ${where}; ready in ${Date.now() - started} ms)\n`,
  );
}

/**
 * The embedded database is seeded with demo data on its first start (a PostgreSQL
 * server only by `npm run db:seed`); a demo database gets readings up to now on
 * every start. Returns the text that names the demo accounts, if any.
 */
async function prepareDemo(db: Db, config: Config): Promise<string | undefined> {
  if (!config.databaseUrl && config.demoSize !== 'none') {
    const { rows } = await db.query<{ empty: boolean }>(
      'SELECT NOT EXISTS (SELECT 1 FROM location) AND NOT EXISTS (SELECT 1 FROM app_user) AS empty',
    );
    if (rows[0]!.empty) {
      console.log(`First start: creating demo data (${config.demoSize})…`);
      return formatDemoSummary(await seedDemo(db, { size: config.demoSize }));
    }
  }
  if (!(await isDemoDatabase(db))) return undefined;
  const added = await topUpDemo(db);
  return `Demo database${added ? ` (${added} new readings up to now)` : ''}.
${formatDemoAccounts()}`;
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(`Rodmenys cannot start: ${err.message}`);
  } else {
    console.error('Rodmenys failed to start:', err);
  }
  process.exit(1);
});
