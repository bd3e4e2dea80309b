import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { Endpoint } from './endpoint.js';
import * as contract from './index.js';
import { inputProblems, jsonDepthExceeded, MAX_INT, MAX_JSON_DEPTH, MAX_TEXT_LENGTH } from './input.js';

function endpoints(): Endpoint[] {
  const isEndpoint = (v: unknown): v is Endpoint =>
    typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'auth' in v && 'response' in v;
  const found = new Set<Endpoint>();
  for (const value of Object.values(contract as Record<string, unknown>)) {
    if (isEndpoint(value)) found.add(value);
    else if (typeof value === 'object' && value !== null)
      for (const inner of Object.values(value)) if (isEndpoint(inner)) found.add(inner);
  }
  return [...found];
}

/** Every number schema in a request schema without both bounds inside PostgreSQL's `integer` / MAX_READING. */
function unbounded(schema: TSchema | undefined, at: string, out: string[]): string[] {
  if (!schema || typeof schema !== 'object') return out;
  const s = schema as Record<string, unknown>;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if ((types.includes('integer') || types.includes('number')) && !('const' in s) && !Array.isArray(s.enum)) {
    const min = s.minimum ?? s.exclusiveMinimum;
    const max = s.maximum ?? s.exclusiveMaximum;
    // integer: PostgreSQL `integer`; a decimal: at most 15 digits, as numeric and a JavaScript number keep exactly
    const limit = types.includes('integer') ? MAX_INT : 1e15;
    const ok = typeof min === 'number' && typeof max === 'number' && min >= -limit - 1 && max <= limit;
    if (!ok) out.push(at);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    if (Array.isArray(s[key])) for (const [i, x] of (s[key] as TSchema[]).entries()) unbounded(x, `${at}|${i}`, out);
  if (s.items) unbounded(s.items as TSchema, `${at}[]`, out);
  if (s.properties)
    for (const [k, v] of Object.entries(s.properties as Record<string, TSchema>)) unbounded(v, `${at}.${k}`, out);
  return out;
}

describe('input limits of the contract', () => {
  it('every number an endpoint takes has a minimum and a maximum a database column can hold', () => {
    const found = endpoints().flatMap((e) =>
      (['params', 'querystring', 'body'] as const).flatMap((part) =>
        unbounded(e[part], `${e.method} ${e.path} ${part}`, []),
      ),
    );
    expect(found).toEqual([]);
  });

  it('inputProblems names U+0000, non-finite numbers and over-long text by field', () => {
    expect(
      inputProblems({ a: 'x\u0000', b: [1, Number.POSITIVE_INFINITY], c: { d: 'y'.repeat(MAX_TEXT_LENGTH + 1) } }).map(
        (p) => p.field,
      ),
    ).toEqual(['a', 'b.1', 'c.d']);
    expect(inputProblems({ a: 'fine', b: [1, 2.5], c: null, d: true })).toEqual([]);
  });

  it('jsonDepthExceeded counts brackets outside strings, in one pass', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(jsonDepthExceeded(deep(MAX_JSON_DEPTH))).toBe(-1);
    expect(jsonDepthExceeded(deep(MAX_JSON_DEPTH + 1))).toBe(MAX_JSON_DEPTH);
    expect(jsonDepthExceeded(`{"a":"${'['.repeat(1000)}\\"["}`)).toBe(-1);
  });
});
