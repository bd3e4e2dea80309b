import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../app.js';
import type { Db } from '../db/db.js';
import { type Config, throttleSettings } from '../env.js';

/** Configuration for tests: a fixed secret, the provider zone, no web app. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    databaseUrl: undefined,
    dataDir: '/nonexistent',
    tokenSecret: new TextEncoder().encode('test-secret-test-secret-test-secret-0123456789'),
    tokenTtlSeconds: 3600,
    timeZone: 'Europe/Vilnius',
    demoSize: 'none',
    logLevel: 'silent',
    loginRateLimit: 10_000,
    throttle: throttleSettings({}),
    trustProxy: false,
    webDir: undefined,
    ...overrides,
  };
}

export async function buildTestApp(db: Db, overrides: Partial<Config> = {}): Promise<FastifyInstance> {
  const app = await buildApp({ config: testConfig(overrides), db });
  await app.ready();
  return app;
}

/** `app.inject` with an optional bearer token; returns status and parsed JSON body. */
export async function call(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
  const res = await app.inject({
    method,
    url,
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
    ...(options.body === undefined ? {} : { payload: options.body as InjectOptions['payload'] }),
  });
  let body: unknown = res.body;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.statusCode, body, headers: res.headers };
}
