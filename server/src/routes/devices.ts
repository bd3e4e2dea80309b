import {
  getDeviceDataByUserId,
  getDeviceHistory,
  getDevicesByLocationId,
  getDevicesByParams,
  getDevicesData,
  getDeviceTypeLookUp,
  getDeviceTypesInSelection,
  getFlaggedDevices,
  userLocationRights,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.js';
import * as deviceHistory from '../services/devices/device-history.js';
import { getDevicesDataJson } from '../services/devices/devices-data/index.js';
import { listFlaggedDevices } from '../services/devices/flagged-devices.js';
import {
  listDevicesByAddress,
  listDevicesByLocation,
  listDevicesInScope,
  listDeviceTypes,
} from '../services/devices/list-devices.js';
import { listTypesInSelection } from '../services/devices/types-in-selection.js';
import { parseIdList } from '../services/id-list.js';
import * as locationRights from '../services/locations/user-location-rights.js';
import { parseDayRange } from '../services/time.js';
import { findReachableAccount, scopeFor } from '../services/users/account-scope.js';
import { defineRoute } from './define.js';

export default async function devicesRoutes(app: FastifyInstance) {
  // `locationParentId=1&locationParentId=2` is read as `1,2`.
  app.addHook('preValidation', async (request) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (query && Array.isArray(query.locationParentId)) query.locationParentId = query.locationParentId.join(',');
  });

  defineRoute(app, getDeviceTypeLookUp, ({ db }) => listDeviceTypes(db));
  defineRoute(app, getDeviceDataByUserId, async ({ caller, query, db }) =>
    listDevicesInScope(db, await scopeFor(db, caller, query.userId)),
  );
  defineRoute(app, getDevicesByParams, async ({ caller, query, db }) =>
    listDevicesByAddress(db, await scopeFor(db, caller, query.userId), query),
  );
  defineRoute(app, getDevicesByLocationId, async ({ caller, query, db }) =>
    listDevicesByLocation(db, await scopeFor(db, caller, query.userId), query.locationId),
  );
  defineRoute(app, getDevicesData, async ({ caller, query, db, config }) =>
    getDevicesDataJson(
      db,
      {
        deviceTypeId: query.deviceTypeId,
        range: parseDayRange(query.dateFrom, query.dateTill),
        scope: await scopeFor(db, caller, query.userId),
        parents: parseIdList(query.locationParentId),
        timeZone: config.timeZone,
      },
      app.devicesDataCaches,
    ),
  );
  defineRoute(app, getDeviceTypesInSelection, async ({ caller, query, db, config }) => {
    if ((query.dateFrom === undefined) !== (query.dateTill === undefined)) {
      throw badRequest('datesTogether', {}, query.dateFrom === undefined ? 'dateFrom' : 'dateTill');
    }
    return listTypesInSelection(db, {
      scope: await scopeFor(db, caller, query.userId),
      parents: parseIdList(query.locationParentId),
      range: query.dateFrom && query.dateTill ? parseDayRange(query.dateFrom, query.dateTill) : null,
      timeZone: config.timeZone,
    });
  });
  defineRoute(app, getFlaggedDevices, async ({ caller, query, db, config }) =>
    listFlaggedDevices(
      db,
      {
        range: parseDayRange(query.dateFrom, query.dateTill),
        scope: await scopeFor(db, caller, query.userId),
        parents: parseIdList(query.locationParentId),
        timeZone: config.timeZone,
      },
      app.devicesDataCaches,
    ),
  );
  defineRoute(app, getDeviceHistory, async ({ caller, params, query, db, config }) =>
    deviceHistory.getDeviceHistory(db, {
      deviceId: params.id,
      range: parseDayRange(query.dateFrom, query.dateTill),
      scope: await scopeFor(db, caller, query.userId),
      timeZone: config.timeZone,
    }),
  );
  defineRoute(app, userLocationRights, async ({ caller, params, db }) => {
    if (params.userId !== caller.id) await findReachableAccount(db, caller, params.userId);
    return locationRights.userLocationRights(db, params.userId, caller.scope);
  });
}
