import {
  createLnsConnection,
  createLorawanMapping,
  deleteLnsConnection,
  deleteLorawanMapping,
  getLnsConnection,
  getLnsConnectionHealth,
  getLorawanDeviceHealth,
  ingestChirpstack,
  ingestTtsEvents,
  ingestTtsJoin,
  ingestTtsUplink,
  listLnsConnections,
  listLorawanDecoders,
  listLorawanDevices,
  listLorawanMappings,
  listLorawanUnmatched,
  rotateLnsConnectionKey,
  updateLnsConnection,
  updateLorawanMapping,
} from '@rodmenys/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../errors.js';
import { chirpstackEventName, readChirpstack } from '../services/lorawan/chirpstack.js';
import * as connections from '../services/lorawan/connections.js';
import { DECODERS } from '../services/lorawan/decoding.js';
import * as health from '../services/lorawan/health.js';
import { ingestLnsEvent } from '../services/lorawan/ingest.js';
import * as mappings from '../services/lorawan/mappings.js';
import { readTts } from '../services/lorawan/tts.js';
import { writeIntoMonths } from '../services/partitions/partitions.js';
import { defineRoute } from './define.js';

/** LoRaWAN (docs/lorawan.md): the LNS endpoints, connections, health, mappings. */
export default async function lorawanRoutes(app: FastifyInstance) {
  await app.register(lnsEndpoints);
  await app.register(operatorEndpoints);
}

/** The LNS's connection, of the kind this endpoint is for (403 for a key of the other kind). */
function connectionOf(request: FastifyRequest, kind: 'chirpstack' | 'tts') {
  const c = request.lns!;
  if (c.kind !== kind) throw forbidden('lnsKindMismatch', { kind: c.kind });
  return c;
}

/** The bodies arrive raw: JSON as text (parsed with a depth limit), Protobuf as bytes. */
async function lnsEndpoints(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json'], { parseAs: 'string' }, (_r, body, done) => done(null, body));
  app.addContentTypeParser(
    ['application/octet-stream', 'application/protobuf', 'application/x-protobuf'],
    { parseAs: 'buffer' },
    (_r, body, done) => done(null, body),
  );
  // One event per request, answered in about 100 bytes (below the compression threshold): the
  // compression hook would only parse Accept-Encoding on every request (docs/lorawan.md, "Throughput").
  const uncompressed = { compress: false } as const;
  defineRoute(
    app,
    ingestChirpstack,
    async ({ db, query, request }) => {
      const connection = connectionOf(request, 'chirpstack');
      const event = chirpstackEventName(query.event);
      const body = request.body as string | Buffer | undefined;
      return ingestLnsEvent(db, connection, readChirpstack(event, body ?? ''));
    },
    uncompressed,
  );
  const tts = (endpoint: typeof ingestTtsUplink | typeof ingestTtsJoin | typeof ingestTtsEvents) =>
    defineRoute(
      app,
      endpoint,
      async ({ db, request }) => {
        const connection = connectionOf(request, 'tts');
        return ingestLnsEvent(db, connection, readTts((request.body as string | undefined) ?? ''));
      },
      uncompressed,
    );
  tts(ingestTtsUplink);
  tts(ingestTtsJoin);
  tts(ingestTtsEvents);
}

/** Returns `result` after forgetting the connection's remembered keys (connections.ts, KEY_CACHE_MS). */
function forgettingKeys<T>(id: number, result: T): T {
  connections.forgetConnectionKeys(id);
  return result;
}

async function operatorEndpoints(app: FastifyInstance) {
  defineRoute(app, listLnsConnections, ({ db }) => connections.listConnections(db));
  defineRoute(app, createLnsConnection, ({ db, body, caller }) =>
    db.transaction((tx) => connections.createConnection(tx, body, caller)),
  );
  defineRoute(app, getLnsConnection, ({ db, params }) => connections.getConnection(db, params.id));
  defineRoute(app, updateLnsConnection, ({ db, params, body, caller }) =>
    writeIntoMonths(db, () => db.transaction((tx) => connections.updateConnection(tx, params.id, body, caller))),
  );
  // The old key stops at once in this process: its remembered lookup is forgotten after the commit.
  defineRoute(app, deleteLnsConnection, async ({ db, params, caller }) =>
    forgettingKeys(params.id, await db.transaction((tx) => connections.deleteConnection(tx, params.id, caller))),
  );
  defineRoute(app, rotateLnsConnectionKey, async ({ db, params, caller }) =>
    forgettingKeys(params.id, await db.transaction((tx) => connections.rotateConnectionKey(tx, params.id, caller))),
  );
  defineRoute(app, getLnsConnectionHealth, ({ db, params }) => health.connectionHealth(db, params.id, new Date()));
  defineRoute(app, getLorawanDeviceHealth, ({ db, params }) => health.deviceHealth(db, params.id, new Date()));
  defineRoute(app, listLorawanDevices, ({ db, query }) => health.listDevices(db, query, new Date()));
  defineRoute(app, listLorawanUnmatched, ({ db, query }) => health.listUnmatched(db, query));
  defineRoute(app, listLorawanDecoders, async () => [...DECODERS.list]);
  defineRoute(app, listLorawanMappings, ({ db }) => mappings.listMappings(db));
  defineRoute(app, createLorawanMapping, ({ db, body, caller }) =>
    db.transaction((tx) => mappings.createMapping(tx, body, caller)),
  );
  defineRoute(app, updateLorawanMapping, ({ db, params, body, caller }) =>
    db.transaction((tx) => mappings.updateMapping(tx, params.id, body, caller)),
  );
  defineRoute(app, deleteLorawanMapping, ({ db, params, caller }) =>
    db.transaction((tx) => mappings.deleteMapping(tx, params.id, caller)),
  );
}
