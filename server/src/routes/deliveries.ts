import { getPrintList, listOccupantDeliveries } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { publicBaseUrl } from '../services/deliveries/links.js';
import { listOccupantDeliveries as listLog } from '../services/deliveries/log.js';
import { printList } from '../services/deliveries/print-list.js';
import { parseIdList } from '../services/id-list.js';
import { defineRoute } from './define.js';

/** Delivery to occupants (docs/delivery.md): the delivery log of a month and a building's print list. */
export default async function deliveryRoutes(app: FastifyInstance) {
  defineRoute(app, listOccupantDeliveries, async ({ caller, query, db, config }) => ({
    Month: query.month,
    MailConfigured: Boolean(config.smtpUrl),
    Buildings: await listLog(db, caller, query.month, parseIdList(query.locationParentId)),
  }));
  defineRoute(app, getPrintList, async ({ caller, params, query, db, config, reply }) => {
    const file = await printList(db, caller, {
      month: query.month,
      buildingId: params.buildingId,
      lang: query.lang ?? 'lt',
      baseUrl: publicBaseUrl(config),
    });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${file.name}"`)
      .send(file.stream);
  });
}
