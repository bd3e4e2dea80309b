import * as contract from '@rodmenys/contract';
import {
  type BodyOf,
  DEFAULT_BODY_BYTES,
  type Endpoint,
  ErrorBody,
  getBillingExport,
  getBillingExportFile,
  getDeviceHistory,
  getDevicesData,
  getFlatStatement,
  getStatementFigures,
  getStatementsPdf,
  inputProblems,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
} from '@rodmenys/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/db.js';
import type { Config } from '../env.js';
import { HttpError } from '../errors.js';
import { JsonText } from '../json-text.js';
import type { Caller } from '../services/auth/caller.js';

/** What a handler gets: validated input, the caller, the database. */
export interface Ctx<E extends Endpoint> {
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
  /** The signed-in user (endpoints with `auth: 'user'` or `'operator'`). */
  caller: Caller;
  db: Db;
  config: Config;
  request: FastifyRequest;
  reply: FastifyReply;
}

const ERROR_STATUSES = [400, 401, 403, 404, 409, 413, 415, 429, 500, 503] as const;

const isEndpoint = (v: unknown): v is Endpoint =>
  typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'auth' in v && 'response' in v;

/**
 * Each endpoint's OpenAPI operationId, derived once from its name in the contract:
 * `getDevicesData`, and for an endpoint of an exported group (`typeaheadEndpoints.City`)
 * the group's name without `Endpoints` and the key (`typeaheadCity`).
 */
export const OPERATION_IDS: ReadonlyMap<Endpoint, string> = (() => {
  const ids = new Map<Endpoint, string>();
  for (const [name, value] of Object.entries(contract as Record<string, unknown>)) {
    if (isEndpoint(value)) {
      if (!ids.has(value)) ids.set(value, name);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value))
        if (isEndpoint(inner) && !ids.has(inner)) ids.set(inner, `${name.replace(/Endpoints$/, '')}${key}`);
    }
  }
  return ids;
})();

/** A file download's 2xx answer in the OpenAPI document: the bytes of its content type. */
const fileAnswer = (produces: string) => ({
  description: 'The file',
  content: { [produces]: { schema: { type: 'string', format: 'binary' } } },
});

/**
 * What an integration key may call (docs/integration.md): the billing export, the readings and the
 * statements, all reads. Any other endpoint answers 403 to a key.
 */
export const INTEGRATION_READS: ReadonlySet<Endpoint> = new Set<Endpoint>([
  getBillingExport,
  getBillingExportFile,
  getDevicesData,
  getDeviceHistory,
  getStatementFigures,
  getFlatStatement,
  getStatementsPdf,
]);

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * 400 for input the schemas let through (contract/src/input.ts): U+0000 in text,
 * numbers that are not finite (ajv turns the text `1e309` into Infinity and then
 * skips its range checks), text beyond MAX_TEXT_LENGTH. A text body (a collector or
 * CSV upload) is only checked for U+0000; a file's bytes are left to their reader.
 */
function checkInput(request: FastifyRequest): void {
  const { body } = request;
  const problems = [...inputProblems(request.params ?? {}), ...inputProblems(request.query ?? {})];
  if (typeof body === 'string') {
    if (body.includes('\u0000'))
      problems.push({
        field: 'body',
        code: 'nulCharacter',
        params: { field: 'body' },
        message: 'body must not contain the character U+0000',
      });
  } else if (!ArrayBuffer.isView(body)) {
    // a file upload arrives as bytes and is checked by its reader
    problems.push(...inputProblems(body ?? {}));
  }
  if (problems.length) {
    const [first] = problems;
    throw problems.length === 1 && first
      ? new HttpError(400, first.code, first.params, problems)
      : new HttpError(400, 'badRequest', {}, problems, undefined, problems.map((p) => p.message).join('; '));
  }
}

/**
 * Wires a contract endpoint into Fastify: its schemas validate the input and
 * serialise the output (undeclared fields never leave; a JsonText result is
 * sent as it is), its `auth` picks the
 * authenticator, and it appears in the OpenAPI document.
 */
export function defineRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (ctx: Ctx<E>) => Promise<ResponseOf<E> | JsonText<ResponseOf<E>>>,
  options: {
    config?: Record<string, unknown>;
    /** false: answers never compressed (tiny answers of hot endpoints: @fastify/compress's hook is skipped). */
    compress?: false;
  } = {},
): void {
  const status = endpoint.status ?? 200;
  const response: Record<number, unknown> = {};
  response[status] = endpoint.produces ? fileAnswer(endpoint.produces) : endpoint.response;
  for (const code of ERROR_STATUSES) response[code] = ErrorBody;
  const keys = INTEGRATION_READS.has(endpoint);
  const authenticate = keys ? app.userOrIntegrationKey : app.authenticators[endpoint.auth];
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    config: options.config,
    ...(options.compress === false ? { compress: false as const } : {}),
    bodyLimit: endpoint.maxBodyBytes ?? DEFAULT_BODY_BYTES,
    schema: {
      summary: endpoint.summary,
      ...(OPERATION_IDS.has(endpoint) ? { operationId: OPERATION_IDS.get(endpoint) } : {}),
      tags: [...endpoint.tags],
      security:
        endpoint.auth === 'none'
          ? []
          : keys
            ? [{ bearer: [] }, { integrationKey: [] }]
            : [
                {
                  [endpoint.auth === 'collector'
                    ? 'collectorKey'
                    : endpoint.auth === 'lns'
                      ? 'lnsKey'
                      : endpoint.auth === 'occupant'
                        ? 'occupantSession'
                        : 'bearer']: [],
                },
              ],
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.querystring ? { querystring: endpoint.querystring } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.consumes ? { consumes: [...endpoint.consumes] } : {}),
      response,
    },
    // Before the body is read: a caller without the right gets 401/403 whatever the
    // input, and the server reads no body of an anonymous or unauthorised caller.
    // An endpoint open to all has no hook to run (authenticators.none would do nothing).
    ...(endpoint.auth === 'none' && !keys ? {} : { onRequest: (request: FastifyRequest) => authenticate(request) }),
    // Synchronous: no promise per request (a throw here is Fastify's error path as well).
    preHandler: (request, _reply, done) => {
      checkInput(request);
      done();
    },
    handler: async (request, reply) => {
      // A read the contract lets a standby answer (db/read-routing.ts); everything else on the primary.
      const db = endpoint.standbyMayAnswer ? await app.reads.reader(request.caller?.id) : app.db;
      const result = await handler({
        params: request.params as ParamsOf<E>,
        query: request.query as QueryOf<E>,
        body: request.body as BodyOf<E>,
        get caller(): Caller {
          if (!request.caller) throw new Error(`${endpoint.path} has no signed-in caller`);
          return request.caller;
        },
        db,
        config: app.config,
        request,
        reply,
      });
      // A user's change: their next reads wait until the standby has it (before the answer leaves).
      if (app.reads.replica && request.caller && WRITES.has(endpoint.method))
        await app.reads.noteWrite(request.caller.id);
      if (reply.sent) return reply;
      // Already JSON: a string payload with a JSON content type skips the schema serialiser.
      if (result instanceof JsonText)
        return reply.status(status).type('application/json; charset=utf-8').send(result.json);
      return reply.status(status).send(result);
    },
  });
}
