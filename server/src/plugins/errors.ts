import { CALENDAR_DAY_FORMAT, ERROR_STATUSES, type ErrorCode, type ErrorParams, errorText } from '@rodmenys/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable.js';
import { type FieldError, HttpError } from '../errors.js';

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** The schema keywords with a code of their own; every other check failing is `invalid`. */
const KEYWORD_CODES: Record<string, ErrorCode> = {
  required: 'required',
  additionalProperties: 'notAccepted',
  minLength: 'tooShort',
  maxLength: 'tooLong',
  minimum: 'tooSmall',
  exclusiveMinimum: 'tooSmall',
  maximum: 'tooLarge',
  exclusiveMaximum: 'tooLarge',
  minItems: 'tooFewItems',
  maxItems: 'tooManyItems',
};

/**
 * 'body/password' and ajv's minLength issue become { field: 'password', code: 'tooShort',
 * params: { field: 'password', limit: '6' }, message: 'password must NOT have fewer than 6 characters' }.
 */
function describe(issue: ValidationIssue, context: string | undefined, input: unknown): FieldError {
  const missing = issue.params?.missingProperty as string | undefined;
  const additional = issue.params?.additionalProperty as string | undefined;
  const pathPart = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const field = [pathPart, missing ?? additional].filter(Boolean).join('.') || context || 'request';
  if (issue.keyword === 'format' && issue.params?.format === CALENDAR_DAY_FORMAT) {
    // The day as sent: the value at the issue's path in the request part it came from.
    const value = (issue.instancePath ?? '')
      .split('/')
      .filter(Boolean)
      .reduce<unknown>(
        (at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined),
        input,
      );
    const params = { field, value: String(value ?? '').slice(0, 10) };
    return { field, code: 'notCalendarDay', params, message: errorText('notCalendarDay', params) };
  }
  const code = KEYWORD_CODES[issue.keyword ?? ''] ?? 'invalid';
  const params: ErrorParams = { field };
  if (issue.params?.limit !== undefined) params.limit = String(issue.params.limit);
  let message = issue.message ?? 'is invalid';
  if (missing) message = 'is required';
  else if (additional) message = 'is not an accepted field';
  return { field, code, params, message: `${field} ${message}` };
}

/** Fastify's and its plugins' own client errors (bad JSON, wrong content type, body too large, a range) by status. */
const STATUS_CODES: Record<number, ErrorCode> = {
  401: 'signInFirst',
  403: 'forbidden',
  404: 'notFound',
  413: 'bodyTooLarge',
  414: 'pathTooLong',
  415: 'unsupportedMediaType',
  416: 'rangeNotSatisfiable',
};
/** The statuses of those about the request's body: their answer names the field `body`. */
const BODY_STATUSES = new Set([400, 413, 415]);

/**
 * One error handler: typed errors become `{ code, params, message }` with their status,
 * validation errors a 400 naming the fields, the database away a 503 with Retry-After
 * (docs/operations.md), anything else a 500 that says
 * nothing internal (the details go to the log). Every answer has a code the web app
 * translates (docs/ARCHITECTURE.md, "Errors").
 */
export default fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      if (err.headers) reply.headers(err.headers);
      return reply
        .status(err.statusCode)
        .send({ code: err.code, params: err.params, message: err.message, errors: err.errors });
    }
    if (err.validation) {
      const context = err.validationContext;
      const input =
        context === 'querystring'
          ? request.query
          : context === 'params'
            ? request.params
            : context === 'body'
              ? request.body
              : undefined;
      const errors = err.validation.map((v) => describe(v as ValidationIssue, context, input));
      const first = errors[0];
      return reply.status(400).send({
        code: errors.length === 1 && first ? first.code : 'badRequest',
        params: errors.length === 1 && first ? first.params : {},
        message: errors.map((e) => e.message).join('; '),
        errors,
      });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ code: 'tooManyRequests', message: 'Too many requests; try again later' });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, wrong content type, body too large) are about the body; a status
      // the contract does not list (ERROR_STATUSES) is answered as the 400 it is.
      const known = ERROR_STATUSES.includes(status);
      const code: ErrorCode = (known && STATUS_CODES[status]) || 'badRequest';
      if (!BODY_STATUSES.has(status) && known) {
        return reply.status(status).send({ code, params: {}, message: errorText(code) });
      }
      const params = { field: 'body' };
      const message = status === 400 ? err.message : errorText(code, params);
      return reply
        .status(known ? status : 400)
        .send({ code, params, message, errors: [{ field: 'body', code, params, message }] });
    }
    if (isDatabaseUnavailable(err)) {
      // Expected while the database restarts: one line, no stack; the client waits and tries again.
      request.log.warn({ code: (err as { code?: unknown }).code ?? null, reason: err.message }, 'database unavailable');
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return reply.status(503).send({ code: 'databaseUnavailable', message: errorText('databaseUnavailable') });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: 'internal', message: 'Internal server error' });
  });
});
