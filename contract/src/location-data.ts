import { type Static, Type } from '@sinclair/typebox';
import { Id, Nullable, PageQuery, UserIdQuery } from './common.js';
import { AddressFields, AddressQuery } from './devices.js';
import { type AddressLevel, LOCATION_LEVEL } from './domain.js';
import { defineEndpoint, Paged } from './endpoint.js';

/** A building in scope (docs/domain.md §3). */
export const LocationRow = Type.Object({
  Id,
  LocationId: Id,
  ...AddressFields,
  ObjectCode: Nullable(Type.String()),
  ObjectName: Nullable(Type.String()),
});
export type LocationRow = Static<typeof LocationRow>;

export const getAllObjects = defineEndpoint({
  method: 'GET',
  path: '/locationData/getAllObjects',
  summary: 'Buildings in scope, filtered (case-insensitive prefix per address part) and paged on the server.',
  tags: ['locationData'],
  auth: 'user',
  querystring: Type.Object({ ...PageQuery, ...AddressQuery, ...UserIdQuery }),
  response: Paged(LocationRow),
});

const typeahead = <L extends AddressLevel>(level: L) =>
  defineEndpoint({
    method: 'GET',
    path: `/locationData/${level}` as `/locationData/${L}`,
    summary: `Up to 10 distinct ${level.toLowerCase()} names in scope starting with \`search\` (case-insensitive).`,
    tags: ['locationData'],
    auth: 'user',
    querystring: Type.Object({ search: Type.String({ minLength: 1, maxLength: 200 }), ...UserIdQuery }),
    response: Type.Array(Type.String()),
  });

export const typeaheadEndpoints = {
  Country: typeahead('Country'),
  County: typeahead('County'),
  Region: typeahead('Region'),
  City: typeahead('City'),
  Street: typeahead('Street'),
  Building: typeahead('Building'),
} as const;

/** A flat in scope with its object and client (the "My objects" table, docs/domain.md §2). */
export const UserObjectRow = Type.Object({
  LocationId: Id,
  Flat: Nullable(Type.String()),
  FlatOrder: Nullable(Type.Integer()),
  Address: Type.String(),
  ObjectCode: Nullable(Type.String()),
  ObjectName: Nullable(Type.String()),
  ObjectTypeCode: Nullable(Type.String()),
  ObjectTypeName: Nullable(Type.String()),
  ObjectCategoryCode: Nullable(Type.String()),
  ObjectCategoryName: Nullable(Type.String()),
  ClientCode: Nullable(Type.String()),
  ClientName: Nullable(Type.String()),
  ClientTypeCode: Nullable(Type.String()),
  ClientTypeName: Nullable(Type.String()),
  ClientCategoryCode: Nullable(Type.String()),
  ClientCategoryName: Nullable(Type.String()),
});
export type UserObjectRow = Static<typeof UserObjectRow>;

export const getUserObjects = defineEndpoint({
  method: 'GET',
  path: '/locationData/getUserObjects',
  summary:
    'Flats in scope with object, client and category columns (the "My objects" table; a path the original client lacked, docs/domain.md §11). ' +
    '`locationId` narrows to one subtree.',
  tags: ['locationData'],
  auth: 'user',
  querystring: Type.Object({ ...PageQuery, locationId: Type.Optional(Id), ...UserIdQuery }),
  response: Paged(UserObjectRow),
});

/** A node of the location tree. */
export const TreeNode = Type.Object({
  Id,
  ParentId: Nullable(Id),
  Level: Type.Integer({ minimum: LOCATION_LEVEL.country, maximum: LOCATION_LEVEL.flat }),
  Name: Type.String(),
  FlatOrder: Nullable(Type.Integer()),
});
export type TreeNode = Static<typeof TreeNode>;

export const getLocationTree = defineEndpoint({
  method: 'GET',
  path: '/locationData/tree',
  summary:
    'The location tree in scope down to `maxLevel` (6 = buildings, 7 = flats), with the ancestors of granted ' +
    'locations so that it has its roots. Group 1 sees everything.',
  tags: ['locationData'],
  auth: 'user',
  querystring: Type.Object({
    maxLevel: Type.Optional(
      Type.Integer({ minimum: LOCATION_LEVEL.country, maximum: LOCATION_LEVEL.flat, default: LOCATION_LEVEL.flat }),
    ),
    ...UserIdQuery,
  }),
  response: Type.Array(TreeNode),
});
