import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEVICE_TYPE } from '@rodmenys/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from './db/open.js';
import { createCollectorKey } from './services/ingest/collector-keys.js';
import { registerUser } from './services/users/register-user.js';
import { address, createDevice, createPath } from './test/fixtures.js';

/**
 * The crash probe (its own lane of `npm test`, run once: `npm run test:crash -w
 * server`): the built server (server/dist/server.js) on a fresh embedded
 * database, in a process of its own, receives the hostile requests that once
 * crashed or stalled it (docs/input-limits.md); after each one the process must be
 * alive and answer a request that uses the database.
 */
const SERVER = path.resolve(import.meta.dirname, '../dist/server.js');
const SERIAL = '55667788';
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const telegram = (extra = '', ts = '2026-01-10T00:00:00Z') =>
  `{"_":"telegram","meter":"multical21","id":"${SERIAL}","total_m3":1.5,"timestamp":"${ts}"${extra}}`;

describe('crash probe: the built server on an embedded database', () => {
  let dataDir: string;
  let child: ChildProcess;
  let api: string;
  let key: string;
  let flatId: number;
  let exited: string | undefined;
  let output = '';
  const user = { username: 'probe', password: 'probe-password-1' };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-crash-probe-'));
    // The world, written before the server starts (it then holds the folder's lock).
    const db = await openDb({ databaseUrl: undefined, dataDir, timeZone: 'Europe/Vilnius' });
    flatId = (await createPath(db, address('Vilnius', 'Bandymų g.', '1', '1'))).at(-1)!;
    await createDevice(db, { typeId: DEVICE_TYPE.coldWaterMeter, locationId: flatId, code: SERIAL });
    await registerUser(db, { firstName: 'Probe', lastName: 'Operator', ...user }, 1);
    key = (await createCollectorKey(db, 'probe', null)).Key;
    await db.close();

    child = spawn(process.execPath, [SERVER], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', DEMO_DATA: 'none', WEB_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.on('exit', (code, signal) => {
      exited = `exit code ${code}, signal ${signal}`;
    });
    child.stderr!.on('data', (c: Buffer) => {
      output += c.toString();
    });
    api = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (c: Buffer) => {
        output += c.toString();
        const m = /running at (http:\/\/\S+?)\//.exec(output);
        if (m) resolve(`${m[1]}/api`);
      });
      child.on('exit', () => reject(new Error(`server exited: ${output}`)));
    });
  }, 120_000);

  afterAll(async () => {
    if (child && !exited) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** A request; a connection the server cut (a body refused before it was read) counts as no answer. */
  async function send(
    method: string,
    url: string,
    body?: string | Uint8Array<ArrayBuffer>,
    headers: Record<string, string> = {},
  ) {
    try {
      const res = await fetch(`${api}${url}`, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await res.text();
      return { status: res.status, text, type: res.headers.get('content-type') ?? '' };
    } catch (err) {
      return { status: 0, text: String(err), type: '' };
    }
  }
  const json = { 'content-type': 'application/json' };
  const collector = () => ({ ...json, 'x-collector-key': key });

  /** The process is alive and answers: sign-in reads the database, the answer is JSON. */
  async function expectHealthy(after: string) {
    expect(exited, `${after}: the server exited\n${output.slice(-2000)}`).toBeUndefined();
    const res = await send('POST', '/users/authenticate', JSON.stringify(user), json);
    expect(res.status, `${after}: sign-in answered ${res.status} ${res.text.slice(0, 200)}`).toBe(200);
    return JSON.parse(res.text).Token as string;
  }

  it('a telegram nested 10,000 and 5,000 levels deep (the embedded database once died on the next query)', async () => {
    for (const levels of [10_000, 5_000]) {
      const res = await send('POST', '/ingest/wmbusmeters', telegram(`,"x":${deep(levels)}`), collector());
      expect(res.status).toBe(400);
      await expectHealthy(`a telegram ${levels} deep`);
    }
    const ok = await send('POST', '/ingest/wmbusmeters', telegram(), collector());
    expect([ok.status, JSON.parse(ok.text).Stored]).toEqual([200, 1]);
  });

  it('a malformed 40 MB collector body (600,000 telegrams and a stray })', async () => {
    const parts = Array.from(
      { length: 600_000 },
      (_, i) => `{"id":"${10_000_000 + i}","total_m3":1.5,"timestamp":"2026-01-14T01:00:00Z"}`,
    );
    const body = new TextEncoder().encode(`[${parts.join(',\n')},\n}]`);
    const res = await send('POST', '/ingest/wmbusmeters', body, collector());
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/"message"/);
    await expectHealthy('a malformed 40 MB body');
  });

  it('bodies beyond the limits, anonymous and signed in', async () => {
    const huge = new Uint8Array(60 * 1024 * 1024).fill(0x20);
    for (const url of ['/users/authenticate', '/ingest/wmbusmeters', '/masterData/devices']) {
      const res = await send('POST', url, huge, json);
      // 401 (no key or token) or 413; or the connection cut after the answer.
      expect([0, 401, 413]).toContain(res.status);
      await expectHealthy(`60 MB to ${url}`);
    }
  });

  it('U+0000, Infinity, 1e309 and out-of-range ids answer 400, and no stored value breaks an answer', async () => {
    const token = await expectHealthy('start');
    const auth = { ...json, authorization: `Bearer ${token}` };
    const cases: [string, string, string?][] = [
      ['GET', '/locationData/Country?search=%00'],
      ['GET', '/users/getAll?page=1e309'],
      ['GET', '/users/3000000000'],
      ['POST', '/users/authenticate', '{"username":"\\u0000","password":"x"}'],
      [
        'POST',
        '/masterData/devices',
        JSON.stringify({
          locationId: flatId,
          deviceTypeId: DEVICE_TYPE.coldWaterMeter,
          deviceCode: 'INF-1',
          initialReading: 'Infinity',
        }),
      ],
      [
        'POST',
        '/masterData/devices',
        `{"locationId":${flatId},"deviceTypeId":${DEVICE_TYPE.coldWaterMeter},"deviceCode":"INF-2","initialReading":1e309}`,
      ],
      ['POST', '/collector-keys', '{"name":"   "}'],
      ['PUT', '/users/1', `{"firstName":${deep(10_000)}}`],
    ];
    for (const [method, url, body] of cases) {
      const res = await send(method, url, body, auth);
      expect([url, res.status]).toEqual([url, 400]);
      expect(JSON.parse(res.text).errors.length).toBeGreaterThan(0);
    }
    const csv = await send(
      'POST',
      '/ingest/csv',
      `${SERIAL} ;2026-01-11 00:00;Infinity\n${SERIAL};2026-01-12 00:00;1e309\n`,
      {
        ...auth,
        'content-type': 'text/csv',
      },
    );
    expect(csv.status).toBe(200);
    expect(JSON.parse(csv.text).Stored).toBe(0);
    const data = await send(
      'GET',
      `/devices/GetDevicesData?dateFrom=2026-01-01&dateTill=2026-01-31&deviceTypeId=${DEVICE_TYPE.coldWaterMeter}&locationParentId=${flatId}`,
      undefined,
      auth,
    );
    expect(data.status, data.text.slice(0, 300)).toBeLessThan(500);
    expect(() => JSON.parse(data.text)).not.toThrow();
    await expectHealthy('the hostile inputs');
  });
});
