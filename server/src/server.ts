import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Db } from './db/db.js';
import { openDb } from './db/open.js';
import { DataDirLockedError } from './db/pglite.js';
import { ConfigError, loadConfig } from './env.js';

/** Starts the product: configuration, database (migrated; demo data on a first embedded start), HTTP. */
async function main() {
  // Settings may come from a .env file in the working folder (see .env.example).
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const started = Date.now();
  const db: Db = await openDb(config);
  const app: FastifyInstance = await buildApp({ config, db, logger: { level: config.logLevel } });
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const where = config.databaseUrl ? 'PostgreSQL server' : `embedded PostgreSQL in ${config.dataDir}`;
  console.log(
    `\nRodmenys is running at http://${host}:${port}/  (API docs: /api/docs; database: ${where}; ready in ${Date.now() - started} ms)\n`,
  );
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(`Rodmenys cannot start: ${err.message}`);
  } else {
    console.error('Rodmenys failed to start:', err);
  }
  process.exit(1);
});
