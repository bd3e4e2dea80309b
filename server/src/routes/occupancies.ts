import {
  clearMoveValue,
  exportOccupantData,
  getDeviceMoveValues,
  getFlatOccupancies,
  getOccupancyStatements,
  recordMove,
  setMoveValue,
  updateOccupancy,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import * as values from '../services/occupancies/edit-move-values.js';
import * as occupancies from '../services/occupancies/occupancies.js';
import { exportOccupantData as exportOccupant } from '../services/personal-data/access-request.js';
import { occupancyStatements } from '../services/statements/occupancy-figures.js';
import { defineRoute } from './define.js';

/** A flat's occupants and its moving-day values (docs/occupancies.md): read by whoever sees the flat, changed by group 1. */
export default async function occupancyRoutes(app: FastifyInstance) {
  defineRoute(app, getFlatOccupancies, ({ caller, db, params }) =>
    occupancies.getFlatOccupancies(db, caller.scope, params.id, caller),
  );
  defineRoute(app, recordMove, ({ caller, db, params, body }) => occupancies.recordMove(db, caller, params.id, body));
  defineRoute(app, updateOccupancy, ({ caller, db, params, body }) =>
    occupancies.updateOccupancy(db, caller, params.id, body),
  );
  defineRoute(app, setMoveValue, ({ caller, db, params, body }) =>
    values.setMoveValue(db, caller, params.deviceId, params.day, body),
  );
  defineRoute(app, clearMoveValue, async ({ caller, db, params }) => {
    await values.clearMoveValue(db, caller, params.deviceId, params.day);
    return { message: 'Manual moving-day value removed' };
  });
  defineRoute(app, getOccupancyStatements, ({ caller, db, params, query }) =>
    occupancyStatements(db, query.month, params.flatId, caller.scope),
  );
  // An access request (docs/personal-data.md): a file to hand to the occupant.
  defineRoute(app, exportOccupantData, async ({ caller, db, params, reply }) => {
    const data = await exportOccupant(db, caller, params.id);
    reply.header('content-disposition', `attachment; filename="personal-data-${params.id}.json"`);
    return data;
  });
  defineRoute(app, getDeviceMoveValues, ({ caller, db, params }) =>
    values.listDeviceMoveValues(db, caller.scope, params.deviceId, caller),
  );
}
