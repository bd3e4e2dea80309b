import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * One log line per answered request (docs/operations.md, "The log"), instead of Fastify's two
 * ("incoming request" with the whole URL, "request completed"): the method, the route as the
 * contract writes it (`/api/users/:id`, never the values in the path or the query string, where
 * a search may carry a person's name), the status and the time taken. A request no route took
 * (a 404 of the router) is logged without its path, which is whatever the client sent.
 */
async function requestLog(app: FastifyInstance) {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        route: request.is404 ? null : (request.routeOptions.url ?? null),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
    done();
  });
}

export default fp(requestLog, { name: 'request-log' });
