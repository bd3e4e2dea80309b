import {
  type BodyOf,
  type Endpoint,
  type ErrorBody,
  fillPath,
  GROUP,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
} from '@rodmenys/contract';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.js';
import type { Db } from '../db/db.js';
import { type Config, throttleSettings } from '../env.js';
import { createTestDb, ready, type TestDb } from './db.js';
import { makeBuilding, makeSignedIn, type SignedIn } from './factories.js';

/** Configuration for tests: a fixed secret, the provider zone, no web app. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    databaseUrl: undefined,
    dataDir: '/nonexistent',
    tokenSecret: new TextEncoder().encode('test-secret-test-secret-test-secret-0123456789'),
    keyEncryptionKey: Buffer.alloc(32, 7),
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

/** The app on `db`, ready for `inject`. The caller closes it; test files use `useApp()`. */
export async function buildTestApp(db: Db, overrides: Partial<Config> = {}): Promise<FastifyInstance> {
  const app = await buildApp({ config: testConfig(overrides), db });
  await app.ready();
  return app;
}

/** What `useApp()` gives a test file: the app and its database, there from `beforeAll` on. */
export interface TestApp extends TestDb {
  readonly app: FastifyInstance;
}

/**
 * The whole app on a fresh migrated database for the test file (or `describe`
 * block) that calls it, built before its first test and closed, database and all,
 * after its last: the teardown is registered here, so no file writes its own.
 * Call it before the file's own `beforeAll` that builds the world.
 */
export function useApp(config: Partial<Config> = {}): TestApp {
  let db: Db | undefined;
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    db = await createTestDb();
    app = await buildTestApp(db, config);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });
  return {
    get app() {
      return ready(app, 'useApp().app');
    },
    get db() {
      return ready(db, 'useApp().db');
    },
  };
}

type QueryValue = string | number | boolean | readonly (string | number)[];
/** The endpoint's query names, each with its declared type or any text (to send bad input on purpose). */
type LooseQuery<Q> = [Q] extends [undefined] ? never : { [K in keyof Q]?: Q[K] | QueryValue };
type LooseParams<P> = [P] extends [undefined] ? never : { [K in keyof P]: P[K] | string | number };

export interface InjectArgs<E extends Endpoint> {
  params?: LooseParams<ParamsOf<E>>;
  /** The query, by the contract's names (an array repeats the name); or a raw query string. */
  query?: LooseQuery<QueryOf<E>> | string;
  /** The body as the contract declares it. */
  body?: BodyOf<E>;
  /** A body outside the contract, sent as it is: malformed input, a file's text. */
  payload?: InjectOptions['payload'];
  /** Sent as `Authorization: Bearer <token>` (a sign-in token or a collector key). */
  token?: string;
  headers?: Record<string, string>;
  /** The caller's address (default 127.0.0.1). */
  remoteAddress?: string;
}

/** An answer: the status, the body typed by the contract, and the same body as an error. */
export interface Reply<E extends Endpoint> {
  status: number;
  /** The parsed JSON body as the endpoint's success response (the text when it is not JSON). */
  body: ResponseOf<E>;
  /** The same body as the error every non-2xx answer carries. */
  error: ErrorBody;
  text: string;
  raw: Buffer;
  headers: Record<string, unknown>;
}

/** `?a=1&b=2&b=3` of a query object (arrays repeat the name; undefined is left out). */
export function queryString(query: object | string | undefined): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query ? `?${query.replace(/^\?/, '')}` : '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The URL of an endpoint with its path parameters and query. */
export const urlOf = <E extends Endpoint>(endpoint: E, args: Pick<InjectArgs<E>, 'params' | 'query'> = {}) =>
  `/api${fillPath(endpoint.path, args.params as Record<string, string | number> | undefined)}${queryString(args.query)}`;

/** Calls `app.inject` on an URL and parses the answer; `inject` is the typed way. */
export async function injectUrl<E extends Endpoint = Endpoint>(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  args: Omit<InjectArgs<E>, 'params' | 'query'> = {},
): Promise<Reply<E>> {
  const payload = args.body !== undefined ? args.body : args.payload;
  const res = await app.inject({
    method,
    url,
    headers: { ...(args.token ? { authorization: `Bearer ${args.token}` } : {}), ...args.headers },
    ...(args.remoteAddress ? { remoteAddress: args.remoteAddress } : {}),
    ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
  });
  let body: unknown = res.body;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return {
    status: res.statusCode,
    body: body as ResponseOf<E>,
    error: body as ErrorBody,
    text: res.body,
    raw: res.rawPayload,
    headers: res.headers,
  };
}

/**
 * Calls a contract endpoint in-process: the path filled from `params`, the query
 * string built from `query`, the body from `body` (or `payload` off the contract),
 * the answer typed as the endpoint's response.
 */
export function inject<E extends Endpoint>(app: FastifyInstance, endpoint: E, args: InjectArgs<E> = {}) {
  return injectUrl<E>(app, endpoint.method, urlOf(endpoint, args), args);
}

/** The users' tests' world: two buildings, an operator, and an admin with rights on the first only. */
export interface UsersWorld {
  operator: SignedIn;
  admin: SignedIn;
  building: number;
  otherBuilding: number;
}

/** Builds a {@link UsersWorld} in `t`'s database before the file's tests; read it inside tests. */
export function useUsersWorld(t: TestApp): UsersWorld {
  const world: Partial<UsersWorld> = {};
  beforeAll(async () => {
    world.building = (await makeBuilding(t.db, { city: 'Vilnius', street: 'Gedimino pr.', number: '12' })).id;
    world.otherBuilding = (await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: '3' })).id;
    world.operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    world.admin = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [world.building] });
  });
  return {
    get operator() {
      return ready(world.operator, 'useUsersWorld().operator');
    },
    get admin() {
      return ready(world.admin, 'useUsersWorld().admin');
    },
    get building() {
      return ready(world.building, 'useUsersWorld().building');
    },
    get otherBuilding() {
      return ready(world.otherBuilding, 'useUsersWorld().otherBuilding');
    },
  };
}
