import { getAllObjects, getLocationTree, getUserObjects, typeaheadEndpoints } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { scopeFor } from '../services/auth/caller.js';
import {
  LEVEL_OF,
  listObjects,
  listUserObjects,
  locationTree,
  suggestNames,
} from '../services/locations/list-objects.js';
import { defineRoute } from './define.js';

export default async function locationDataRoutes(app: FastifyInstance) {
  defineRoute(app, getAllObjects, async ({ caller, query, db }) =>
    listObjects(db, await scopeFor(db, caller, query.userId), query),
  );
  defineRoute(app, getUserObjects, async ({ caller, query, db }) =>
    listUserObjects(db, await scopeFor(db, caller, query.userId), query),
  );
  defineRoute(app, getLocationTree, async ({ caller, query, db }) =>
    locationTree(db, await scopeFor(db, caller, query.userId), query.maxLevel ?? 7),
  );
  for (const [level, endpoint] of Object.entries(typeaheadEndpoints)) {
    defineRoute(app, endpoint, async ({ caller, query, db }) =>
      suggestNames(
        db,
        await scopeFor(db, caller, query.userId),
        LEVEL_OF[level as keyof typeof LEVEL_OF],
        query.search,
      ),
    );
  }
}
