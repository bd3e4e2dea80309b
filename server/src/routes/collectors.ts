import {
  getCollectorConfig,
  importMeterKeys,
  listCollectorHealth,
  listCollectorMeters,
  postCollectorAlarm,
  setCollectorLocations,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { collectorConfig } from '../services/collectors/config.js';
import { listCollectorHealth as health, listCollectorMeters as meters } from '../services/collectors/health.js';
import { noteCollectorAlarm } from '../services/collectors/heard.js';
import { setCollectorLocations as setLocations } from '../services/collectors/locations.js';
import { importMeterKeys as importKeys } from '../services/collectors/meter-keys.js';
import { defineRoute } from './define.js';

/** The collector fleet (docs/collectors.md): meter keys, buildings per collector, its configuration, health. */
export default async function collectorRoutes(app: FastifyInstance) {
  await app.register(keyFiles);
  defineRoute(app, listCollectorHealth, ({ db }) => health(db));
  defineRoute(app, listCollectorMeters, ({ params, db }) => meters(db, params.id));
  defineRoute(app, setCollectorLocations, ({ params, body, caller, db }) =>
    setLocations(db, params.id, body.locationIds, caller),
  );
  defineRoute(app, getCollectorConfig, ({ request, config, db }) => {
    const header = request.headers['x-collector-key'];
    const key =
      (typeof header === 'string' ? header.trim() : undefined) ||
      (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '').trim();
    const baseUrl = (config.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
    return collectorConfig(db, config.keyEncryptionKey, request.collector!, key, baseUrl);
  });
  defineRoute(app, postCollectorAlarm, async ({ request, query, db }) => {
    await noteCollectorAlarm(db, request.collector!.id, query.type, query.message ?? '');
    return { message: 'stored' };
  });
}

/** Key files arrive as text (their own parser: the rest of the API reads JSON). */
async function keyFiles(app: FastifyInstance) {
  app.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  defineRoute(app, importMeterKeys, ({ query, body, caller, config, db }) =>
    importKeys(db, config.keyEncryptionKey, body, query.apply ?? false, caller),
  );
}
