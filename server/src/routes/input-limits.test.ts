import { BULK_BODY_BYTES, DEFAULT_BODY_BYTES, MAX_JSON_DEPTH } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.js';
import { buildTestApp, call } from '../test/app.js';
import { createTestDb, dbKind } from '../test/db.js';
import { addReadings, address, createDevice, createPath, createUser } from '../test/fixtures.js';

/** Every 4xx carries `{ message, errors?: [{ field, message }] }`; a 400 names the field. */
function expect400(res: Awaited<ReturnType<typeof call>>, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
}

const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

// The limits of contract/src/input.ts, enforced for every endpoint by routes/define.ts
// and the JSON body parser of app.ts (docs/input-limits.md).
describe(`input limits (${dbKind()})`, () => {
  let db: Db;
  let app: FastifyInstance;
  let operator: { token: string };
  let manager: { token: string };
  let flatId: number;
  beforeAll(async () => {
    db = await createTestDb();
    app = await buildTestApp(db);
    operator = await createUser(app, { groupId: 1 });
    manager = await createUser(app, { groupId: 3 });
    flatId = (await createPath(db, address('Vilnius', 'Gatvė', '1', '1'))).at(-1)!;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('U+0000 in a query or body text is a 400 naming the field', async () => {
    expect400(await call(app, 'GET', '/api/locationData/Country?search=%00', { token: operator.token }), 'search');
    expect400(
      await call(app, 'POST', '/api/users/authenticate', { body: { username: '\u0000', password: 'x' } }),
      'username',
    );
    expect400(await call(app, 'GET', '/api/masterData/clients?search=a%00b', { token: operator.token }), 'search');
    expect400(
      await call(app, 'POST', '/api/ingest/csv', {
        token: operator.token,
        body: 'A\u0000;2026-01-01 00:00;1\n',
        headers: { 'content-type': 'text/csv' },
      }),
      'body',
    );
  });

  it('1e309, Infinity and ids beyond PostgreSQL integer are a 400 naming the field', async () => {
    for (const page of ['1e309', 'Infinity', '-Infinity', '2147483648']) {
      expect400(await call(app, 'GET', `/api/users/getAll?page=${page}`, { token: operator.token }), 'page');
    }
    expect400(await call(app, 'GET', '/api/users/3000000000', { token: operator.token }), 'id');
  });

  it('POST /api/masterData/devices refuses an initialReading of "Infinity", "1e309", "NaN" or 1e12; nothing is stored', async () => {
    for (const initialReading of ['Infinity', '1e309', '-Infinity', 'NaN', 1e12, '1e12']) {
      expect400(
        await call(app, 'POST', '/api/masterData/devices', {
          token: operator.token,
          body: { locationId: flatId, deviceTypeId: 1, deviceCode: 'INF-1', initialReading },
        }),
        'initialReading',
      );
    }
    const { rows } = await db.query("SELECT count(*)::int AS n FROM device WHERE device_code = 'INF-1'");
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('POST /api/collector-keys refuses a blank name', async () => {
    expect400(await call(app, 'POST', '/api/collector-keys', { token: operator.token, body: { name: '   ' } }), 'name');
  });

  it('text beyond the default length is a 400', async () => {
    const res = await call(app, 'POST', '/api/users/authenticate', {
      body: { username: 'a', password: 'b', extra: 'x'.repeat(20_000) },
    });
    expect400(res, 'extra');
  });

  it(`a JSON body nested deeper than ${MAX_JSON_DEPTH} levels is a 400 naming the body`, async () => {
    const res = await call(app, 'PUT', '/api/users/1', {
      token: operator.token,
      body: `{"firstName":${deep(10_000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect400(res, 'body');
    // Depth 64 is accepted by the parser (and then refused by the schema).
    const ok = await call(app, 'PUT', '/api/users/1', {
      token: operator.token,
      body: `{"firstName":${deep(MAX_JSON_DEPTH - 1)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect400(ok, 'firstName');
  });

  it('malformed JSON and an unknown content type are 4xx in the error shape', async () => {
    expect400(
      await call(app, 'POST', '/api/users/authenticate', {
        body: '{"username":',
        headers: { 'content-type': 'application/json' },
      }),
      'body',
    );
    const res = await call(app, 'POST', '/api/users/authenticate', {
      body: '<x/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.status).toBe(415);
    expect(res.body.errors[0].field).toBe('body');
  });

  it(`bodies above ${DEFAULT_BODY_BYTES} bytes are a 413, the bulk routes take up to ${BULK_BODY_BYTES}`, async () => {
    const big = JSON.stringify({ username: 'a', password: 'x'.repeat(DEFAULT_BODY_BYTES) });
    const res = await call(app, 'POST', '/api/users/authenticate', {
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.errors[0].field).toBe('body');
    const csv = `${'X;2026-01-01 00:00;1\n'.repeat(Math.ceil((DEFAULT_BODY_BYTES * 2) / 21))}`;
    const imported = await call(app, 'POST', '/api/ingest/csv', {
      token: operator.token,
      body: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.status).toBe(200);
  });

  it('an anonymous or unauthorised caller gets 401/403 before the body is read, whatever its size', async () => {
    const huge = 'x'.repeat(BULK_BODY_BYTES + 10);
    const anonymous = await call(app, 'POST', '/api/ingest/csv', {
      body: huge,
      headers: { 'content-type': 'text/csv' },
    });
    expect(anonymous.status).toBe(401);
    const manager403 = await call(app, 'POST', '/api/ingest/csv', {
      token: manager.token,
      body: huge,
      headers: { 'content-type': 'text/csv' },
    });
    expect(manager403.status).toBe(403);
    const deepAnonymous = await call(app, 'PUT', '/api/users/1', {
      body: `{"firstName":${deep(10_000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(deepAnonymous.status).toBe(401);
  });

  it('the database refuses Infinity, -Infinity and NaN in every numeric column (migration 041)', async () => {
    const deviceId = await createDevice(db, { typeId: 3, locationId: flatId, code: 'FIN-1' });
    for (const value of ['Infinity', '-Infinity', 'NaN']) {
      await expect(addReadings(db, deviceId, [['2026-01-01T00:00:00+02:00', value]])).rejects.toThrow(/finite/);
      await expect(
        db.query('UPDATE device SET rating_factor = $1 WHERE id = $2', [value === 'NaN' ? 'NaN' : '1e7', deviceId]),
      ).rejects.toThrow();
      await expect(
        db.query(`INSERT INTO telegram (device_id, ts, set_value, raw) VALUES ($1, now(), $2, '{}')`, [
          deviceId,
          value,
        ]),
      ).rejects.toThrow(/finite/);
    }
    await addReadings(db, deviceId, [['2026-01-01T00:00:00+02:00', '12.5']]);
  });

  it('POST /api/ingest/wmbusmeters refuses a telegram nested 10,000 deep; the database and the next telegram are fine', async () => {
    await createDevice(db, { typeId: 3, locationId: flatId, code: '44556677' });
    const key = (await call(app, 'POST', '/api/collector-keys', { token: operator.token, body: { name: 'deep' } })).body
      .Key as string;
    const post = (body: string) =>
      call(app, 'POST', '/api/ingest/wmbusmeters', {
        body,
        headers: { 'content-type': 'application/json', 'x-collector-key': key },
      });
    const telegram = (extra: string) =>
      `{"_":"telegram","meter":"multical21","id":"44556677","total_m3":1.5,"timestamp":"2026-01-10T00:00:00Z"${extra}}`;
    for (const levels of [10_000, 5_000, MAX_JSON_DEPTH]) {
      expect400(await post(telegram(`,"x":${deep(levels)}`)), 'body');
    }
    expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    const res = await post(telegram(''));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Received: 1, Stored: 1 });
  });
});
