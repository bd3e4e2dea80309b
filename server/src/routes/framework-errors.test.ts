import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_STATUSES, isErrorCode } from '@rodmenys/contract';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.js';
import { buildTestApp } from '../test/app.js';
import { createTestDb } from '../test/db.js';

// Every error the server sends, the framework's own too (a parameter longer than the router takes, a URL
// that is not one, bad JSON, a body too large or of a type not accepted, no such route, a header too
// large, a request that is not HTTP), is `{ code, message, … }` with a code of contract/src/errors.ts and a
// status the README lists (docs/ARCHITECTURE.md, "Errors").

/** The answer's status and body, checked against the contract's shape. */
function expectContractError(status: number, text: string, what: string) {
  expect(ERROR_STATUSES, `${what}: status ${status} ${text.slice(0, 200)}`).toContain(status);
  let body: { code?: unknown; message?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${what}: not JSON: ${status} ${text.slice(0, 200)}`);
  }
  expect(isErrorCode(body.code), `${what}: code ${String(body.code)} in ${text.slice(0, 200)}`).toBe(true);
  expect(typeof body.message, what).toBe('string');
  return body as { code: string; message: string; params?: Record<string, string> };
}

/** Sends raw bytes to the listening server and reads the whole answer. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString('latin1');
    });
    socket.on('error', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('connect', () => socket.write(request));
    setTimeout(() => reject(new Error(`no answer to ${request.slice(0, 60)}`)), 10_000).unref();
  });
}
const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4);

describe('the framework’s own errors', () => {
  let db: Db;
  let app: FastifyInstance;
  let port: number;
  const webDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-web-'));

  beforeAll(async () => {
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Rodmenys</title>');
    db = await createTestDb();
    app = await buildTestApp(db, { webDir });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  const cases: { what: string; status: number; code?: string; request: InjectOptions }[] = [
    {
      what: 'a path parameter of 5,000 characters',
      status: 414,
      code: 'pathTooLong',
      request: { method: 'GET', url: `/api/occupancies/flats/${'1'.repeat(5000)}` },
    },
    {
      what: 'a path parameter of 5,000 characters, signed in or not, on a route with two',
      status: 414,
      code: 'pathTooLong',
      request: { method: 'PUT', url: `/api/occupancies/move-values/1/${'x'.repeat(5000)}`, payload: {} },
    },
    {
      what: 'a path parameter that is not valid percent-encoding',
      status: 400,
      code: 'malformedUrl',
      request: { method: 'GET', url: '/api/occupancies/flats/%E0%A4%A' },
    },
    {
      what: 'bad JSON',
      status: 400,
      request: {
        method: 'POST',
        url: '/api/users/authenticate',
        headers: { 'content-type': 'application/json' },
        payload: '{"username":',
      },
    },
    {
      what: 'an empty JSON body',
      status: 400,
      request: {
        method: 'POST',
        url: '/api/users/authenticate',
        headers: { 'content-type': 'application/json' },
        payload: '',
      },
    },
    {
      what: 'an unsupported media type',
      status: 415,
      code: 'unsupportedMediaType',
      request: {
        method: 'POST',
        url: '/api/users/authenticate',
        headers: { 'content-type': 'application/xml' },
        payload: '<x/>',
      },
    },
    {
      what: 'a body too large',
      status: 413,
      code: 'bodyTooLarge',
      request: {
        method: 'POST',
        url: '/api/users/authenticate',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ username: 'x'.repeat(2_000_000) }),
      },
    },
    { what: 'no such route', status: 404, code: 'notFound', request: { method: 'GET', url: '/api/no-such-thing' } },
    {
      what: 'a method the route does not have',
      status: 404,
      code: 'notFound',
      request: { method: 'PATCH', url: '/api/users/authenticate', payload: {} },
    },
    {
      what: 'a range of the web app that is not there',
      status: 416,
      code: 'rangeNotSatisfiable',
      request: { method: 'GET', url: '/index.html', headers: { range: 'bytes=999999-' } },
    },
  ];

  for (const c of cases) {
    it(`${c.what}: ${c.status} in the contract's shape`, async () => {
      const res = await app.inject(c.request);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(c.status);
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      const body = expectContractError(res.statusCode, res.body, c.what);
      if (c.code) expect(body.code).toBe(c.code);
    });
  }

  it('a header too large (431) and a request that is not HTTP (400), over a real socket', async () => {
    const big = await raw(port, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(statusOf(big)).toBe(431);
    expect(expectContractError(431, bodyOf(big), 'header too large').code).toBe('headersTooLarge');
    const garbage = await raw(port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(statusOf(garbage)).toBe(400);
    expect(expectContractError(400, bodyOf(garbage), 'not HTTP').code).toBe('badRequest');
    const tooLong = await raw(
      port,
      `GET /api/occupancies/flats/${'9'.repeat(5000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(statusOf(tooLong)).toBe(414);
    expect(expectContractError(414, bodyOf(tooLong), 'long parameter').code).toBe('pathTooLong');
  });

  it('the README lists exactly the statuses an error answer can have', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const paragraph = /Errors are\s+`\{ "code"[\s\S]*?\n\n/.exec(readme)?.[0] ?? '';
    const listed = [...paragraph.matchAll(/\b([45]\d\d)\b/g)].map((m) => Number(m[1]));
    expect([...new Set(listed)].sort()).toEqual([...ERROR_STATUSES].sort());
  });
});
