import { ERROR_MESSAGES, errorText } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.js';
import { buildTestApp, call } from '../test/app.js';
import { createTestDb, dbKind } from '../test/db.js';
import { createUser } from '../test/fixtures.js';

// Every error answer carries a stable code the web app translates, its params, and the
// English message (docs/ARCHITECTURE.md, "Errors").
let db: Db;
let app: FastifyInstance;
let user: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  db = await createTestDb();
  app = await buildTestApp(db);
  user = await createUser(app, { groupId: 3, username: 'taken' });
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe(`error codes (${dbKind()})`, () => {
  it('POST /api/users/authenticate: a wrong password is wrongCredentials', async () => {
    const res = await call(app, 'POST', '/api/users/authenticate', { body: { username: 'taken', password: 'nope12' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'wrongCredentials', message: ERROR_MESSAGES.wrongCredentials });
  });

  it('POST /api/users/register: a taken user name is usernameTaken, naming the field and the name', async () => {
    const res = await call(app, 'POST', '/api/users/register', {
      body: { username: 'taken', password: 'secret12', firstName: 'A', lastName: 'B' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'usernameTaken',
      params: { username: 'taken' },
      errors: [{ field: 'username', code: 'usernameTaken', params: { username: 'taken' } }],
    });
    expect(res.body.message).toBe('The user name "taken" is already taken');
  });

  it('PUT /api/users/:id: a wrong current password is wrongCurrentPassword on currentPassword', async () => {
    const res = await call(app, 'PUT', `/api/users/${user.id}`, {
      token: user.token,
      body: { currentPassword: 'wrong-one', password: 'another12' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'wrongCurrentPassword', errors: [{ field: 'currentPassword' }] });
  });

  it('a schema check names the field with a code and its limit', async () => {
    const res = await call(app, 'POST', '/api/users/register', {
      body: { username: 'someone', password: 'x', firstName: 'A', lastName: 'B' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('tooShort');
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        field: 'password',
        code: 'tooShort',
        params: { field: 'password', limit: expect.any(String) },
      }),
    ]);
    const missing = await call(app, 'POST', '/api/users/register', {
      body: { username: 'someone', password: 'secret12' },
    });
    expect(missing.body.errors.map((e: { code: string }) => e.code)).toEqual(['required', 'required']);
  });

  it('401, 403, 404 and an unknown endpoint answer codes', async () => {
    expect((await call(app, 'GET', '/api/users/getAll')).body.code).toBe('signInFirst');
    expect((await call(app, 'GET', '/api/users/getAll', { token: user.token })).body.code).toBe('listUsersByManagers');
    expect((await call(app, 'GET', '/api/collector-keys', { token: user.token })).body.code).toBe('operatorsOnly');
    expect((await call(app, 'GET', '/api/nothing-here')).body.code).toBe('notFound');
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/users/authenticate',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('badRequest');
  });

  it('every message fills its placeholders', () => {
    expect(errorText('periodTooLong', { max: '366' })).toBe('The period may be at most 366 days long');
    for (const text of Object.values(ERROR_MESSAGES)) expect(text.trim()).not.toBe('');
  });
});
