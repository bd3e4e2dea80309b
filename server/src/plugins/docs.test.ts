import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { DEVICE_TYPE } from '@rodmenys/contract';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { injectUrl, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { toOpenApi30 } from './docs.js';

/**
 * Redocly's recommended rules, but two: `info-license` (the product is not published under
 * a licence) and `no-ambiguous-paths` (`/devices/{id}/history` beside the old client's
 * `/devices/UserLocationRights/{userId}`: the fixed segment wins in the router, and the
 * old path stays). docs/input-limits.md, "The OpenAPI document".
 */
const WAIVED = { 'info-license': 'off', 'no-ambiguous-paths': 'off' } as const;

/** A few calls of a client typed by the generated paths; a wrong one must not compile. */
const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const client = createClient<paths>({ baseUrl: 'http://localhost' });

export async function calls(): Promise<number> {
  const session = await client.POST('/api/users/authenticate', { body: { username: 'operator', password: 'secret' } });
  const token: string | undefined = session.data?.Token;
  const headers = { authorization: \`Bearer \${token}\` };
  const readings = await client.GET('/api/devices/GetDevicesData', {
    params: { query: { dateFrom: '2026-01-01', dateTill: '2026-01-31', deviceTypeId: ${DEVICE_TYPE.coldWaterMeter}, locationParentId: '12,40' } },
    headers,
  });
  const first: number | undefined = readings.data?.[0]?.DeviceId;
  const user = await client.GET('/api/users/{id}', { params: { path: { id: 1 } }, headers });
  const name: string | undefined = user.data?.Username;
  const pdf = await client.GET('/api/statements/pdf', { params: { query: { month: '2026-01' } }, parseAs: 'blob', headers });
  // @ts-expect-error deviceTypeId is required
  await client.GET('/api/devices/GetDevicesData', { params: { query: { dateFrom: '2026-01-01', dateTill: '2026-01-31' } } });
  // @ts-expect-error there is no such path
  await client.GET('/api/devices/NoSuchThing');
  return (first ?? 0) + (name?.length ?? 0) + (pdf.data?.size ?? 0);
}
`;

/** Type errors of the generated client and CLIENT, compiled strictly. */
function compile(dir: string): string[] {
  const require = createRequire(import.meta.url);
  const fetchTypes = path.join(path.dirname(require.resolve('openapi-fetch')), 'index.d.mts');
  const program = ts.createProgram([path.join(dir, 'client.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    skipLibCheck: true,
    paths: { 'openapi-fetch': [fetchTypes] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}

describe(`the OpenAPI document (${dbKind()})`, () => {
  const t = useApp();
  let doc: Record<string, unknown>;
  beforeAll(async () => {
    const res = await injectUrl(t.app, 'GET', '/api/docs/json');
    expect(res.status).toBe(200);
    doc = res.body as Record<string, unknown>;
  });

  it("is clean under Redocly's recommended rules", async () => {
    const config = await createConfig({ extends: ['recommended'], rules: WAIVED });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: '/api/docs/json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('names every operation once, declares sign-in open and every download a 2xx', () => {
    const operations = Object.values(doc.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(
      (item) => Object.values(item),
    );
    const ids = operations.map((o) => o.operationId);
    expect(operations.length).toBeGreaterThan(60);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;
    expect(paths['/api/users/authenticate']?.post).toMatchObject({ operationId: 'authenticate', security: [] });
    expect(paths['/api/statements/pdf']?.get?.responses).toMatchObject({
      200: { content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
    });
  });

  it('writes exclusive bounds as OpenAPI 3.0 does', () => {
    expect(toOpenApi30({ a: { type: 'number', exclusiveMinimum: 0, maximum: 9 } })).toEqual({
      a: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 9 },
    });
    expect(JSON.stringify(doc)).not.toMatch(/"exclusiveM(in|ax)imum":\d/);
  });

  it('gives a client generated by openapi-typescript that compiles against a few calls', {
    timeout: 120_000,
  }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-openapi-'));
    try {
      writeFileSync(path.join(dir, 'api.ts'), astToString(await openapiTS(doc as never)));
      writeFileSync(path.join(dir, 'client.ts'), CLIENT);
      expect(compile(dir)).toEqual([]);
      // The check can fail: a call the document does not allow is an error.
      writeFileSync(path.join(dir, 'client.ts'), CLIENT.replaceAll('// @ts-expect-error', '//'));
      expect(compile(dir).length).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
