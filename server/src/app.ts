import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import {
  CALENDAR_DAY_FORMAT,
  DEFAULT_BODY_BYTES,
  isCalendarDay,
  jsonDepthExceeded,
  MAX_JSON_DEPTH,
  MAX_PATH_PARAM_CHARS,
} from '@rodmenys/contract';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Db } from './db/db.js';
import { type ReadRouting, readRouting } from './db/read-routing.js';
import type { Config } from './env.js';
import { badRequest } from './errors.js';
import auth from './plugins/auth.js';
import docs from './plugins/docs.js';
import errors from './plugins/errors.js';
import { clientErrorHandler, frameworkErrors } from './plugins/framework-errors.js';
import headers from './plugins/headers.js';
import requestLog from './plugins/request-log.js';
import web from './plugins/web.js';
import campaignRoutes from './routes/campaigns.js';
import collectorRoutes from './routes/collectors.js';
import dataQualityRoutes from './routes/data-quality.js';
import declarationRoutes from './routes/declarations.js';
import declarationsOfficeRoutes from './routes/declarations-office.js';
import deliveryRoutes from './routes/deliveries.js';
import devicesRoutes from './routes/devices.js';
import healthRoutes from './routes/health.js';
import heatMethodRoutes from './routes/heat-methods.js';
import ingestRoutes from './routes/ingest.js';
import integrationRoutes from './routes/integrations.js';
import lifetimeRoutes from './routes/lifetime.js';
import locationDataRoutes from './routes/location-data.js';
import lorawanRoutes from './routes/lorawan.js';
import masterDataRoutes from './routes/master-data.js';
import occupancyRoutes from './routes/occupancies.js';
import occupantRoutes from './routes/occupant.js';
import statementRoutes from './routes/statements.js';
import usersRoutes from './routes/users.js';
import { DevicesDataCaches } from './services/devices/devices-data/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /** Where read-only work goes: a streaming standby when one is configured (db/read-routing.ts). */
    reads: ReadRouting;
    /** What GetDevicesData keeps between requests: plans and device texts (services/devices/devices-data/). */
    devicesDataCaches: DevicesDataCaches;
  }
}

export interface AppOptions {
  config: Config;
  db: Db;
  /** A streaming standby of `db` for read-only work (DATABASE_READ_URL). */
  readDb?: Db;
  /** GetDevicesData's caches (default: new ones for this app). */
  devicesDataCaches?: DevicesDataCaches;
  /** Pino logger options; false in tests. */
  logger?: boolean | object;
}

/** Builds the app: cross-cutting plugins first (errors, compression, auth, docs, limits), then the /api routes, then the web app. */
export async function buildApp({
  config,
  db,
  readDb,
  devicesDataCaches = new DevicesDataCaches(),
  logger = false,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // One line per request, without the URL's values: plugins/request-log.ts.
    logController: new LogController({ disableRequestLogging: true }),
    // Each route sets its own limit from the contract (routes/define.ts); this is for the rest.
    bodyLimit: DEFAULT_BODY_BYTES,
    trustProxy: config.trustProxy,
    // What Fastify answers before a route runs, in the contract's error shape too (plugins/framework-errors.ts).
    routerOptions: { maxParamLength: MAX_PATH_PARAM_CHARS },
    frameworkErrors,
    clientErrorHandler,
    // The contract's own formats (contract/src/common.ts): a calendar day.
    ajv: { customOptions: { allErrors: true, formats: { [CALENDAR_DAY_FORMAT]: isCalendarDay } } },
    serializerOpts: { ajv: { formats: { [CALENDAR_DAY_FORMAT]: isCalendarDay } } },
  });
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('reads', readRouting(db, readDb));
  // Caches live with the app that owns them: each app (and each test's) starts empty.
  app.decorate('devicesDataCaches', devicesDataCaches);
  // Every JSON body: its depth is checked in one linear pass before it is parsed.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (jsonDepthExceeded(text) !== -1) {
      done(badRequest('nestedTooDeep', { max: String(MAX_JSON_DEPTH) }, 'body'), undefined);
      return;
    }
    parseJson(request, text, done);
  });
  await app.register(errors);
  await app.register(headers);
  await app.register(requestLog);
  // Answers over 1 KB go out compressed when the client accepts it: gzip first (faster than brotli
  // for large answers), brotli (quality 4) for a client that asks only for it (docs/benchmarks.md,
  // "Compression"). Request bodies are not decompressed (the size limits stay literal).
  await app.register(compress, { encodings: ['gzip', 'br'], threshold: 1024, globalDecompression: false });
  await app.register(auth);
  await app.register(rateLimit, { global: false });
  await app.register(docs);
  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(usersRoutes);
      await api.register(devicesRoutes);
      await api.register(locationDataRoutes);
      await api.register(ingestRoutes);
      await api.register(collectorRoutes);
      await api.register(lorawanRoutes);
      await api.register(masterDataRoutes);
      await api.register(occupancyRoutes);
      await api.register(occupantRoutes);
      await api.register(declarationRoutes);
      await api.register(dataQualityRoutes);
      await api.register(statementRoutes);
      await api.register(heatMethodRoutes);
      await api.register(integrationRoutes);
      await api.register(deliveryRoutes);
      await api.register(lifetimeRoutes);
      await api.register(declarationsOfficeRoutes);
      await api.register(campaignRoutes);
    },
    { prefix: '/api' },
  );
  await app.register(web, { dir: config.webDir });
  return app;
}
