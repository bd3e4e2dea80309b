import { randomBytes } from 'node:crypto';
import { buildApp } from '@rodmenys/server/app.js';
import type { Db } from '@rodmenys/server/db/db.js';
import { loadConfig } from '@rodmenys/server/env.js';
import { hashPassword } from '@rodmenys/server/services/auth/password.js';
import type { FastifyInstance } from 'fastify';

export interface BenchServer {
  app: FastifyInstance;
  /** e.g. http://127.0.0.1:41234/api */
  api: string;
  /** A real bearer token of a group-1 user, from POST /api/users/authenticate. */
  token: string;
  /** The whole sign-in answer (what the web client stores). */
  session: Record<string, unknown> & { Token: string };
  close(): Promise<void>;
}

/**
 * The real app (`buildApp`) on a free local port over `db`, and a signed-in
 * operator (group 1, sees everything) created for the benchmark.
 */
export async function startServer(
  db: Db,
  timeZone = 'Europe/Vilnius',
  options: {
    /** Serve the built web app from here (the UI benchmark). */ webDir?: string;
    /** Routes the benchmark adds before the server listens (e.g. an old path to compare with). */
    routes?: (app: FastifyInstance) => void;
  } = {},
): Promise<BenchServer> {
  const config = loadConfig({
    TOKEN_SECRET: randomBytes(48).toString('base64url'),
    TIME_ZONE: timeZone,
    WEB_DIR: options.webDir ?? '',
    LOGIN_RATE_LIMIT: '100000',
  });
  const username = `bench-${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('base64url');
  await db.query(
    `INSERT INTO app_user (username, password_hash, first_name, last_name, group_id) VALUES ($1, $2, 'Bench', 'Operator', 1)`,
    [username, await hashPassword(password)],
  );
  const app = await buildApp({ config, db });
  options.routes?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  // A benchmark may pause longer than the default keep-alive (72 s) between requests, e.g. while a slow
  // query runs: the client would then reuse a socket the server is closing (ECONNRESET).
  app.server.keepAliveTimeout = 30 * 60_000;
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const api = `http://127.0.0.1:${address.port}/api`;
  const res = await fetch(`${api}/users/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const session = (await res.json()) as BenchServer['session'];
  return { app, api, token: session.Token, session, close: () => app.close() };
}
