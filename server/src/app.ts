import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Db } from './db/db.js';
import type { Config } from './env.js';
import auth from './plugins/auth.js';
import docs from './plugins/docs.js';
import errors from './plugins/errors.js';
import web from './plugins/web.js';
import dataQualityRoutes from './routes/data-quality.js';
import devicesRoutes from './routes/devices.js';
import ingestRoutes from './routes/ingest.js';
import locationDataRoutes from './routes/location-data.js';
import masterDataRoutes from './routes/master-data.js';
import usersRoutes from './routes/users.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
  }
}

export interface AppOptions {
  config: Config;
  db: Db;
  /** Pino logger options; false in tests. */
  logger?: boolean | object;
}

/** Builds the app: cross-cutting plugins first (errors, auth, docs, limits), then the /api routes, then the web app. */
export async function buildApp({ config, db, logger = false }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // Readings ingest sends large batches; everything else is small.
    bodyLimit: 50 * 1024 * 1024,
    trustProxy: process.env.TRUST_PROXY === 'true',
    ajv: { customOptions: { allErrors: true } },
  });
  app.decorate('db', db);
  app.decorate('config', config);
  await app.register(errors);
  await app.register(auth);
  await app.register(rateLimit, { global: false });
  await app.register(docs);
  await app.register(
    async (api) => {
      await api.register(usersRoutes);
      await api.register(devicesRoutes);
      await api.register(locationDataRoutes);
      await api.register(ingestRoutes);
      await api.register(masterDataRoutes);
      await api.register(dataQualityRoutes);
    },
    { prefix: '/api' },
  );
  await app.register(web, { dir: config.webDir });
  return app;
}
