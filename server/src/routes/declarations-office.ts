import {
  decideDeclaration,
  enterPhoneDeclaration,
  getDeclarationPhoto,
  getUndeclaredPrintList,
  listDeclarationDevices,
  listDeclarations,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { listDeclarationDevices as devices } from '../services/declarations/office/devices.js';
import { enterPhone } from '../services/declarations/office/phone.js';
import { undeclaredPrintList } from '../services/declarations/office/print-list.js';
import * as review from '../services/declarations/office/review.js';
import { defineRoute } from './define.js';

/** The back office's side of declared readings (docs/declared-readings.md). */
export default async function declarationsOfficeRoutes(app: FastifyInstance) {
  defineRoute(app, enterPhoneDeclaration, ({ caller, db, body }) => enterPhone(db, caller, body));
  defineRoute(app, listDeclarations, ({ caller, db, query }) => review.listDeclarations(db, caller, query));
  defineRoute(app, getDeclarationPhoto, async ({ caller, db, params, reply }) => {
    const photo = await review.declarationPhoto(db, caller, params.id);
    return reply
      .header('content-type', photo.mime)
      .header('cache-control', 'private, no-store')
      .header('content-disposition', 'inline')
      .send(photo.bytes);
  });
  defineRoute(app, decideDeclaration, ({ caller, db, params, body }) =>
    review.decideDeclaration(db, caller, params.id, body),
  );
  defineRoute(app, listDeclarationDevices, ({ caller, db, query }) => devices(db, caller, query));
  defineRoute(app, getUndeclaredPrintList, async ({ caller, db, query, reply }) => {
    const list = await undeclaredPrintList(db, caller, { ...query, lang: query.lang ?? 'lt' });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${list.name}"`)
      .send(list.stream);
  });
}
