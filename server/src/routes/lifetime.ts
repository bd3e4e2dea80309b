import {
  getDueDevices,
  getDueWorkList,
  getRemoteRegister,
  getRemoteRegisterPdf,
  getWalkByList,
  setRemoteException,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { listDueDevices } from '../services/lifetime/due.js';
import { LIFETIME_PDF_TEXTS, renderRegister, renderWorkList, typeNames } from '../services/lifetime/pdf.js';
import * as register from '../services/lifetime/register.js';
import { walkByList } from '../services/lifetime/walk-by.js';
import { defineRoute } from './define.js';

/** Devices over their lifetime (docs/device-lifetime.md): due lists, the remote-reading register, the walk-by list. */
export default async function lifetimeRoutes(app: FastifyInstance) {
  defineRoute(app, getDueDevices, ({ caller, db, query }) => listDueDevices(db, caller, query));
  defineRoute(app, getDueWorkList, async ({ caller, db, query, reply }) => {
    const lang = query.lang ?? 'lt';
    const due = await listDueDevices(db, caller, query);
    const stream = renderWorkList(due.Rows, await typeNames(db, lang), lang, due.Today);
    return reply
      .header('content-type', 'application/pdf')
      .header(
        'content-disposition',
        `attachment; filename="${LIFETIME_PDF_TEXTS[lang].file.workList}-${due.Today}.pdf"`,
      )
      .send(stream);
  });
  defineRoute(app, getRemoteRegister, ({ caller, db, query }) => register.remoteRegister(db, caller, query.buildingId));
  defineRoute(app, getRemoteRegisterPdf, async ({ caller, db, query, reply }) => {
    const lang = query.lang ?? 'lt';
    const data = await register.remoteRegister(db, caller);
    return reply
      .header('content-type', 'application/pdf')
      .header(
        'content-disposition',
        `attachment; filename="${LIFETIME_PDF_TEXTS[lang].file.register}-${data.Today}.pdf"`,
      )
      .send(renderRegister(data, lang));
  });
  defineRoute(app, setRemoteException, ({ caller, db, params, body }) =>
    register.setRemoteException(db, caller, params.buildingId, body.note),
  );
  defineRoute(app, getWalkByList, ({ caller, db, query }) => walkByList(db, caller, query.months));
}
