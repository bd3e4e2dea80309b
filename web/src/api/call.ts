import type { BodyOf, Endpoint, ErrorBody, ParamsOf, QueryOf, ResponseOf } from '@rodmenys/contract';
import { fillPath } from '@rodmenys/contract';
import { downloadBlob } from '../components/export/export-file';
import { clearSession, getSession } from '../storage';
import { translateFieldErrors, translateServerError } from './error-text';

export const API_BASE = '/api';

/**
 * A failed call: the HTTP status (0 when the server could not be reached), the server's error
 * code, its message and field errors in the UI language, and for a 429 the seconds the server
 * asks to wait (Retry-After).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: ErrorBody['errors'] = undefined,
    readonly retryAfter: number | undefined = undefined,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The error of a non-2xx answer, translated from its body's code (the body's message when the UI has none). */
  static fromBody(
    status: number,
    body: Partial<ErrorBody> | undefined,
    statusText = '',
    retryAfter: number | undefined = undefined,
  ): ApiError {
    const b = body ?? {};
    return new ApiError(
      status,
      translateServerError(b, statusText || `HTTP ${status}`),
      translateFieldErrors(b.errors),
      retryAfter,
      b.code,
    );
  }
}

type Part<K extends string, T> = T extends undefined ? { [P in K]?: undefined } : { [P in K]: T };
/** What a call needs: path parameters, query and body exactly as the contract declares them. */
export type CallArgs<E extends Endpoint> = Part<'params', ParamsOf<E>> &
  Partial<Part<'query', QueryOf<E>>> &
  Part<'body', BodyOf<E>> & {
    signal?: AbortSignal;
    /** Overrides the stored user's token (signing out after the user is already forgotten). */
    token?: string;
  };

type QueryValue = string | number | boolean | null | undefined;

/** `?a=1&b=x` of the query's set values (undefined, null and '' are left out), '' when none. */
export function queryString(query: object | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, QueryValue>)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The seconds of a Retry-After header given in seconds, else undefined. */
export function retryAfterOf(response: Response): number | undefined {
  const raw = response.headers.get('Retry-After');
  const seconds = raw && /^\d+$/.test(raw) ? Number(raw) : undefined;
  return seconds;
}

/** The Authorization header of `token`, by default the stored user's; none when signed out. */
/** A 401 from an endpoint for signed-in users means the session has ended: the app forgets it (sign-in page). */
export function forgetEndedSession(endpoint: Endpoint, status: number, code?: string): void {
  if (status === 401 && (endpoint.auth === 'user' || endpoint.auth === 'operator')) clearSession(code ?? null);
}

export const authHeaders = (token = getSession()?.Token): Record<string, string> =>
  token ? { Authorization: `Bearer ${token}` } : {};

type RawArgs = {
  params?: Record<string, string | number>;
  query?: object;
  body?: unknown;
  signal?: AbortSignal;
  token?: string;
};

/** The parsed JSON of an answer's body, undefined when it is empty or not JSON. */
async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends one request to an endpoint with the stored bearer token and returns the answer when it
 * is a 2xx. A failure becomes an `ApiError` in the UI language; a 401 on an endpoint that needs a
 * user clears the stored user (the route guard then shows /login). Every call, upload and
 * download goes through here.
 */
async function send(
  endpoint: Endpoint,
  a: RawArgs,
  init: { headers?: Record<string, string>; body?: BodyInit },
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${fillPath(endpoint.path, a.params)}${queryString(a.query)}`, {
      method: endpoint.method,
      headers: { ...authHeaders(a.token), ...init.headers },
      body: init.body,
      signal: a.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) {
    const data = (await jsonOf(response)) as Partial<ErrorBody> | undefined;
    forgetEndedSession(endpoint, response.status, data?.code);
    throw ApiError.fromBody(response.status, data, response.statusText, retryAfterOf(response));
  }
  return response;
}

/** Calls an API endpoint declared in the contract and returns its JSON answer, typed from the contract. */
export async function call<E extends Endpoint>(
  endpoint: E,
  // biome-ignore lint/complexity/noBannedTypes: "nothing required" is exactly the empty object type
  ...[args]: {} extends CallArgs<E> ? [CallArgs<E>?] : [CallArgs<E>]
): Promise<ResponseOf<E>> {
  const a = (args ?? {}) as RawArgs;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (a.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await send(endpoint, a, {
    headers,
    body: a.body === undefined ? undefined : JSON.stringify(a.body),
  });
  return (await jsonOf(response)) as ResponseOf<E>;
}

/** Sends a file as the raw body of an upload endpoint (with the endpoint's query, if any); the answer is its JSON. */
export async function uploadFile<E extends Endpoint>(
  endpoint: E,
  file: File,
  contentType: string,
  query?: QueryOf<E>,
  /** Another bearer than the signed-in user's (the occupant's session). */
  token?: string,
): Promise<ResponseOf<E>> {
  const response = await send(
    endpoint,
    { query: query as RawArgs['query'], ...(token === undefined ? {} : { token }) },
    {
      headers: {
        Accept: 'application/json',
        'Content-Type': contentType,
        'X-File-Name': encodeURIComponent(file.name),
      },
      body: file,
    },
  );
  return (await jsonOf(response)) as ResponseOf<E>;
}

/** Fetches a file endpoint (a template, an export, a PDF) with the bearer token: its bytes as a Blob. */
export async function fetchFile<E extends Endpoint>(endpoint: E, args: CallArgs<E>): Promise<Blob> {
  const response = await send(endpoint, args as RawArgs, {});
  return response.blob();
}

/** Fetches a file endpoint and saves it under `fileName` (named for what it holds, in the UI language). */
export async function downloadFile<E extends Endpoint>(
  endpoint: E,
  args: CallArgs<E>,
  fileName: string,
): Promise<void> {
  downloadBlob(await fetchFile(endpoint, args), fileName);
}
