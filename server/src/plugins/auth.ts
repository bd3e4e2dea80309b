import { type Auth, isOperator, OCCUPANT_SESSION_PREFIX } from '@rodmenys/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from '../errors.js';
import { type Caller, loadCaller } from '../services/auth/caller.js';
import { readToken } from '../services/auth/tokens.js';
import { authenticateIntegrationKey, isIntegrationKey } from '../services/billing/integration-keys.js';
import { findCollectorKey } from '../services/ingest/collector-keys.js';
import { findConnectionByKey, type LnsCaller } from '../services/lorawan/connections.js';
import { findSession, type OccupantCaller } from '../services/occupant-access/sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set by the `user` and `operator` authenticators. */
    caller?: Caller;
    /** The collector key a request came with; set by the `collector` authenticator. */
    collector?: { id: number; name: string };
    /** The network-server connection whose key a request came with; set by the `lns` authenticator. */
    lns?: LnsCaller;
    /** The occupancy of an occupant session; set by the `occupant` authenticator (docs/occupant-access.md). */
    occupant?: OccupantCaller;
  }
  interface FastifyInstance {
    /** Checks a request for an endpoint's `auth` kind; throws 401 (not signed in) or 403 (not allowed). */
    authenticators: Record<Auth, (request: FastifyRequest) => Promise<void>>;
    /** As `user`, and also accepts an integration key (the read endpoints a key may call; routes/define.ts). */
    userOrIntegrationKey: (request: FastifyRequest) => Promise<void>;
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}

/** Derives the caller from the bearer token (or the collector from its key) on every call (docs/domain.md §6). */
export default fp(async function auth(app: FastifyInstance) {
  app.decorateRequest('caller', undefined);
  app.decorateRequest('collector', undefined);
  app.decorateRequest('lns', undefined);
  app.decorateRequest('occupant', undefined);
  /** Sets and returns the caller of a valid bearer token; 401 otherwise. */
  const signedIn = async (request: FastifyRequest): Promise<Caller> => {
    const token = bearer(request);
    if (!token) throw unauthorized('signInFirst');
    // An integration key reaches only the endpoints that take `userOrIntegrationKey`.
    if (isIntegrationKey(token)) throw forbidden('integrationKeyNotAllowed');
    // An occupant session reaches only the occupant endpoints (docs/occupant-access.md).
    if (token.startsWith(OCCUPANT_SESSION_PREFIX)) throw forbidden('occupantNotAllowed');
    const claims = await readToken(app.config.tokenSecret, token);
    const caller = claims && (await loadCaller(app.db, claims));
    if (!caller) {
      // A deactivated account is told so (the web app explains it on the sign-in page).
      const deactivated =
        claims && (await app.db.query('SELECT 1 FROM app_user WHERE id = $1 AND NOT active', [claims.userId])).rowCount;
      throw unauthorized(deactivated ? 'accountDeactivated' : 'sessionEnded');
    }
    request.caller = caller;
    return caller;
  };
  app.decorate('userOrIntegrationKey', async (request: FastifyRequest) => {
    const token = bearer(request);
    if (!token || !isIntegrationKey(token)) {
      await signedIn(request);
      return;
    }
    const caller = await authenticateIntegrationKey(app.db, token, { method: request.method, url: request.url });
    if (!caller) throw unauthorized('integrationKeyUnknown');
    request.caller = caller;
  });
  app.decorate('authenticators', {
    none: async () => {},
    user: async (request: FastifyRequest) => {
      await signedIn(request);
    },
    operator: async (request: FastifyRequest) => {
      if (!isOperator((await signedIn(request)).groupId)) {
        throw forbidden('operatorsOnly');
      }
    },
    collector: async (request: FastifyRequest) => {
      const header = request.headers['x-collector-key'];
      const key = (typeof header === 'string' ? header.trim() : undefined) || bearer(request);
      if (!key) throw unauthorized('collectorKeyMissing');
      const found = await findCollectorKey(app.db, key);
      if (!found) throw unauthorized('collectorKeyUnknown');
      request.collector = found;
    },
    // A network-server connection's key (docs/lorawan.md, "Connections"): X-Rodmenys-Key or a bearer token.
    lns: async (request: FastifyRequest) => {
      const header = request.headers['x-rodmenys-key'];
      const key = (typeof header === 'string' ? header.trim() : undefined) || bearer(request);
      if (!key) throw unauthorized('lnsKeyMissing');
      const found = await findConnectionByKey(app.db, key);
      if (!found) throw unauthorized('lnsKeyUnknown');
      request.lns = found;
    },
    occupant: async (request: FastifyRequest) => {
      const token = bearer(request);
      if (!token) throw unauthorized('occupantSignInFirst');
      const found = await findSession(app.db, token);
      if (!found) throw unauthorized('occupantSessionEnded');
      request.occupant = found;
    },
  });
});
