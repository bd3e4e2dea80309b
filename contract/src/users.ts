import { type Static, Type } from '@sinclair/typebox';
import { Id, IdParams, Nullable, Ok, PageQuery, Timestamp } from './common.js';
import { defineEndpoint, Paged } from './endpoint.js';
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from './limits.js';

const Name = Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH });
const Username = Type.String({ minLength: 1, maxLength: USERNAME_MAX_LENGTH });
const Password = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });
const Contact = Type.Optional(Nullable(Type.String({ maxLength: 200 })));
export const GroupIdSchema = Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)]);

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
  summary: 'Sign in. Wrong credentials answer 400 (not 401) with one message whether the user exists or not.',
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
  summary: 'Create an account in group 3 (sees nothing until granted rights). Duplicate user name: 400.',
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
  summary: 'One account: yourself, or anyone for groups 1 and 2.',
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
  /** Groups 1 and 2 only, not on yourself; only group 1 grants or takes group 1. */
  groupId: Type.Optional(GroupIdSchema),
  /** Groups 1 and 2 only, not on yourself. */
  active: Type.Optional(Type.Boolean()),
});
export type UpdateUserBody = Static<typeof UpdateUserBody>;

export const updateUser = defineEndpoint({
  method: 'PUT',
  path: '/users/:id',
  summary: 'Change an account: yourself (names, contacts, password), or anyone for groups 1 and 2.',
  tags: ['users'],
  auth: 'user',
  params: IdParams,
  body: UpdateUserBody,
  response: User,
});

export const deleteUser = defineEndpoint({
  method: 'DELETE',
  path: '/users/:id',
  summary: 'Delete an account (groups 1 and 2; nobody deletes themselves). Its tokens stop working at once.',
  tags: ['users'],
  auth: 'user',
  params: IdParams,
  response: Ok,
});

export const getAllUsers = defineEndpoint({
  method: 'GET',
  path: '/users/getAll',
  summary: 'Server-paged list of accounts, groups 1 and 2 only.',
  tags: ['users'],
  auth: 'user',
  querystring: Type.Object({ ...PageQuery, search: Type.Optional(Type.String({ maxLength: 100 })) }),
  response: Paged(User),
});

/** A location granted to a user: they see its whole subtree. */
export const UserRight = Type.Object({
  LocationId: Id,
  Level: Type.Integer({ minimum: 1, maximum: 7 }),
  /** Human-readable address of the location. */
  Path: Type.String(),
});
export type UserRight = Static<typeof UserRight>;

export const getUserRights = defineEndpoint({
  method: 'GET',
  path: '/users/:id/rights',
  summary: "A user's granted locations: yourself, or anyone for groups 1 and 2.",
  tags: ['users'],
  auth: 'user',
  params: IdParams,
  response: Type.Array(UserRight),
});

export const setUserRights = defineEndpoint({
  method: 'PUT',
  path: '/users/:id/rights',
  summary:
    "Replace a user's granted locations (groups 1 and 2). Group 2 grants only inside its own scope " +
    'and changes no group 1 account.',
  tags: ['users'],
  auth: 'user',
  params: IdParams,
  body: Type.Object({ locationIds: Type.Array(Id, { maxItems: 10000, uniqueItems: true }) }),
  response: Type.Array(UserRight),
});
