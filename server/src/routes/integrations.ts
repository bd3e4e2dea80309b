import {
  createBillingReceiver,
  createIntegrationKey,
  disableBillingReceiver,
  getBillingExport,
  getBillingExportFile,
  listBillingDeliveries,
  listBillingReceivers,
  listIntegrationKeys,
  revokeIntegrationKey,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/db.js';
import type { Caller } from '../services/auth/caller.js';
import {
  billingCsv,
  billingJson,
  billingXlsx,
  type ExportRequest,
  exportBuildings,
} from '../services/billing/export.js';
import * as integrationKeys from '../services/billing/integration-keys.js';
import * as receivers from '../services/billing/receivers.js';
import { parseIdList } from '../services/id-list.js';
import { scopeFor } from '../services/users/account-scope.js';
import { defineRoute } from './define.js';

type ExportQuery = {
  month: string;
  locationParentId?: string;
  version?: number;
  since?: number;
  live?: boolean;
};

const exportRequest = async (db: Db, caller: Caller, q: ExportQuery): Promise<ExportRequest> => ({
  month: q.month,
  scope: await scopeFor(db, caller, undefined),
  parents: parseIdList(q.locationParentId),
  ...(q.version !== undefined ? { version: q.version } : {}),
  ...(q.since !== undefined ? { since: q.since } : {}),
  ...(q.live ? { live: true } : {}),
});

/** Integration keys, publication receivers and the billing export (docs/integration.md). */
export default async function integrationRoutes(app: FastifyInstance) {
  defineRoute(app, listIntegrationKeys, async ({ caller, db }) => ({
    Keys: await integrationKeys.listIntegrationKeys(db, caller),
  }));
  defineRoute(app, createIntegrationKey, ({ caller, body, db }) =>
    integrationKeys.createIntegrationKey(db, caller, body),
  );
  defineRoute(app, revokeIntegrationKey, ({ caller, params, db }) =>
    integrationKeys.revokeIntegrationKey(db, caller, params.id),
  );
  defineRoute(app, listBillingReceivers, async ({ db }) => ({ Receivers: await receivers.listReceivers(db) }));
  defineRoute(app, createBillingReceiver, ({ caller, body, db }) =>
    receivers.createReceiver(db, caller, body, { allowedNetworks: app.config.outgoingAllowedNetworks ?? [] }),
  );
  defineRoute(app, disableBillingReceiver, async ({ caller, params, db }) => {
    await receivers.disableReceiver(db, caller, params.id);
    return { message: 'Receiver switched off' };
  });
  defineRoute(app, listBillingDeliveries, async ({ query, db }) => ({
    Deliveries: await receivers.listBillingDeliveries(db, query.receiverId),
  }));
  defineRoute(app, getBillingExport, async ({ caller, query, db, reply }) => {
    const chunks = await exportBuildings(db, await exportRequest(db, caller, query));
    return reply.type('application/json; charset=utf-8').send(billingJson(query.month, chunks));
  });
  defineRoute(app, getBillingExportFile, async ({ caller, query, db, reply }) => {
    const chunks = await exportBuildings(db, await exportRequest(db, caller, query));
    const name = `billing-${query.month}${query.version ? `-v${query.version}` : ''}${query.since ? `-since-v${query.since}` : ''}`;
    const csv = query.format === 'csv';
    return reply
      .header(
        'content-type',
        csv ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      )
      .header('content-disposition', `attachment; filename="${name}.${query.format}"`)
      .send(csv ? billingCsv(chunks) : billingXlsx(chunks, () => new Date()));
  });
}
