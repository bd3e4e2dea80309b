import type { Endpoint } from '@rodmenys/contract';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import type { TSchema } from '@sinclair/typebox';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueLink } from '../services/occupant-access/secrets.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeOccupancy, makeReadings, makeSignedIn } from '../test/factories.js';
import { chirpstackRequest, ttsRequest } from '../test/lorawan-fuzz.js';

/**
 * Every endpoint of the contract, fed generated valid and hostile input as every
 * kind of caller: no answer may be a 5xx, every answer declared JSON must be
 * valid JSON (no NaN or Infinity), and the server must still answer afterwards
 * (docs/input-limits.md). Seeded, so a failure repeats: FUZZ_SEED
 * picks another seed, FUZZ_RUNS the inputs per endpoint and caller.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 16);

/**
 * What is wrong with an error answer's shape, if anything: every error, the framework's own too, is
 * `{ code, message, … }` with a code of contract/src/errors.ts and a status the README lists.
 */
function errorShapeProblem(status: number, text: string): string | null {
  if (status < 400) return null;
  if (!contract.ERROR_STATUSES.includes(status)) return `status ${status} not in ERROR_STATUSES`;
  try {
    const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (!contract.isErrorCode(parsed.code)) return `code ${String(parsed.code)} not in contract/src/errors.ts`;
    if (typeof parsed.message !== 'string') return 'no message';
    return null;
  } catch {
    return 'not JSON';
  }
}

/** Every endpoint declared in the contract, also those inside exported objects. */
function endpoints(): Endpoint[] {
  const isEndpoint = (v: unknown): v is Endpoint =>
    typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'auth' in v && 'response' in v;
  const found = new Set<Endpoint>();
  for (const value of Object.values(contract as Record<string, unknown>)) {
    if (isEndpoint(value)) found.add(value);
    else if (typeof value === 'object' && value !== null) {
      for (const inner of Object.values(value)) if (isEndpoint(inner)) found.add(inner);
    }
  }
  return [...found];
}

/** Marks a number JSON cannot carry; replaced by the bare token in the body text. */
const RAW = (token: string) => `@@RAW:${token}@@`;
const unRaw = (text: string) => text.replace(/@@RAW:([^@]+)@@/g, '$1');
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** Values no endpoint should choke on, whatever field they land in. */
const hostile = fc.constantFrom<unknown>(
  '\u0000',
  'a\u0000b',
  '',
  ' ',
  'x'.repeat(20_000),
  'trailing ',
  '\ud800',
  '🙂',
  "'; DROP TABLE app_user; --",
  '1e309',
  'Infinity',
  '-Infinity',
  'NaN',
  '2147483648',
  '-1',
  '0',
  '1.5',
  '9999-99-99',
  '2026-02-30',
  RAW('1e309'),
  RAW('-1e309'),
  2_147_483_648,
  -2_147_483_649,
  1e12,
  1e300,
  -1,
  0,
  0.5,
  true,
  null,
  [],
  {},
  [[[[[]]]]],
  { a: { b: { c: 1 } } },
);

/** A value of roughly the schema's shape, valid or nearly so. */
function shaped(schema: TSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return hostile;
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.anyOf)) return fc.oneof(...(s.anyOf as TSchema[]).map((x) => shaped(x, depth + 1)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if ('const' in s) return fc.constant(s.const);
  switch (type) {
    case 'integer':
      return fc.integer({
        min: Math.max(-2_147_483_648, Number(s.minimum ?? -5)),
        max: Math.min(2_147_483_647, Number(s.maximum ?? 20), Number(s.minimum ?? 0) + 20),
      });
    case 'number':
      return fc.double({ min: Number(s.minimum ?? -10), max: Number(s.maximum ?? 1e6), noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(shaped(s.items as TSchema, depth + 1), { maxLength: 3 });
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, TSchema>;
      return fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, shaped(v, depth + 1)])), {
        requiredKeys: (s.required as string[] | undefined) ?? [],
      });
    }
    case 'string': {
      const pattern = String(s.pattern ?? '');
      if (s.format === 'date-time' || pattern.includes('\\d{4}-\\d{2}-\\d{2}'))
        return fc.constantFrom('2026-01-01', '2026-01-31 23:59:59', '2025-12-01T00:00', '2026-01-15T10:00:00+02:00');
      if (kindOf(schema) === 'idList') return fc.constantFrom('1', '1,2,3', '2147483647');
      if (kindOf(schema) === 'month') return fc.constantFrom('2026-01', '2025-12', '1990-01');
      return fc.oneof(
        fc.string({ minLength: Number(s.minLength ?? 0), maxLength: Math.max(12, Number(s.minLength ?? 0)) }),
        fc.constantFrom('Lietuva', 'Vilnius', 'operator', 'password1', 'A-1'),
      );
    }
    default:
      return hostile;
  }
}

/** Valid-looking most of the time, hostile often enough. */
const field = (schema: TSchema | undefined) => fc.oneof({ weight: 3, arbitrary: shaped(schema) }, hostile);

/** An object of the schema's properties, each valid or hostile, sometimes with an unknown one. */
function objectOf(schema: TSchema | undefined): fc.Arbitrary<Record<string, unknown>> {
  const props = ((schema as Record<string, unknown> | undefined)?.properties ?? {}) as Record<string, TSchema>;
  return fc.record(
    {
      ...Object.fromEntries(Object.entries(props).map(([k, v]) => [k, field(v)])),
      zzExtra: hostile,
    },
    { requiredKeys: [] },
  );
}

/** JSON text with the RAW markers turned into bare number tokens. */
const jsonText = (value: unknown) => JSON.stringify(value).replace(/"@@RAW:([^@]+)@@"/g, '$1');

/** encodeURIComponent, but a lone surrogate becomes the invalid UTF-8 it would be (%ED%A0%80). */
const enc = (text: string) =>
  text
    .split(/([\ud800-\udfff])/)
    .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');

const queryText = (query: Record<string, unknown>) =>
  Object.entries(query)
    .map(([k, v]) => {
      const text = typeof v === 'string' ? unRaw(v) : jsonText(v);
      return `${enc(k)}=${enc(text)}`;
    })
    .join('&');

interface Request {
  url: string;
  method: Endpoint['method'];
  payload?: string | Buffer;
  contentType?: string;
}

/** Bodies of a JSON endpoint: the schema's shape (valid or hostile fields), and broken ones. */
function jsonBody(endpoint: Endpoint): fc.Arbitrary<{ payload?: string; contentType?: string }> {
  return fc.oneof(
    {
      weight: 6,
      arbitrary: objectOf(endpoint.body).map((b) => ({ payload: jsonText(b), contentType: 'application/json' })),
    },
    fc.constantFrom(
      { payload: `{"x":${deep(10_000)}}`, contentType: 'application/json' },
      { payload: `{"x":${deep(100)}}`, contentType: 'application/json' },
      { payload: '{"username":', contentType: 'application/json' },
      { payload: '', contentType: 'application/json' },
      { payload: '"text"', contentType: 'application/json' },
      { payload: '[1,2]', contentType: 'application/json' },
      { payload: '{"a":1e309,"b":NaN}', contentType: 'application/json' },
      { payload: '{"__proto__":{"x":1}}', contentType: 'application/json' },
      { payload: `{"x":"${'y'.repeat(300_000)}"}`, contentType: 'application/json' },
      { payload: '<x/>', contentType: 'application/xml' },
      { payload: 'a=1', contentType: 'application/x-www-form-urlencoded' },
      {},
    ),
  );
}

const TELEGRAM = '{"_":"telegram","meter":"multical21","id":"44556677","timestamp":"2026-01-10T00:00:00Z"';
/** Collector bodies: telegrams with hostile values, and broken JSON. */
const telegramBody = fc.oneof(
  fc
    .array(
      fc.record(
        { total_m3: hostile, id: fc.oneof(fc.constant('44556677'), hostile), extra: hostile },
        { requiredKeys: [] },
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((ts) => `[${ts.map((t) => `${TELEGRAM},${jsonText(t).slice(1)}`).join(',')}]`),
  fc.constantFrom(
    `${TELEGRAM},"x":${deep(10_000)}}`,
    `${TELEGRAM},"total_m3":1e309}`,
    `${TELEGRAM},"total_m3":"\\u0000"}`,
    `${TELEGRAM},"total_m3":"Infinity"}`,
    `${TELEGRAM},"set_date":"2026-99-99","set_total_m3":1e400}`,
    `${TELEGRAM}}\n${TELEGRAM}}\n}`,
    `[${TELEGRAM}},}]`,
    '\u0000',
    '',
  ),
);
/** CSV lines with hostile serials, times and values. */
const csvBody = fc
  .array(
    fc.tuple(
      fc.constantFrom('44556677', '44556677 ', ' 44556677', '', 'x'.repeat(100), 'a"b', '\u0000'),
      fc.constantFrom('2026-01-05 00:00', '2026-13-45 99:99', '', '1e309', '2026-01-05T00:00:00+99:00'),
      fc.constantFrom('1,5', '1.5', 'Infinity', 'NaN', '1e309', '-1', '99999999999999999999999999', ''),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((lines) => `${lines.map((l) => l.join(';')).join('\n')}\n`);

function requests(endpoint: Endpoint): fc.Arbitrary<Request> {
  const pathParams = objectOf(endpoint.params).map((p) =>
    contract.fillPath(
      endpoint.path,
      Object.fromEntries(
        [...endpoint.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => {
          const v = p[name!];
          const text = v === undefined ? '1' : typeof v === 'string' ? unRaw(v) : jsonText(v);
          return [name!, text === '' ? '1' : text.replace(/[\ud800-\udfff]/g, '\ufffd')];
        }),
      ),
    ),
  );
  const query = objectOf(endpoint.querystring).map(queryText);
  let body: fc.Arbitrary<{ payload?: string | Buffer; contentType?: string }> = fc.constant({});
  if (endpoint === contract.ingestChirpstack) {
    // The event is in the query: the LNS's own names and others (docs/lorawan.md).
    return fc.record({ path: pathParams, r: chirpstackRequest }).map(({ path, r }) => ({
      url: `/api${path}?${r.query}`,
      method: endpoint.method,
      payload: r.payload,
      contentType: r.contentType,
    }));
  }
  if (
    endpoint === contract.ingestTtsUplink ||
    endpoint === contract.ingestTtsJoin ||
    endpoint === contract.ingestTtsEvents
  ) {
    body = ttsRequest;
  } else if (endpoint === contract.ingestWmbusmeters) {
    body = fc
      .tuple(telegramBody, fc.constantFrom('application/json', 'application/x-ndjson', 'text/plain', 'text/xml'))
      .map(([payload, contentType]) => ({ payload, contentType }));
  } else if (endpoint === contract.importCsv) {
    body = fc
      .tuple(csvBody, fc.constantFrom('text/csv', 'text/plain', 'application/json'))
      .map(([payload, contentType]) => ({
        payload,
        contentType,
      }));
  } else if (endpoint === contract.previewRegisterImport || endpoint === contract.applyRegisterImport) {
    body = fc.oneof(
      csvBody.map((payload) => ({ payload, contentType: 'text/csv' })),
      fc
        .uint8Array({ maxLength: 200 })
        .map((b) => ({ payload: Buffer.from(b).toString('latin1'), contentType: 'application/octet-stream' })),
      fc.constant({
        payload: 'PK\u0003\u0004garbage',
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      }),
    );
  } else if (endpoint.method !== 'GET' && endpoint.method !== 'DELETE') {
    body = jsonBody(endpoint);
  } else {
    body = fc.oneof({ weight: 5, arbitrary: fc.constant({}) }, jsonBody(endpoint));
  }
  return fc.record({ path: pathParams, query, body }).map(({ path, query, body }) => ({
    url: `/api${path}${query ? `?${query}` : ''}`,
    method: endpoint.method,
    ...body,
  }));
}

/** What a parameter's schema says it is, read from the schema (its pattern, format and bounds). */
type Kind = 'id' | 'idList' | 'month' | 'day' | 'other';
function kindOf(schema: TSchema | undefined): Kind {
  const s = (schema ?? {}) as Record<string, unknown>;
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'integer') return 'id';
  if (type !== 'string' || typeof s.pattern !== 'string') return 'other';
  const re = new RegExp(s.pattern, 'u');
  if (re.test('1,2') && re.test('12')) return 'idList';
  if (re.test('2026-01') && !re.test('2026-01-01')) return 'month';
  if (re.test('2026-01-01') && !re.test('2026-01')) return 'day';
  return 'other';
}

const BOUNDARY_INTEGERS = ['0', '-1', '2147483647', '2147483648', '9999999999'];
/** The boundary values of each kind: ids at and beyond PostgreSQL `integer`, years 0000 and 9999, impossible days. */
const BOUNDARIES: Record<Exclude<Kind, 'other'>, string[]> = {
  id: BOUNDARY_INTEGERS,
  idList: [...BOUNDARY_INTEGERS, '1,2147483648', '2147483647,1', '00000000001'],
  month: ['0000-01', '9999-12', '2026-13', '2026-00', '2024-02', '1989-12', '2201-01'],
  day: [
    '0000-01-01',
    '9999-12-31',
    '2024-02-29',
    '2026-02-29',
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '0000-01-01 00:00:00',
    '2026-02-30 23:59:59',
  ],
};

/** A valid value of a schema (the first enum value, the lower bound, a plain day, month or id). */
function validValue(schema: TSchema | undefined, name = ''): unknown {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (Array.isArray(s.anyOf)) return validValue((s.anyOf as TSchema[])[0], name);
  if (Array.isArray(s.enum)) return s.enum[0];
  if ('const' in s) return s.const;
  if ('default' in s) return s.default;
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(1, Number(s.minimum ?? 1));
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, TSchema>;
      const required = (s.required as string[] | undefined) ?? [];
      return Object.fromEntries(required.map((k) => [k, validValue(props[k], k)]));
    }
    case 'string': {
      const kind = kindOf(schema);
      if (kind === 'month') return '2026-01';
      if (kind === 'day') return /till|to$/i.test(name) ? '2026-01-31' : '2026-01-01';
      if (kind === 'idList') return '1';
      if (s.format === 'date-time' || String(s.pattern ?? '').includes('\\d{4}')) return '2026-01-01T00:00:00+02:00';
      return 'x'.repeat(Math.max(1, Number(s.minLength ?? 1)));
    }
    default:
      return 'x';
  }
}

/** Path parameters just over the router's limit, and far over it (the router answers these itself). */
const OVERLONG = ['1'.repeat(contract.MAX_PATH_PARAM_CHARS + 1), '2026-01-01'.padEnd(5000, 'x')];

/**
 * For every path, query and top-level body parameter of an id, id-list, month or day type, its boundary
 * requests; for every path parameter, overlong values.
 */
function boundaryRequests(endpoint: Endpoint): { what: string; url: string; payload?: string; overlong: boolean }[] {
  const parts = { params: endpoint.params, querystring: endpoint.querystring, body: endpoint.body } as const;
  const valid = Object.fromEntries(
    Object.entries(parts).map(([part, schema]) => [part, (validValue(schema) ?? {}) as Record<string, unknown>]),
  ) as Record<keyof typeof parts, Record<string, unknown>>;
  const out: { what: string; url: string; payload?: string; overlong: boolean }[] = [];
  for (const [part, schema] of Object.entries(parts) as [keyof typeof parts, TSchema | undefined][]) {
    const props = ((schema as Record<string, unknown> | undefined)?.properties ?? {}) as Record<string, TSchema>;
    for (const [name, prop] of Object.entries(props)) {
      const kind = kindOf(
        (prop as Record<string, unknown>).anyOf ? ((prop as Record<string, unknown>).anyOf as TSchema[])[0] : prop,
      );
      const values = [...(kind === 'other' ? [] : BOUNDARIES[kind]), ...(part === 'params' ? OVERLONG : [])];
      for (const value of values) {
        const input = {
          ...valid,
          [part]: { ...valid[part], [name]: part === 'body' && kind === 'id' ? Number(value) : value },
        };
        const path = contract.fillPath(
          endpoint.path,
          Object.fromEntries(Object.entries(input.params).map(([k, v]) => [k, String(v)])),
        );
        const query = queryText(input.querystring);
        out.push({
          what: `${part}.${name}=${value}`,
          overlong: part === 'params' && OVERLONG.includes(value),
          url: `/api${path}${query ? `?${query}` : ''}`,
          ...(endpoint.body ? { payload: JSON.stringify(input.body) } : {}),
        });
      }
    }
  }
  return out;
}

describe(`every endpoint with generated and hostile input (${dbKind()})`, () => {
  const t = useApp();
  const callers: { name: string; headers: Record<string, string> }[] = [];

  beforeAll(async () => {
    const building = await makeBuilding(t.db, { city: 'Vilnius', street: 'Fuzz g.', number: '1' });
    const flat = await makeFlat(t.db, building, { name: '1' });
    const device = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: '44556677' });
    await makeReadings(t.db, device, [
      ['2026-01-01T00:00:00+02:00', '10.5'],
      ['2026-01-20T00:00:00+02:00', '12.25'],
    ]);
    const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    const admin = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [building.path.at(-4)!] });
    const manager = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [building] });
    const key = (await inject(t.app, contract.createCollectorKey, { token: operator.token, body: { name: 'fuzz' } }))
      .body.Key;
    // Network-server connections of both kinds serving the building, and a device with a DevEUI there.
    const lnsKey = async (kind: 'chirpstack' | 'tts') =>
      (
        await inject(t.app, contract.createLnsConnection, {
          token: operator.token,
          body: { kind, name: `fuzz ${kind}`, locationIds: [building.id] },
        })
      ).body.Key;
    await t.db.query("UPDATE device SET dev_eui = '70B3D5E75E00F001', model = 'Qalcosonic W1' WHERE id = $1", [device]);
    // An occupant's session, so the occupant's endpoints judge their parameters too.
    const occupancy = await makeOccupancy(t.db, flat);
    const link = await issueLink(t.db, occupancy);
    const occupant = (await inject(t.app, contract.signInOccupantByLink, { body: { token: link } })).body.Token;
    callers.push(
      { name: 'anonymous', headers: {} },
      { name: 'occupant', headers: { authorization: `Bearer ${occupant}` } },
      { name: 'group 3', headers: { authorization: `Bearer ${manager.token}` } },
      { name: 'group 2', headers: { authorization: `Bearer ${admin.token}` } },
      { name: 'group 1', headers: { authorization: `Bearer ${operator.token}` } },
      { name: 'collector', headers: { 'x-collector-key': key } },
      { name: 'lns', headers: { 'x-rodmenys-key': await lnsKey('chirpstack') } },
      { name: 'lns', headers: { authorization: `Bearer ${await lnsKey('tts')}` } },
    );
  });

  it('answers no 5xx, only valid JSON and errors in the contract’s shape, and stays healthy', {
    timeout: 600_000,
  }, async () => {
    const all = endpoints();
    expect(all.length).toBeGreaterThan(35);
    let sent = 0;
    const failures: string[] = [];
    for (const [e, endpoint] of all.entries()) {
      const roles = callers.filter(
        (c) => !['collector', 'lns', 'occupant'].includes(c.name) || endpoint.auth === c.name,
      );
      for (const [r, caller] of roles.entries()) {
        const inputs = fc.sample(requests(endpoint), { seed: SEED + e * 100 + r, numRuns: RUNS });
        for (const req of inputs) {
          const options: InjectOptions = {
            method: req.method,
            url: req.url,
            headers: { ...caller.headers, ...(req.contentType ? { 'content-type': req.contentType } : {}) },
            ...(req.payload === undefined ? {} : { payload: req.payload }),
          };
          const res = await t.app.inject(options);
          sent++;
          const what = `${caller.name} ${req.method} ${req.url.slice(0, 200)} ${String(req.payload ?? '').slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
          if (res.statusCode >= 500) failures.push(what);
          const type = String(res.headers['content-type'] ?? '');
          const declaredJson = !(endpoint.produces && res.statusCode < 300) && res.statusCode !== 204;
          if (declaredJson) {
            if (!type.startsWith('application/json')) failures.push(`not JSON: ${what}`);
            else {
              try {
                JSON.parse(res.body);
              } catch {
                failures.push(`invalid JSON: ${what}`);
              }
            }
          }
          const problem = errorShapeProblem(res.statusCode, res.body);
          if (problem) failures.push(`${problem}: ${what}`);
        }
      }
    }
    console.log(`fuzz (${dbKind()}): ${sent} requests to ${all.length} endpoints, seed ${SEED}`);
    expect(failures.slice(0, 20)).toEqual([]);
    // Still healthy: a fresh account signs in and reads itself; the database answers.
    const fresh = await makeSignedIn(t.app, { groupId: GROUP.user });
    expect((await inject(t.app, contract.getUser, { params: { id: fresh.id }, token: fresh.token })).status).toBe(200);
    expect((await t.db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
  it('answers no 5xx and errors in the contract’s shape to the boundary values of every id, id list, month and day parameter, and to overlong path parameters', {
    timeout: 600_000,
  }, async () => {
    let sent = 0;
    let overlong = 0;
    const failures: string[] = [];
    for (const endpoint of endpoints()) {
      if (endpoint.method !== 'GET' && endpoint.consumes && !endpoint.consumes.includes('application/json')) continue;
      const roles = callers.filter(
        (c) => !['collector', 'lns', 'occupant'].includes(c.name) || endpoint.auth === c.name,
      );
      for (const req of boundaryRequests(endpoint)) {
        for (const caller of roles) {
          const res = await t.app.inject({
            method: endpoint.method,
            url: req.url,
            headers: {
              ...caller.headers,
              ...(req.payload === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(req.payload === undefined ? {} : { payload: req.payload }),
          });
          sent++;
          const what = `${caller.name} ${endpoint.method} ${endpoint.path} ${req.what.slice(0, 60)} → ${res.statusCode} ${res.body.slice(0, 160)}`;
          if (res.statusCode >= 500) failures.push(what);
          const problem = errorShapeProblem(res.statusCode, res.body);
          if (problem) failures.push(`${problem}: ${what}`);
          if (req.overlong) overlong++;
        }
      }
    }
    console.log(
      `boundaries (${dbKind()}): ${sent} requests (${overlong} with an overlong path parameter), ${failures.length} failures`,
    );
    expect(sent).toBeGreaterThan(500);
    expect(overlong).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  });
});
