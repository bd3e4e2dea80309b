import {
  authenticate,
  ERROR_MESSAGES,
  errorText,
  GROUP,
  getAllUsers,
  listCollectorKeys,
  register,
  updateUser,
} from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, injectUrl, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeSignedIn, type SignedIn } from '../test/factories.js';

// Every error answer carries a stable code the web app translates, its params, and the
// English message (docs/ARCHITECTURE.md, "Errors").
const t = useApp();
let user: SignedIn;

beforeAll(async () => {
  user = await makeSignedIn(t.app, { groupId: GROUP.user, username: 'taken' });
});

describe(`error codes (${dbKind()})`, () => {
  it('POST /api/users/authenticate: a wrong password is wrongCredentials', async () => {
    const res = await inject(t.app, authenticate, { body: { username: 'taken', password: 'nope12' } });
    expect(res.status).toBe(400);
    expect(res.error).toMatchObject({ code: 'wrongCredentials', message: ERROR_MESSAGES.wrongCredentials });
  });

  it('POST /api/users/register: a taken user name is usernameTaken, naming the field and the name', async () => {
    const res = await inject(t.app, register, {
      body: { username: 'taken', password: 'secret12', firstName: 'A', lastName: 'B' },
    });
    expect(res.status).toBe(400);
    expect(res.error).toMatchObject({
      code: 'usernameTaken',
      params: { username: 'taken' },
      errors: [{ field: 'username', code: 'usernameTaken', params: { username: 'taken' } }],
    });
    expect(res.error.message).toBe('The user name "taken" is already taken');
  });

  it('PUT /api/users/:id: a wrong current password is wrongCurrentPassword on currentPassword', async () => {
    const res = await inject(t.app, updateUser, {
      params: { id: user.id },
      token: user.token,
      body: { currentPassword: 'wrong-one', password: 'another12' },
    });
    expect(res.status).toBe(400);
    expect(res.error).toMatchObject({ code: 'wrongCurrentPassword', errors: [{ field: 'currentPassword' }] });
  });

  it('a schema check names the field with a code and its limit', async () => {
    const res = await inject(t.app, register, {
      body: { username: 'someone', password: 'x', firstName: 'A', lastName: 'B' },
    });
    expect(res.status).toBe(400);
    expect(res.error.code).toBe('tooShort');
    expect(res.error.errors).toEqual([
      expect.objectContaining({
        field: 'password',
        code: 'tooShort',
        params: { field: 'password', limit: expect.any(String) },
      }),
    ]);
    const missing = await inject(t.app, register, { payload: { username: 'someone', password: 'secret12' } });
    expect(missing.error.errors?.map((e) => e.code)).toEqual(['required', 'required']);
  });

  it('401, 403, 404 and an unknown endpoint answer codes', async () => {
    expect((await inject(t.app, getAllUsers)).error.code).toBe('signInFirst');
    expect((await inject(t.app, getAllUsers, { token: user.token })).error.code).toBe('listUsersByManagers');
    expect((await inject(t.app, listCollectorKeys, { token: user.token })).error.code).toBe('operatorsOnly');
    expect((await injectUrl(t.app, 'GET', '/api/nothing-here')).error.code).toBe('notFound');
    const malformed = await t.app.inject({
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
