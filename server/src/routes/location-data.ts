import {
  ADDRESS_LEVELS,
  getAllObjects,
  getLocationTree,
  getUserObjects,
  LOCATION_LEVEL,
  levelOf,
  typeaheadEndpoints,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { listObjects, listUserObjects, locationTree, suggestNames } from '../services/locations/list-objects.js';
import { scopeFor } from '../services/users/account-scope.js';
import { defineRoute } from './define.js';

export default async function locationDataRoutes(app: FastifyInstance) {
  defineRoute(app, getAllObjects, async ({ caller, query, db }) =>
    listObjects(db, await scopeFor(db, caller, query.userId), query),
  );
  defineRoute(app, getUserObjects, async ({ caller, query, db }) =>
    listUserObjects(db, await scopeFor(db, caller, query.userId), query),
  );
  defineRoute(app, getLocationTree, async ({ caller, query, db }) =>
    locationTree(db, await scopeFor(db, caller, query.userId), query.maxLevel ?? LOCATION_LEVEL.flat),
  );
  for (const level of ADDRESS_LEVELS) {
    defineRoute(app, typeaheadEndpoints[level], async ({ caller, query, db }) =>
      suggestNames(db, await scopeFor(db, caller, query.userId), levelOf(level), query.search),
    );
  }
}
