import * as contract from '@rodmenys/contract';
import { GROUP } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrimaryCluster, startPostgres } from '../../../scripts/pg-cluster.mjs';
import { buildApp } from '../app.js';
import { inject, testConfig } from '../test/app.js';
import { makeSignedIn, type SignedIn } from '../test/factories.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { openPostgres } from './postgres.js';

// docs/operations.md, "The database away": a real PostgreSQL server stopped under the running
// app and started again. Every request answers 503 with Retry-After and the translated code,
// the log has no stack trace, and the app recovers by itself.

describe('the database away (postgres stopped and started)', () => {
  let cluster: PrimaryCluster;
  let db: Db;
  let app: FastifyInstance;
  let user: SignedIn;
  const log: string[] = [];

  beforeAll(async () => {
    cluster = await startPostgres();
    db = openPostgres(cluster.url, 'Europe/Vilnius');
    await migrate(db);
    app = await buildApp({
      config: testConfig({ databaseUrl: cluster.url }),
      db,
      logger: { level: 'info', stream: { write: (line: string) => log.push(line) } },
    });
    await app.ready();
    user = await makeSignedIn(app, { groupId: GROUP.operator });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await cluster?.stop();
  });

  it('answers 503 with Retry-After while it is stopped, and recovers when it is back', async () => {
    expect((await inject(app, contract.getReady, {})).status).toBe(200);
    expect((await inject(app, contract.getUser, { params: { id: user.id }, token: user.token })).status).toBe(200);

    await cluster.halt();
    log.length = 0;
    const answers = [
      await inject(app, contract.getReady, {}),
      await inject(app, contract.getUser, { params: { id: user.id }, token: user.token }),
      await inject(app, contract.authenticate, { body: { username: 'nobody', password: 'password1' } }),
      await inject(app, contract.importCsv, {
        body: 'X;2026-01-01T00:00:00Z;1',
        token: user.token,
        headers: { 'content-type': 'text/csv' },
      }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toMatchObject({ code: 'databaseUnavailable' });
    }
    // The process itself still answers.
    expect((await inject(app, contract.getHealth, {})).status).toBe(200);
    const logged = log.join('');
    expect(logged).toContain('database unavailable');
    expect(logged).not.toMatch(/"stack"|\n\s+at /);
    expect(logged).not.toContain('"level":50');

    await cluster.resume();
    let ready = await inject(app, contract.getReady, {});
    for (let i = 0; i < 50 && ready.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      ready = await inject(app, contract.getReady, {});
    }
    expect(ready.body).toEqual({ Status: 'ok', Database: 'ok', Standby: 'none' });
    expect((await inject(app, contract.getUser, { params: { id: user.id }, token: user.token })).status).toBe(200);
  });
});
