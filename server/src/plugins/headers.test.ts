import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';

/** The headers every answer must carry, whatever produced it. */
function expectSecurityHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
  // The rest of helmet's set (built once, plugins/headers.ts): each answer carries all of them.
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(headers['origin-agent-cluster']).toBe('?1');
  expect(headers['x-dns-prefetch-control']).toBe('off');
  expect(headers['x-download-options']).toBe('noopen');
  expect(headers['x-permitted-cross-domain-policies']).toBe('none');
  expect(headers['x-xss-protection']).toBe('0');
}

describe(`security headers on every answer (${dbKind()})`, () => {
  // A built web app of two files, served by the app under test.
  const webDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-web-'));
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(path.join(webDir, 'assets', 'app-1234.js'), 'console.log(1)');
  const t = useApp({ webDir });
  afterAll(() => rmSync(webDir, { recursive: true, force: true }));

  it.each([
    ['an API answer (401)', 'GET', '/api/devices/GetDeviceTypeLookUp'],
    ['a validation error (400)', 'POST', '/api/users/authenticate'],
    ['an unknown API path (404)', 'GET', '/api/nothing-here'],
    ['the web app', 'GET', '/'],
    ['a client-side route', 'GET', '/device-data'],
    ['a hashed asset', 'GET', '/assets/app-1234.js'],
    ['the API documentation', 'GET', '/api/docs/json'],
    ['an LNS endpoint without its key (401)', 'POST', '/api/lorawan/chirpstack?event=up'],
  ] as const)('%s', async (_, method, url) => {
    const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    expect(res.statusCode).toBeLessThan(500);
    expectSecurityHeaders(res.headers);
  });

  it('sends HSTS only over TLS: never on plain HTTP, nor when an untrusted client claims https', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const claimed = await t.app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS behind a trusted TLS proxy', async () => {
    const proxied = await buildTestApp(t.db, { webDir, trustProxy: ['127.0.0.1'] });
    try {
      const res = await proxied.inject({
        method: 'GET',
        url: '/api/devices/GetDeviceTypeLookUp',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expectSecurityHeaders(res.headers);
    } finally {
      await proxied.close();
    }
  });
});
