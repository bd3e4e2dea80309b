import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The OpenAPI 3 document (`/api/docs/json`) and a browsable page (`/api/docs`), built from the contract's schemas. */
export default fp(async function docs(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Rodmenys API',
        version: '1.0.0',
        description:
          'Remote meter readings. Sign in with POST /api/users/authenticate and send the token as ' +
          '`Authorization: Bearer <Token>`. Errors are `{ message, errors? }`.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          collectorKey: { type: 'http', scheme: 'bearer', description: 'A collector key (readings ingest)' },
          integrationKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An integration key (rdm_live_…): read-only, scoped (docs/integration.md)',
          },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
