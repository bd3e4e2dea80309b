import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The contract's schemas are JSON Schema draft 7, as the validator reads them; OpenAPI 3.0.3
 * writes a few keywords its own way. `exclusiveMinimum: 0` (a number) becomes
 * `minimum: 0, exclusiveMinimum: true` (and so for the maximum), in a copy for the document.
 */
export function toOpenApi30(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toOpenApi30);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = toOpenApi30(inner);
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[exclusive] === 'number') {
      out[bound] = out[exclusive];
      out[exclusive] = true;
    }
  }
  return out;
}

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
          lnsKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'A network-server connection key (LoRaWAN; or in X-Rodmenys-Key)',
          },
          occupantSession: {
            type: 'http',
            scheme: 'bearer',
            description: "An occupant session (rmo_…): one occupancy's own pages only (docs/occupant-access.md)",
          },
          integrationKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An integration key (rdm_live_…): read-only, scoped (docs/integration.md)',
          },
        },
      },
    },
    transformObject: (documentObject) =>
      toOpenApi30(
        'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject,
      ) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
