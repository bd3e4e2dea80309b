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
import * as health from '../services/collectors/health.js';
import { noteCollectorAlarm } from '../services/collectors/heard.js';
import * as collectorLocations from '../services/collectors/locations.js';
import * as meterKeys from '../services/collectors/meter-keys.js';
import { defineRoute } from './define.js';

/** The collector fleet (docs/collectors.md): meter keys, buildings per collector, its configuration, health. */
export default async function collectorRoutes(app: FastifyInstance) {
  await app.register(keyFiles);
  defineRoute(app, listCollectorHealth, ({ db }) => health.listCollectorHealth(db));
  defineRoute(app, listCollectorMeters, ({ params, db }) => health.listCollectorMeters(db, params.id));
  defineRoute(app, setCollectorLocations, ({ params, body, caller, db }) =>
    collectorLocations.setCollectorLocations(db, params.id, body.locationIds, caller),
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
    meterKeys.importMeterKeys(db, config.keyEncryptionKey, body, query.apply ?? false, caller),
  );
}
