import { authenticate, getDevicesData, getLocation, type UserSession } from '@rodmenys/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { getSession, setSession } from '../storage';
import { forgetEndedSession } from './call';

const session: UserSession = {
  Token: 't',
  Expires: '2999-01-01T00:00:00+02:00',
  Id: 1,
  Username: 'operator',
  FirstName: 'O',
  LastName: 'P',
  GroupId: 1,
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
