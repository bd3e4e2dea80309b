import {
  authenticate,
  deleteUser,
  getAllUsers,
  getUser,
  getUserRights,
  logout,
  register,
  setUserRights,
  signOutEverywhere,
  updateUser,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { assertManagesAccounts, findReachableAccount } from '../services/users/account-scope.js';
import { authenticateUser } from '../services/users/authenticate-user.js';
import { listUsers } from '../services/users/list-users.js';
import { logoutUser } from '../services/users/logout-user.js';
import { registerUser } from '../services/users/register-user.js';
import { countRegistration } from '../services/users/sign-in-throttle.js';
import * as accounts from '../services/users/update-user.js';
import { getRights, setRights } from '../services/users/user-rights.js';
import { defineRoute } from './define.js';

/** The users endpoints; who may act on which account is decided in services/users/account-scope.ts only. */
export default async function usersRoutes(app: FastifyInstance) {
  defineRoute(
    app,
    authenticate,
    ({ body, db, config, request }) =>
      authenticateUser(db, body, {
        secret: config.tokenSecret,
        ttlSeconds: config.tokenTtlSeconds,
        throttle: config.throttle,
        timeZone: config.timeZone,
        address: request.ip || 'unknown',
      }),
    // A per-instance flood guard; the throttling that counts is in the database (sign-in-throttle.ts).
    { config: { rateLimit: { max: app.config.loginRateLimit, timeWindow: '1 minute' } } },
  );
  defineRoute(app, register, async ({ body, db, config, request }) => {
    await countRegistration(db, config.throttle, request.ip || 'unknown');
    return registerUser(db, body);
  });
  defineRoute(app, logout, async ({ caller, db }) => {
    await logoutUser(db, caller.token);
    return { message: 'Signed out' };
  });
  defineRoute(app, getAllUsers, ({ caller, query, db }) => {
    assertManagesAccounts(caller, 'listUsersByManagers');
    return listUsers(db, caller, query);
  });
  defineRoute(app, getUser, ({ caller, params, db }) => findReachableAccount(db, caller, params.id));
  defineRoute(app, updateUser, ({ caller, params, body, db }) => accounts.updateUser(db, caller, params.id, body));
  defineRoute(app, deleteUser, async ({ caller, params, db }) => {
    await accounts.deleteUser(db, caller, params.id);
    return { message: 'User deleted' };
  });
  defineRoute(app, signOutEverywhere, async ({ caller, params, db }) => {
    await accounts.signOutEverywhere(db, caller, params.id);
    return { message: 'Signed out everywhere' };
  });
  defineRoute(app, getUserRights, ({ caller, params, db }) => getRights(db, caller, params.id));
  defineRoute(app, setUserRights, ({ caller, params, body, db }) => setRights(db, caller, params.id, body.locationIds));
}
