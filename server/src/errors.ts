import { type ErrorCode, type ErrorParams, errorText } from '@rodmenys/contract';

/** One field at fault in a 400 answer. */
export interface FieldError {
  field: string;
  code: ErrorCode | string;
  params?: ErrorParams;
  message: string;
}

/**
 * An error with an HTTP status, a stable code from the contract's ERROR_MESSAGES and its
 * params; the message is the English text. The web app translates the code (docs/ARCHITECTURE.md, "Errors").
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    readonly params: ErrorParams = {},
    readonly errors?: FieldError[],
    /** Headers the answer carries (Retry-After on a 429). */
    readonly headers?: Record<string, string>,
    /** The English text when it is not the code's own (several field errors joined). */
    message?: string,
  ) {
    super(withoutStack(statusCode, message ?? errorText(code, params)));
    if (savedStackLimit !== undefined) {
      Error.stackTraceLimit = savedStackLimit;
      savedStackLimit = undefined;
    }
  }
}

let savedStackLimit: number | undefined;
/**
 * `text`, after turning off the stack capture of the Error about to be built when it is a client's
 * error (below 500): such an error is an answer, never logged with a stack (plugins/errors.ts), and
 * capturing one cost a refused request about as much CPU as its answer (docs/benchmarks.md,
 * "LoRaWAN ingest"). HttpError's constructor turns it on again right after.
 */
function withoutStack(statusCode: number, text: string): string {
  if (statusCode < 500) {
    savedStackLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
  }
  return text;
}

/** A 400; with `field`, the answer's `errors` names that field with the same code. */
export function badRequest(code: ErrorCode, params: ErrorParams = {}, field?: string): HttpError {
  const withField = field && !params.field ? { field, ...params } : params;
  return new HttpError(
    400,
    code,
    withField,
    field ? [{ field, code, params: withField, message: errorText(code, withField) }] : undefined,
  );
}
export const unauthorized = (code: ErrorCode = 'signInFirst', params?: ErrorParams) => new HttpError(401, code, params);
export const forbidden = (code: ErrorCode = 'forbidden', params?: ErrorParams) => new HttpError(403, code, params);
export const notFound = (code: ErrorCode = 'notFound', params?: ErrorParams) => new HttpError(404, code, params);
export const conflict = (code: ErrorCode, params?: ErrorParams) => new HttpError(409, code, params);
/** 429; `retryAfterSeconds` becomes the Retry-After header. */
export const tooManyRequests = (code: ErrorCode, params?: ErrorParams, retryAfterSeconds?: number) =>
  new HttpError(
    429,
    code,
    params,
    undefined,
    retryAfterSeconds === undefined ? undefined : { 'retry-after': String(retryAfterSeconds) },
  );
