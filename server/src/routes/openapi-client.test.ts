import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { injectUrl, useApp } from '../test/app.js';

const t = useApp();
// Inside the workspace, so that the generated client resolves openapi-fetch like any module of ours.
const cache = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../node_modules/.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(path.join(cache, 'openapi-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** tsc's verdict on one file of `dir`: the errors' text, empty when it type-checks. */
function typeCheck(file: string): string {
  try {
    execFileSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        path.join(dir, file),
      ],
      { encoding: 'utf8', stdio: 'pipe' },
    );
    return '';
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  }
}

const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './api.js';
const client = createClient<paths>({ baseUrl: 'https://rodmenys.example' });
`;

describe('GET /billing/export through a client generated from the OpenAPI document', () => {
  it('type-checks a call of the export and refuses a wrong one', async () => {
    const doc = await injectUrl(t.app, 'GET', '/api/docs/json');
    expect(doc.status).toBe(200);
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(path.join(dir, 'api.ts'), astToString(await openapiTS(doc.text)));
    writeFileSync(
      path.join(dir, 'call.ts'),
      `${CLIENT}
export async function fetchMonth(key: string) {
  const { data, error } = await client.GET('/api/billing/export', {
    params: { query: { month: '2026-10', version: 2, since: 1 } },
    headers: { Authorization: \`Bearer \${key}\` },
  });
  if (error) return error.code;
  const row = data.Rows[0];
  const consumption: number | null | undefined = row?.Consumption;
  const status: 'published' | 'live' | undefined = row?.Status;
  const version: number | null | undefined = row?.Version;
  return [data.Month, consumption, status, version];
}
`,
    );
    expect(typeCheck('call.ts')).toBe('');
    // The same client refuses a call without the month and a row read as the wrong type.
    writeFileSync(
      path.join(dir, 'wrong.ts'),
      `${CLIENT}
export async function wrong() {
  const { data } = await client.GET('/api/billing/export', { params: { query: { version: 2 } } });
  const consumption: string | undefined = data?.Rows[0]?.Consumption;
  return consumption;
}
`,
    );
    const errors = typeCheck('wrong.ts');
    expect(errors).toMatch(/month/);
    expect(errors).toMatch(/Consumption|not assignable to type 'string/);
  }, 120_000);
});
