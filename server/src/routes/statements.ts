import {
  getFlatStatement,
  getStatementDifference,
  getStatementFigures,
  getStatementNotification,
  getStatementsPdf,
  listStatementDeliveries,
  publishStatements,
  updateStatementNotification,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.js';
import { PUBLICATION_FOLLOWERS } from '../publication.js';
import { parseIdList } from '../services/id-list.js';
import { statementDifference } from '../services/statements/difference.js';
import { statementFigures } from '../services/statements/figures-answer.js';
import { getNotification, listDeliveries, updateNotification } from '../services/statements/notify.js';
import { statementsPdf } from '../services/statements/pdf.js';
import * as publishing from '../services/statements/publish.js';
import { statementFiguresJson } from '../services/statements/rows-json.js';
import { flatStatement } from '../services/statements/snapshots.js';
import { scopeFor } from '../services/users/account-scope.js';
import { defineRoute } from './define.js';

/** Monthly statements per flat: figures, a flat's statement, PDF, publishing, notification (docs/statements.md). */
export default async function statementRoutes(app: FastifyInstance) {
  defineRoute(app, getStatementFigures, async ({ caller, query, db }) => {
    const { rows, occupancies } = await statementFigures(db, query.month, {
      scope: await scopeFor(db, caller, query.userId),
      parents: parseIdList(query.locationParentId),
    });
    return statementFiguresJson(query.month, rows, occupancies);
  });
  defineRoute(app, getFlatStatement, ({ caller, params, query, db }) =>
    flatStatement(db, query.month, params.flatId, caller.scope),
  );
  defineRoute(app, getStatementsPdf, async ({ caller, query, db, reply }) => {
    const file = await statementsPdf(db, {
      month: query.month,
      scope: await scopeFor(db, caller, query.userId),
      parents: parseIdList(query.locationParentId),
      lang: query.lang ?? 'lt',
    });
    if (!file) throw notFound('flatNotFound');
    return reply
      .header('content-type', file.kind === 'pdf' ? 'application/pdf' : 'application/zip')
      .header('content-disposition', `attachment; filename="${file.name}"`)
      .send(file.stream);
  });
  defineRoute(app, publishStatements, ({ caller, body, db }) =>
    publishing.publishStatements(
      db,
      caller,
      body.month,
      body.locationIds?.length ? body.locationIds : null,
      body.force ?? false,
      PUBLICATION_FOLLOWERS,
    ),
  );
  defineRoute(app, getStatementDifference, ({ caller, query, db }) =>
    statementDifference(db, query.month, { scope: caller.scope, parents: parseIdList(query.locationParentId) }),
  );
  defineRoute(app, listStatementDeliveries, async ({ query, db, config }) => ({
    MailConfigured: Boolean(config.smtpUrl),
    Deliveries: await listDeliveries(db, query.month),
  }));
  defineRoute(app, getStatementNotification, ({ caller, db, config }) =>
    getNotification(db, caller, Boolean(config.smtpUrl)),
  );
  defineRoute(app, updateStatementNotification, ({ caller, body, db, config }) =>
    updateNotification(db, caller, body, Boolean(config.smtpUrl)),
  );
}
