import {
  createCollectorKey,
  importCsv,
  ingestWmbusmeters,
  listCollectorKeys,
  listUnmatchedMeters,
  revokeCollectorKey,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { noteCollectorRequest } from '../services/collectors/heard.js';
import * as collectorKeys from '../services/ingest/collector-keys.js';
import * as csv from '../services/ingest/import-csv.js';
import { ingestTelegrams } from '../services/ingest/ingest-telegrams.js';
import { listUnmatched } from '../services/ingest/list-unmatched.js';
import { parseTelegramBody } from '../services/ingest/parse-body.js';
import { defineRoute } from './define.js';

/** Collector ingest, CSV import, the unmatched inbox and collector keys. */
export default async function ingestRoutes(app: FastifyInstance) {
  await app.register(bodiesAsText);
  await app.register(collectorKeyRoutes);
}

/** The ingest bodies arrive as text: the services parse them, telegram by telegram and line by line. */
async function bodiesAsText(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/json', 'application/x-ndjson', 'text/plain', 'text/csv'],
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );
  defineRoute(app, ingestWmbusmeters, async ({ body, db, request }) => {
    const items = await parseTelegramBody(body);
    const result = await ingestTelegrams(db, items);
    // The collector's health (docs/collectors.md): after the telegrams are stored, so it never delays them.
    await noteCollectorRequest(db, request.collector!.id, items);
    return result;
  });
  defineRoute(app, importCsv, ({ body, db }) => csv.importCsv(db, body));
  defineRoute(app, listUnmatchedMeters, ({ query, db }) => listUnmatched(db, query));
}

async function collectorKeyRoutes(app: FastifyInstance) {
  defineRoute(app, listCollectorKeys, ({ db }) => collectorKeys.listCollectorKeys(db));
  defineRoute(app, createCollectorKey, ({ caller, body, db }) =>
    db.transaction((tx) => collectorKeys.createCollectorKey(tx, body.name, caller.id, caller)),
  );
  defineRoute(app, revokeCollectorKey, ({ caller, params, db }) =>
    db.transaction((tx) => collectorKeys.revokeCollectorKey(tx, params.id, caller)),
  );
}
