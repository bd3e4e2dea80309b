import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../errors.js';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** 'body/password' and ajv's message become { field: 'password', message: 'password must NOT have fewer than 6 characters' }. */
function describe(issue: ValidationIssue, context: string | undefined) {
  const missing = issue.params?.missingProperty as string | undefined;
  const additional = issue.params?.additionalProperty as string | undefined;
  const pathPart = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const field = [pathPart, missing ?? additional].filter(Boolean).join('.') || context || 'request';
  let message = issue.message ?? 'is invalid';
  if (missing) message = 'is required';
  else if (additional) message = 'is not an accepted field';
  return { field, message: `${field} ${message}` };
}

/**
 * One error handler: typed errors become `{ message }` with their status,
 * validation errors a 400 naming the fields, anything else a 500 that says
 * nothing internal (the details go to the log).
 */
export default fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.statusCode).send({ message: err.message, errors: err.errors });
    }
    if (err.validation) {
      const errors = err.validation.map((v) => describe(v as ValidationIssue, err.validationContext));
      return reply.status(400).send({ message: errors.map((e) => e.message).join('; '), errors });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ message: 'Too many requests; try again later' });
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, wrong content type, body too large) are about the body.
      const message = status === 413 ? 'body is larger than this endpoint accepts' : err.message;
      return reply.status(status).send({ message, errors: [{ field: 'body', message }] });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ message: 'Internal server error' });
  });
});
