import type { Endpoint, ResponseOf } from '@rodmenys/contract';
import Ajv from 'ajv';
import { vi } from 'vitest';

/** One request the page sent: method, path under /api, query and JSON body. */
export interface SentRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Answer<E extends Endpoint> = ResponseOf<E> | ((request: SentRequest) => ResponseOf<E>);
/** An endpoint and what the stubbed server answers it (a value, or a function of the request). */
export type StubRoute = readonly [Endpoint, Answer<Endpoint>];
/** Pairs an endpoint with its answer, typed from the contract. */
export const route = <E extends Endpoint>(endpoint: E, answer: Answer<E>): StubRoute => [
  endpoint,
  answer as Answer<Endpoint>,
];

// Unknown formats and keywords (date-time, descriptions) are not what this checks: the shape is.
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });

const matcherOf = (path: string) => new RegExp(`^/api${path.replace(/:[A-Za-z]+/g, '[^/]+')}$`);

/**
 * Stands in for the server at the HTTP boundary of a web unit test: `fetch` answers the listed
 * endpoints, and each answer is checked against the endpoint's response schema in the contract,
 * so a page is tested against what the server may return. Anything else answers 404, and an answer the contract does not allow 500 (both listed in
 * `unanswered`, which a test expects empty). Restored by `vi.unstubAllGlobals()`.
 */
export function stubApi(routes: readonly StubRoute[]) {
  const sent: SentRequest[] = [];
  const unanswered: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const request: SentRequest = { method, path: url.pathname, query: url.searchParams, body };
    sent.push(request);
    const found = routes.find(([e]) => e.method === method && matcherOf(e.path).test(url.pathname));
    if (!found) {
      unanswered.push(`${method} ${url.pathname}`);
      return new Response(JSON.stringify({ code: 'notFound', message: 'Not found' }), { status: 404 });
    }
    const [endpoint, answer] = found;
    const data = typeof answer === 'function' ? (answer as (r: SentRequest) => unknown)(request) : answer;
    const validate = ajv.compile(endpoint.response);
    if (!validate(data)) {
      const first = validate.errors?.[0];
      const problem = `${method} ${endpoint.path}: the stub's answer is not what the contract allows (${first?.instancePath}: ${first?.message})`;
      unanswered.push(problem);
      return new Response(JSON.stringify({ code: 'internal', message: problem }), { status: 500 });
    }
    return new Response(JSON.stringify(data), {
      status: endpoint.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return { sent, unanswered };
}
