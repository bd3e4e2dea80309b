import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Serves the built web app from the same port: hashed assets cached for a year,
 * pre-compressed files when present, and index.html for every other GET that is
 * not under /api (the client's history-mode routes).
 */
export default fp(async function web(app: FastifyInstance, options: { dir: string | undefined }) {
  const dir = options.dir;
  const hasWeb = dir !== undefined && existsSync(path.join(dir, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: dir,
      wildcard: false,
      preCompressed: true,
      setHeaders(res, file) {
        res.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (hasWeb && request.method === 'GET' && !pathname.startsWith('/api/') && pathname !== '/api') {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ code: 'notFound', message: `No such endpoint: ${request.method} ${pathname}` });
  });
});
