import { authenticate, GROUP, getDevicesData, getLocation, type UserSession } from '@rodmenys/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../i18n';
import { getSession, setSession } from '../storage';
import { ApiError, forgetEndedSession } from './call';

const session: UserSession = {
  Token: 't',
  Expires: '2999-01-01T00:00:00+02:00',
  Id: 1,
  Username: 'operator',
  FirstName: 'O',
  LastName: 'P',
  GroupId: GROUP.operator,
  Email: null,
  Phone: null,
  SignedIn: null,
  TimeZone: 'Europe/Vilnius',
};

describe('forgetEndedSession', () => {
  beforeEach(() => setSession(session));

  it('forgets the session on a 401 from an endpoint for signed-in users or operators', () => {
    forgetEndedSession(getDevicesData, 401);
    expect(getSession()).toBeNull();
    setSession(session);
    forgetEndedSession(getLocation, 401);
    expect(getSession()).toBeNull();
  });
  it('keeps it on a 403, and on a 401 from an endpoint open to all', () => {
    forgetEndedSession(getLocation, 403);
    forgetEndedSession(authenticate, 401);
    expect(getSession()).toEqual(session);
  });
});

describe('ApiError.fromBody', () => {
  afterEach(() => changeLanguage('lt'));

  it('shows a server error in the UI language, with the field by its label', async () => {
    await changeLanguage('lt');
    const taken = ApiError.fromBody(400, {
      code: 'usernameTaken',
      params: { username: 'jonas' },
      message: 'The user name "jonas" is already taken',
      errors: [{ field: 'username', code: 'usernameTaken', params: { username: 'jonas' }, message: 'x' }],
    });
    expect(taken.message).toBe('Vartotojo vardas „jonas“ jau užimtas');
    expect(taken.errors?.[0]?.message).toBe('Vartotojo vardas „jonas“ jau užimtas');
    expect(taken.code).toBe('usernameTaken');
    const short = ApiError.fromBody(400, {
      code: 'tooShort',
      params: { field: 'password', limit: '6' },
      message: 'password must NOT have fewer than 6 characters',
    });
    expect(short.message).toBe('Laukas „Slaptažodis“ turi būti ne trumpesnis nei 6 simb.');
    await changeLanguage('en');
    expect(ApiError.fromBody(400, { code: 'wrongCredentials', message: 'x' }).message).toBe(
      'The user name or password is incorrect, or the account is deactivated',
    );
  });

  it("falls back to the server's message for a code the UI does not know, then to the status text", () => {
    expect(ApiError.fromBody(409, { code: 'somethingNew', message: 'Something new' }).message).toBe('Something new');
    expect(ApiError.fromBody(502, undefined, 'Bad Gateway').message).toBe('Bad Gateway');
  });
});
