import type { Socket } from 'node:net';
import { type ErrorCode, type ErrorParams, errorText, MAX_PATH_PARAM_CHARS } from '@rodmenys/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * What Fastify answers itself, outside the error handler (plugins/errors.ts), in the contract's
 * shape `{ code, params, message }` (docs/ARCHITECTURE.md, "Errors"): the router's refusals
 * (`frameworkErrors`: a path parameter too long, a URL that is not one) and the HTTP parser's
 * (`clientErrorHandler`: headers too large, a request too slow, bytes that are not HTTP).
 */

/** The body of an error answer: the code's English text with its params (the web app translates the code). */
const errorBody = (code: ErrorCode, params: ErrorParams = {}) => ({ code, params, message: errorText(code, params) });

/** Fastify's `frameworkErrors` option: the router's own errors, before any route or hook runs. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.status(414).send(errorBody('pathTooLong', { max: String(MAX_PATH_PARAM_CHARS) }));
  } else if (error.code === 'FST_ERR_BAD_URL') {
    reply.status(400).send(errorBody('malformedUrl'));
  } else {
    reply.status(400).send(errorBody('badRequest'));
  }
}

/** The answer to a request Node's HTTP parser refused, written on the socket (there is no request object). */
function clientErrorAnswer(code: string | undefined): { status: number; reason: string; body: string } {
  const [status, reason, error] =
    code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? ([408, 'Request Timeout', 'requestTimeout'] as const)
      : code === 'HPE_HEADER_OVERFLOW'
        ? ([431, 'Request Header Fields Too Large', 'headersTooLarge'] as const)
        : ([400, 'Bad Request', 'badRequest'] as const);
  return { status, reason, body: JSON.stringify(errorBody(error)) };
}

/**
 * Fastify's `clientErrorHandler` option: as Fastify's own (nothing for a reset connection, the answer
 * written on the socket, which is then closed), with the contract's body.
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, reason, body } = clientErrorAnswer(err.code);
  this.log.trace({ err }, 'client error');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
