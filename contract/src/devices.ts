import { type Static, Type } from '@sinclair/typebox';
import { Day, DayParam, Id, IdList, Nullable, Timestamp, UserIdQuery } from './common.js';
import { defineEndpoint } from './endpoint.js';

export const DataLoadProc = Type.Union([Type.Literal('allocator'), Type.Literal('energy'), Type.Literal('volume')]);
export type DataLoadProc = Static<typeof DataLoadProc>;

export const DeviceType = Type.Object({
  Id: Type.Integer(),
  DeviceTypeCode: Type.String(),
  /** Lithuanian name (the old contract's only name). */
  DeviceTypeName: Type.String(),
  DeviceTypeNameEn: Type.String(),
  DeviceCategoryCode: Type.String(),
  DataLoadProc,
});
export type DeviceType = Static<typeof DeviceType>;

/** Address columns shared by device and location rows. */
export const AddressFields = {
  Country: Type.String(),
  County: Nullable(Type.String()),
  Region: Nullable(Type.String()),
  City: Nullable(Type.String()),
  Street: Nullable(Type.String()),
  Building: Nullable(Type.String()),
  Flat: Nullable(Type.String()),
};

/** A device with its place (docs/domain.md §2). */
export const DeviceRowFields = {
  DeviceId: Id,
  DeviceTypeId: Type.Integer(),
  LocationId: Id,
  ParentLocationId: Nullable(Id),
  ...AddressFields,
  FlatOrder: Nullable(Type.Integer()),
  ObjectCode: Nullable(Type.String()),
  ClientCode: Nullable(Type.String()),
  DeviceCode: Type.String(),
  CounterCode: Nullable(Type.String()),
  DeviceDescription: Nullable(Type.String()),
  DataLoadProc,
  RatingFactor: Nullable(Type.Number()),
  InstalledAt: Nullable(Timestamp),
  RemovedAt: Nullable(Timestamp),
  /** The device that replaced this one. */
  ReplacedBy: Nullable(Id),
  /** The device this one replaced. */
  Replaces: Nullable(Id),
  /** When the device last reported (its latest telegram or reading). */
  LastSeen: Nullable(Timestamp),
};
export const DeviceRow = Type.Object(DeviceRowFields);
export type DeviceRow = Static<typeof DeviceRow>;

/** Why a readings row is flagged (danger style). */
export const ReadingFlag = Type.Union([
  /** No reading at or before the end of the period. */
  Type.Literal('NO_READING'),
  /** The end reading is more than 4 days older than min(end of period, now). */
  Type.Literal('STALE'),
  /** Consumption below zero: a reset or a wrong reading. */
  Type.Literal('NEGATIVE'),
]);
export type ReadingFlag = Static<typeof ReadingFlag>;

const Num = Nullable(Type.Number());
/**
 * One device over a period (docs/domain.md §5). Values carry full precision; the UI
 * shows 3 decimals. Only the fields of the type's computation are present.
 */
export const ReadingRow = Type.Object({
  ...DeviceRowFields,
  TimeFrom: Nullable(Timestamp),
  TimeTill: Nullable(Timestamp),
  TimePointFrom: Nullable(Timestamp),
  TimePointTill: Nullable(Timestamp),
  Difference: Num,
  FlatDifference: Num,
  UnitsForHCAFrom: Type.Optional(Num),
  UnitsForHCATill: Type.Optional(Num),
  QradFrom: Type.Optional(Num),
  QradTill: Type.Optional(Num),
  DifferenceQrad: Type.Optional(Num),
  FlatDifferenceQrad: Type.Optional(Num),
  EnergyFrom: Type.Optional(Num),
  EnergyTill: Type.Optional(Num),
  VolumeFrom: Type.Optional(Num),
  VolumeTill: Type.Optional(Num),
  Flags: Type.Array(ReadingFlag),
  /** The status flags of the device's latest telegram (POWER_LOW, TAMPER, LEAK…); empty when OK. */
  StatusFlags: Type.Array(Type.String()),
  /** The latest set-day (billing date) and the value the meter kept for it. */
  SetDate: Nullable(Day),
  SetValue: Num,
});
export type ReadingRow = Static<typeof ReadingRow>;

const AddressQuery = {
  country: Type.Optional(Type.String({ maxLength: 200 })),
  county: Type.Optional(Type.String({ maxLength: 200 })),
  region: Type.Optional(Type.String({ maxLength: 200 })),
  city: Type.Optional(Type.String({ maxLength: 200 })),
  street: Type.Optional(Type.String({ maxLength: 200 })),
  building: Type.Optional(Type.String({ maxLength: 200 })),
  flat: Type.Optional(Type.String({ maxLength: 200 })),
};

export { AddressQuery };

export const getDevicesByParams = defineEndpoint({
  method: 'GET',
  path: '/devices/GetDevicesByParams',
  summary: 'Devices in scope whose address matches every given part exactly (case-insensitive).',
  tags: ['devices'],
  auth: 'user',
  querystring: Type.Object({
    ...AddressQuery,
    deviceOnly: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
    ...UserIdQuery,
  }),
  response: Type.Array(DeviceRow),
});

export const getDeviceDataByUserId = defineEndpoint({
  method: 'GET',
  path: '/devices/GetDeviceDataByUserId',
  summary: 'Every device the user may see (the client builds the building > flat > device tree from them).',
  tags: ['devices'],
  auth: 'user',
  querystring: Type.Object({ ...UserIdQuery }),
  response: Type.Array(DeviceRow),
});

export const getDeviceTypeLookUp = defineEndpoint({
  method: 'GET',
  path: '/devices/GetDeviceTypeLookUp',
  summary: 'The device types.',
  tags: ['devices'],
  auth: 'user',
  response: Type.Array(DeviceType),
});

export const getDevicesData = defineEndpoint({
  method: 'GET',
  path: '/devices/GetDevicesData',
  summary:
    'Readings per device for a period (docs/domain.md §5): start and end values, consumption, flat total, flags. ' +
    'Days are taken in the provider time zone.',
  tags: ['devices'],
  auth: 'user',
  standbyMayAnswer: true,
  querystring: Type.Object({
    dateFrom: DayParam,
    dateTill: DayParam,
    deviceTypeId: Type.Integer({ minimum: 1, maximum: 32767 }),
    /** Subtrees to include (one or more location ids); absent = everything in scope. */
    locationParentId: Type.Optional(IdList),
    /** Accepted for compatibility; the device type decides the computation. */
    DataLoadProc: Type.Optional(DataLoadProc),
    ...UserIdQuery,
  }),
  response: Type.Array(ReadingRow),
});

export const VisibleLocation = Type.Object({
  VisibleLocationPath: Type.String(),
  /** 0 for an area above building level: a heading, not selectable. */
  VisibleLocationId: Type.Integer({ minimum: 0 }),
});
export type VisibleLocation = Static<typeof VisibleLocation>;

export const userLocationRights = defineEndpoint({
  method: 'GET',
  path: '/devices/UserLocationRights/:userId',
  summary:
    "The user's granted locations as selectable objects: an area above building level is a heading " +
    "(VisibleLocationId 0) followed by its buildings. Only locations inside the caller's scope; yourself, or an " +
    'account in reach (docs/security.md "Accounts"; otherwise 404).',
  tags: ['devices'],
  auth: 'user',
  params: Type.Object({ userId: Id }),
  response: Type.Array(VisibleLocation),
});

export const getDevicesByLocationId = defineEndpoint({
  method: 'GET',
  path: '/devices/GetDevicesByLocationId',
  summary: 'Devices in a location and its subtree (the location data screen and its export).',
  tags: ['devices'],
  auth: 'user',
  querystring: Type.Object({ locationId: Id, ...UserIdQuery }),
  response: Type.Array(DeviceRow),
});
