import {
  getOccupantAccess,
  getOccupantProfile,
  getOccupantStatement,
  getOccupantStatementPdf,
  listOccupantMonths,
  reissueOccupantAccess,
  revokeOccupantAccess,
  signInOccupantByCode,
  signInOccupantByLink,
  signOutOccupant,
  updateOccupantConsent,
} from '@rodmenys/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as manage from '../services/occupant-access/manage.js';
import * as pages from '../services/occupant-access/pages.js';
import { endSession, type OccupantCaller } from '../services/occupant-access/sessions.js';
import { signInByCode, signInByLink } from '../services/occupant-access/sign-in.js';
import { defineRoute } from './define.js';

/** The occupancy of the request's occupant session (set by the `occupant` authenticator). */
function occupantOf(request: FastifyRequest): OccupantCaller {
  if (!request.occupant) throw new Error(`${request.url} has no occupant session`);
  return request.occupant;
}

/**
 * The occupant's own pages (docs/occupant-access.md): sign-in by link or letter code, their
 * profile, consent, months, statements and PDF; and the back office's revoke and reissue.
 */
export default async function occupantRoutes(app: FastifyInstance) {
  // A per-instance flood guard, as on the back office's sign-in; the throttle that counts is in the database.
  const floodGuard = { config: { rateLimit: { max: app.config.loginRateLimit, timeWindow: '1 minute' } } };
  defineRoute(
    app,
    signInOccupantByLink,
    ({ db, body, config }) => signInByLink(db, body.token, config.tokenTtlSeconds),
    floodGuard,
  );
  defineRoute(
    app,
    signInOccupantByCode,
    ({ db, body, config, request }) =>
      signInByCode(
        db,
        config.throttle,
        { flatId: body.flat, code: body.code, address: request.ip || 'unknown' },
        config.tokenTtlSeconds,
      ),
    floodGuard,
  );
  defineRoute(app, signOutOccupant, async ({ db, request }) => {
    await endSession(db, occupantOf(request).sessionId);
    return { message: 'Signed out' };
  });
  defineRoute(app, getOccupantProfile, ({ db, request }) => pages.occupantProfile(db, occupantOf(request)));
  defineRoute(app, updateOccupantConsent, ({ db, request, body }) =>
    pages.updateConsent(db, occupantOf(request), body.electronic),
  );
  defineRoute(app, listOccupantMonths, ({ db, request }) => pages.occupantMonths(db, occupantOf(request)));
  defineRoute(app, getOccupantStatement, ({ db, request, params }) =>
    pages.occupantStatement(db, occupantOf(request), params.month),
  );
  defineRoute(app, getOccupantStatementPdf, async ({ db, request, params, query, reply }) => {
    const file = await pages.occupantStatementPdf(db, occupantOf(request), params.month, query.lang);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${file.name}"`)
      .header('cache-control', 'no-store')
      .send(file.stream);
  });
  defineRoute(app, getOccupantAccess, ({ db, caller, params }) => manage.getOccupantAccess(db, caller, params.id));
  defineRoute(app, revokeOccupantAccess, ({ db, caller, params }) =>
    manage.revokeOccupantAccess(db, caller, params.id),
  );
  defineRoute(app, reissueOccupantAccess, ({ db, caller, params, config, request }) =>
    manage.reissueOccupantAccess(db, caller, params.id, config.publicUrl ?? `${request.protocol}://${request.host}`),
  );
}
