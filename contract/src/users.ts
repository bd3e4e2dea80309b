import { type Static, Type } from '@sinclair/typebox';
import { Id, IdParams, Nullable, Ok, PageQuery, Timestamp } from './common.js';
import { GROUP, LOCATION_LEVEL } from './domain.js';
import { defineEndpoint, Paged } from './endpoint.js';
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from './limits.js';

const Name = Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH });
const Username = Type.String({ minLength: 1, maxLength: USERNAME_MAX_LENGTH });
const Password = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });
const Contact = Type.Optional(Nullable(Type.String({ maxLength: 200 })));
export const GroupIdSchema = Type.Union([
  Type.Literal(GROUP.operator),
  Type.Literal(GROUP.admin),
  Type.Literal(GROUP.user),
]);

/** What an account and a sign-in answer share (docs/domain.md §11). Never the password hash. */
const AccountFields = {
  Id,
  Username: Type.String(),
  FirstName: Type.String(),
  LastName: Type.String(),
  GroupId: GroupIdSchema,
  Email: Nullable(Type.String()),
  Phone: Nullable(Type.String()),
  /** The previous successful sign-in. */
  SignedIn: Nullable(Timestamp),
};

/** An account as the users screens show it (docs/domain.md §6). */
export const User = Type.Object({
  ...AccountFields,
  Active: Type.Boolean(),
  Added: Timestamp,
  Updated: Timestamp,
});
export type User = Static<typeof User>;

/** The login response: the account plus the bearer token. */
export const UserSession = Type.Object({
  Token: Type.String(),
  /** When the token stops working. */
  Expires: Timestamp,
  ...AccountFields,
  /** The provider's time zone (IANA name): days, and times given without an offset, are taken in it. */
  TimeZone: Type.String(),
});
export type UserSession = Static<typeof UserSession>;

export const authenticate = defineEndpoint({
  method: 'POST',
  path: '/users/authenticate',
  summary:
    'Sign in. Every refusal (unknown user, wrong password, deactivated account whatever the password) answers 400 ' +
    '(not 401) with one message. Repeated failures are throttled per account and address and per address with ' +
    'growing delays: 429 with Retry-After (docs/security.md "Throttling").',
  tags: ['users'],
  auth: 'none',
  body: Type.Object({ username: Username, password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }) }),
  response: UserSession,
});

export const RegisterBody = Type.Object({
  firstName: Name,
  lastName: Name,
  username: Username,
  password: Password,
  email: Contact,
  phone: Contact,
});
export type RegisterBody = Static<typeof RegisterBody>;

export const register = defineEndpoint({
  method: 'POST',
  path: '/users/register',
  summary:
    'Create an account in group 3 (sees nothing until granted rights). Duplicate user name: 400. ' +
    'Limited per address: 429 with Retry-After past the limit (docs/security.md "Throttling").',
  tags: ['users'],
  auth: 'none',
  body: RegisterBody,
  response: User,
  status: 201,
});

export const logout = defineEndpoint({
  method: 'POST',
  path: '/users/logout',
  summary: 'Sign out: the token stops working at once.',
  tags: ['users'],
  auth: 'user',
  response: Ok,
});

export const getUser = defineEndpoint({
  method: 'GET',
  path: '/users/:id',
  summary:
    'One account: yourself; group 1: anyone; group 2: the group 3 accounts whose rights lie inside its scope.' +
    ' Who may act on which account: docs/security.md "Accounts"; an account out of reach answers 404.',
  tags: ['users'],
  auth: 'user',
  params: IdParams,
  response: User,
});

export const UpdateUserBody = Type.Object({
  firstName: Type.Optional(Name),
  lastName: Type.Optional(Name),
  email: Contact,
  phone: Contact,
  /** A new password; changing your own needs `currentPassword`. */
  password: Type.Optional(Password),
  currentPassword: Type.Optional(Type.String({ maxLength: PASSWORD_MAX_LENGTH })),
  /** Groups 1 and 2 only, not on yourself; only group 1 makes anyone group 1 or 2. */
  groupId: Type.Optional(GroupIdSchema),
  /** Groups 1 and 2 only, not on yourself. */
  active: Type.Optional(Type.Boolean()),
});
export type UpdateUserBody = Static<typeof UpdateUserBody>;

export const updateUser = defineEndpoint({
  method: 'PUT',
  path: '/users/:id',
  summary:
    'Change an account: yourself (names, contacts, password), or an account in reach for groups 1 and 2. ' +
    'A new password or deactivation ends every token of the account.' +
    ' Who may act on which account: docs/security.md "Accounts"; an account out of reach answers 404.',
  tags: ['users'],
  auth: 'user',
  params: IdParams,
  body: UpdateUserBody,
  response: User,
});

export const deleteUser = defineEndpoint({
  method: 'DELETE',
  path: '/users/:id',
  summary:
    'Delete an account in reach (groups 1 and 2; nobody deletes themselves). Its tokens stop working at once.' +
    ' Who may act on which account: docs/security.md "Accounts"; an account out of reach answers 404.',
  tags: ['users'],
  auth: 'user',
  params: IdParams,
  response: Ok,
});

export const getAllUsers = defineEndpoint({
  method: 'GET',
  path: '/users/getAll',
  summary:
    'Server-paged list of the accounts in reach, groups 1 and 2 only (group 2: itself and the group 3 accounts ' +
    'whose rights lie inside its scope; nobody else, not even read-only; docs/security.md "Accounts").' +
    ' `waiting=true`: only the accounts waiting for access (active, group 2 or 3, no location granted), e.g. after self-registration.',
  tags: ['users'],
  auth: 'user',
  querystring: Type.Object({
    ...PageQuery,
    search: Type.Optional(Type.String({ maxLength: 100 })),
    waiting: Type.Optional(Type.Boolean()),
  }),
  response: Paged(User),
});

/** A location granted to a user: they see its whole subtree. */
export const UserRight = Type.Object({
  LocationId: Id,
  Level: Type.Integer({ minimum: LOCATION_LEVEL.country, maximum: LOCATION_LEVEL.flat }),
  /** Human-readable address of the location. */
  Path: Type.String(),
});
export type UserRight = Static<typeof UserRight>;

export const getUserRights = defineEndpoint({
  method: 'GET',
  path: '/users/:id/rights',
  summary:
    "A user's granted locations, only those inside the caller's scope: yourself, or an account in reach." +
    ' Who may act on which account: docs/security.md "Accounts"; an account out of reach answers 404.',
  tags: ['users'],
  auth: 'user',
  params: IdParams,
  response: Type.Array(UserRight),
});

export const setUserRights = defineEndpoint({
  method: 'PUT',
  path: '/users/:id/rights',
  summary:
    'Replace the granted locations of an account in reach (groups 1 and 2). Group 2 grants only inside its own ' +
    'scope (anything else: 400 naming locationIds, as for an unknown id).' +
    ' Who may act on which account: docs/security.md "Accounts"; an account out of reach answers 404.',
  tags: ['users'],
  auth: 'user',
  params: IdParams,
  body: Type.Object({ locationIds: Type.Array(Id, { maxItems: 10000, uniqueItems: true }) }),
  response: Type.Array(UserRight),
});

export const signOutEverywhere = defineEndpoint({
  method: 'POST',
  path: '/users/:id/signOutEverywhere',
  summary:
    'End every token of an account at once: yourself, or an account in reach for groups 1 and 2.' +
    ' Who may act on which account: docs/security.md "Accounts"; an account out of reach answers 404.',
  tags: ['users'],
  auth: 'user',
  params: IdParams,
  response: Ok,
});
