import type { Auth } from '@rodmenys/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from '../errors.js';
import { type Caller, loadCaller } from '../services/auth/caller.js';
import { readToken } from '../services/auth/tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set by the `user` authenticator. */
    caller?: Caller;
  }
  interface FastifyInstance {
    /** Checks a request for an endpoint's `auth` kind; throws 401 when it fails. */
    authenticators: Record<Auth, (request: FastifyRequest) => Promise<void>>;
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}

/** Derives the caller from the bearer token on every call (DESIGN.md §3). */
export default fp(async function auth(app: FastifyInstance) {
  app.decorateRequest('caller', undefined);
  app.decorate('authenticators', {
    none: async () => {},
    user: async (request: FastifyRequest) => {
      const token = bearer(request);
      if (!token) throw unauthorized('Sign in first');
      const claims = await readToken(app.config.tokenSecret, token);
      const caller = claims && (await loadCaller(app.db, claims));
      if (!caller) throw unauthorized('Your session has ended; sign in again');
      request.caller = caller;
    },
    collector: async () => {
      throw unauthorized('Collector keys are not accepted yet');
    },
  });
});
