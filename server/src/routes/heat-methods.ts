import { getBuildingHeatMethods, setBuildingHeatMethod } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import * as methods from '../services/heat-methods/heat-methods.js';
import { defineRoute } from './define.js';

/** A building's heat method (docs/heat-method.md): read by groups 1 and 2 in scope, set by group 1. */
export default async function heatMethodRoutes(app: FastifyInstance) {
  defineRoute(app, getBuildingHeatMethods, ({ caller, db, params }) =>
    methods.getBuildingHeatMethods(db, caller, params.id),
  );
  defineRoute(app, setBuildingHeatMethod, ({ caller, db, params, body }) =>
    methods.setBuildingHeatMethod(db, caller, params.id, params.month, body),
  );
}
