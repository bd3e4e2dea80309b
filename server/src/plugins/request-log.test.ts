import { GROUP, getAllUsers } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { Db } from '../db/db.js';
import { inject, testConfig } from '../test/app.js';
import { createTestDb, dbKind } from '../test/db.js';
import { makeSignedIn, type SignedIn } from '../test/factories.js';

/*
 * The server's log (docs/operations.md, "The log"): one line per request, naming its route as the
 * contract writes it, its status and time, never the values of its path or query string (a search
 * may be a person's name).
 */
describe(`the request log (${dbKind()})`, () => {
  let db: Db;
  let app: FastifyInstance;
  let operator: SignedIn;
  const log: string[] = [];
  const lines = () => log.map((l) => JSON.parse(l) as Record<string, unknown>);

  beforeAll(async () => {
    db = await createTestDb();
    app = await buildApp({
      config: testConfig(),
      db,
      logger: { level: 'info', stream: { write: (line: string) => log.push(line) } },
    });
    await app.ready();
    operator = await makeSignedIn(app, { groupId: GROUP.operator });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it('writes one line per request with the route, status and time, without the query or path values', async () => {
    const name = 'Petrauskienė Rasa';
    log.length = 0;
    const res = await inject(app, getAllUsers, {
      token: operator.token,
      query: { search: name, page: 1, pageSize: 5 },
    });
    expect(res.status).toBe(200);
    const notFound = await app.inject({ method: 'GET', url: `/api/no-such/${encodeURIComponent(name)}?q=${name}` });
    expect(notFound.statusCode).toBe(404);

    const requests = lines().filter((l) => l.msg === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ method: 'GET', route: '/api/users/getAll', status: 200, ms: expect.any(Number) }),
      expect.objectContaining({ method: 'GET', route: null, status: 404, ms: expect.any(Number) }),
    ]);
    // Nothing else about these requests: no line with the URL.
    expect(log.join('')).not.toContain('Petrauskien');
    expect(log.join('')).not.toContain(encodeURIComponent('Petrauskienė'));
    expect(lines().filter((l) => l.msg !== 'request')).toEqual([]);
  });
});
