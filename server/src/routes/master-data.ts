import {
  addDevice,
  applyRegisterImport,
  exportAuditLog,
  getAuditLog,
  getLocation,
  listLocationChildren,
  previewRegisterImport,
  REGISTER_CONTENT_TYPES,
  registerTemplate,
  removeDevice,
  replaceDevice,
  searchClients,
  searchLocations,
  setFlatClient,
  updateDevice,
  updateLocation,
} from '@rodmenys/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import { exportAudit, listAudit } from '../services/audit/list-audit.js';
import * as devices from '../services/master-data/edit-devices.js';
import * as locations from '../services/master-data/edit-locations.js';
import * as registerFile from '../services/master-data/register-file.js';
import { importRegister } from '../services/master-data/register-import/index.js';
import { defineRoute } from './define.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Register import, the location tree and device editing, the audit log: group 1 only. */
export default async function masterDataRoutes(app: FastifyInstance) {
  // A register arrives as the raw file body; the service recognises xlsx or CSV from the bytes.
  app.addContentTypeParser([...REGISTER_CONTENT_TYPES], { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  const file = (request: FastifyRequest): Buffer => {
    if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
      throw badRequest('registerBodyMissing', { types: REGISTER_CONTENT_TYPES.join(', ') });
    }
    return request.body;
  };
  const fileName = (request: FastifyRequest) => {
    const name = request.headers['x-file-name'];
    return typeof name === 'string' ? decodeURIComponent(name).slice(0, 200) : undefined;
  };

  defineRoute(app, previewRegisterImport, ({ caller, db, request }) =>
    importRegister(db, caller, file(request), { apply: false, fileName: fileName(request) }),
  );
  defineRoute(app, applyRegisterImport, ({ caller, db, request }) =>
    importRegister(db, caller, file(request), { apply: true, fileName: fileName(request) }),
  );
  defineRoute(app, registerTemplate, async ({ query, reply }) => {
    const format = query.format ?? 'xlsx';
    const body = await registerFile.registerTemplate(query.lang ?? 'lt', format);
    return reply
      .header('content-type', format === 'xlsx' ? XLSX : 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="register.${format}"`)
      .send(body);
  });

  defineRoute(app, listLocationChildren, ({ db, query }) => locations.listLocationChildren(db, query.parentId));
  defineRoute(app, searchLocations, ({ db, query }) => locations.searchLocations(db, query.text));
  defineRoute(app, getLocation, ({ db, params }) => locations.getLocation(db, params.id));
  defineRoute(app, updateLocation, ({ caller, db, params, body }) =>
    locations.updateLocation(db, caller, params.id, body),
  );
  defineRoute(app, setFlatClient, ({ caller, db, params, body }) =>
    locations.setFlatClient(db, caller, params.id, body),
  );
  defineRoute(app, searchClients, ({ db, query }) => locations.searchClients(db, query.search));

  defineRoute(app, addDevice, ({ caller, db, body }) => devices.addDevice(db, caller, body));
  defineRoute(app, updateDevice, ({ caller, db, params, body }) => devices.updateDevice(db, caller, params.id, body));
  defineRoute(app, removeDevice, ({ caller, db, params, body }) => devices.removeDevice(db, caller, params.id, body));
  defineRoute(app, replaceDevice, ({ caller, db, params, body }) => devices.replaceDevice(db, caller, params.id, body));

  defineRoute(app, getAuditLog, ({ db, query }) => listAudit(db, query));
  defineRoute(app, exportAuditLog, async ({ db, query, reply }) => {
    const format = query.format ?? 'xlsx';
    const body = await exportAudit(db, query, format, query.lang ?? 'lt');
    return reply
      .header('content-type', format === 'xlsx' ? XLSX : 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="auditLog.${format}"`)
      .send(body);
  });
}
