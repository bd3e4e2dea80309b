import {
  authenticate,
  deleteUser as deleteUserEndpoint,
  getAllUsers,
  getUser,
  getUserRights,
  logout,
  register,
  setUserRights,
  updateUser as updateUserEndpoint,
} from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { forbidden } from '../errors.js';
import { isManager } from '../services/auth/caller.js';
import { authenticateUser, LoginThrottle } from '../services/users/authenticate-user.js';
import { listUsers } from '../services/users/list-users.js';
import { logoutUser } from '../services/users/logout-user.js';
import { registerUser } from '../services/users/register-user.js';
import { deleteUser, updateUser } from '../services/users/update-user.js';
import { getRights, setRights } from '../services/users/user-rights.js';
import { findUser } from '../services/users/user-row.js';
import { defineRoute } from './define.js';

export default async function usersRoutes(app: FastifyInstance) {
  const throttle = new LoginThrottle();
  defineRoute(
    app,
    authenticate,
    ({ body, db, config }) =>
      authenticateUser(db, body, {
        secret: config.tokenSecret,
        ttlSeconds: config.tokenTtlSeconds,
        throttle,
        timeZone: config.timeZone,
      }),
    // Per-address limit on sign-in attempts (the per-user-name one is in the service).
    { config: { rateLimit: { max: app.config.loginRateLimit, timeWindow: '1 minute' } } },
  );
  defineRoute(app, register, ({ body, db }) => registerUser(db, body));
  defineRoute(app, logout, async ({ caller, db }) => {
    await logoutUser(db, caller.token);
    return { message: 'Signed out' };
  });
  defineRoute(app, getAllUsers, ({ caller, query, db }) => {
    if (!isManager(caller)) throw forbidden('Only administrators may list users');
    return listUsers(db, query);
  });
  defineRoute(app, getUser, async ({ caller, params, db }) => {
    if (params.id !== caller.id && !isManager(caller)) throw forbidden('You may only read your own account');
    return findUser(db, params.id);
  });
  defineRoute(app, updateUserEndpoint, ({ caller, params, body, db }) => updateUser(db, caller, params.id, body));
  defineRoute(app, deleteUserEndpoint, async ({ caller, params, db }) => {
    await deleteUser(db, caller, params.id);
    return { message: 'User deleted' };
  });
  defineRoute(app, getUserRights, ({ caller, params, db }) => getRights(db, caller, params.id));
  defineRoute(app, setUserRights, ({ caller, params, body, db }) => setRights(db, caller, params.id, body.locationIds));
}
