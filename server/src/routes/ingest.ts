import {
  createCollectorKey,
  Group,
  importCsv,
  ingestWmbusmeters,
  listCollectorKeys,
  listUnmatchedMeters,
  revokeCollectorKey,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { forbidden } from '../errors.js';
import type { Caller } from '../services/auth/caller.js';
import {
  createCollectorKey as create,
  listCollectorKeys as list,
  revokeCollectorKey as revoke,
} from '../services/ingest/collector-keys.js';
import { importCsv as importCsvText } from '../services/ingest/import-csv.js';
import { adoptMatchedMeters, ingestTelegrams } from '../services/ingest/ingest-telegrams.js';
import { listUnmatched } from '../services/ingest/list-unmatched.js';
import { parseTelegramBody } from '../services/ingest/parse-body.js';
import { defineRoute } from './define.js';

function requireOperator(caller: Caller): void {
  if (caller.groupId !== Group.Operator) throw forbidden('Only the provider’s operators (group 1) may do this');
}

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
  defineRoute(app, ingestWmbusmeters, ({ body, db }) => ingestTelegrams(db, parseTelegramBody(body)));
  defineRoute(app, importCsv, ({ caller, body, db }) => {
    requireOperator(caller);
    return importCsvText(db, body);
  });
  defineRoute(app, listUnmatchedMeters, async ({ caller, query, db }) => {
    requireOperator(caller);
    await adoptMatchedMeters(db);
    return listUnmatched(db, query);
  });
}

async function collectorKeyRoutes(app: FastifyInstance) {
  defineRoute(app, listCollectorKeys, async ({ caller, db }) => {
    requireOperator(caller);
    return list(db);
  });
  defineRoute(app, createCollectorKey, async ({ caller, body, db }) => {
    requireOperator(caller);
    return db.transaction((tx) => create(tx, body.name, caller.id, caller));
  });
  defineRoute(app, revokeCollectorKey, async ({ caller, params, db }) => {
    requireOperator(caller);
    return db.transaction((tx) => revoke(tx, params.id, caller));
  });
}
