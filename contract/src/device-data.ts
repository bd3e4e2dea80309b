import { type Static, Type } from '@sinclair/typebox';
import { DayParam, Id, IdList, Nullable, Timestamp, UserIdQuery } from './common.js';
import { DataLoadProc, DeviceType, ReadingRow } from './devices.js';
import { defineEndpoint } from './endpoint.js';

/** A device type found in a selection, with how many of its devices are there. */
export const DeviceTypeInSelection = Type.Object({
  Id: DeviceType.properties.Id,
  DeviceTypeCode: DeviceType.properties.DeviceTypeCode,
  DeviceTypeName: DeviceType.properties.DeviceTypeName,
  DeviceTypeNameEn: DeviceType.properties.DeviceTypeNameEn,
  DeviceCategoryCode: DeviceType.properties.DeviceCategoryCode,
  DataLoadProc,
  DeviceCount: Type.Integer({ minimum: 1 }),
});
export type DeviceTypeInSelection = Static<typeof DeviceTypeInSelection>;

export const getDeviceTypesInSelection = defineEndpoint({
  method: 'GET',
  path: '/devices/typesInSelection',
  summary:
    'The device types found in the selected subtrees (all of the scope when none is given) with their device ' +
    'counts. With a period, only devices present in it count (installed before its end, not removed before its start).',
  tags: ['devices'],
  auth: 'user',
  querystring: Type.Object({
    locationParentId: Type.Optional(IdList),
    dateFrom: Type.Optional(DayParam),
    dateTill: Type.Optional(DayParam),
    ...UserIdQuery,
  }),
  response: Type.Array(DeviceTypeInSelection),
});

/** How many readings one chart point stands for: an hour, a day, a week or a month in the provider zone. */
export const HistoryBucket = Type.Union([
  Type.Literal('hour'),
  Type.Literal('day'),
  Type.Literal('week'),
  Type.Literal('month'),
]);
export type HistoryBucket = Static<typeof HistoryBucket>;

/** One chart point: the last reading of the bucket and the consumption since the previous point. */
export const HistoryPoint = Type.Object({
  /** Start of the bucket. */
  Time: Timestamp,
  /** The cumulative value at the last reading of the bucket. */
  Value: Type.Number(),
  /** Value minus the previous point's value (the period's start reading for the first point). */
  Consumption: Type.Number(),
  /** Earliest and latest reading times inside the bucket. */
  FirstReadingTime: Timestamp,
  LastReadingTime: Timestamp,
  Readings: Type.Integer({ minimum: 1 }),
});
export type HistoryPoint = Static<typeof HistoryPoint>;

export const DeviceHistory = Type.Object({
  DeviceId: Id,
  DeviceTypeId: Type.Integer(),
  DeviceCode: Type.String(),
  DataLoadProc,
  Bucket: HistoryBucket,
  /** The reading the period starts from (the latest at or before its start), if any. */
  Start: Nullable(Type.Object({ Time: Timestamp, Value: Type.Number() })),
  Points: Type.Array(HistoryPoint),
});
export type DeviceHistory = Static<typeof DeviceHistory>;

export const getDeviceHistory = defineEndpoint({
  method: 'GET',
  path: '/devices/:id/history',
  summary:
    "A device's readings over a period for a chart, downsampled on the server: per bucket (hour up to 7 days, " +
    'day up to 400 days, then week, then month) the last value, the consumption and the first/last reading times. ' +
    '404 when the device is outside the caller scope.',
  tags: ['devices'],
  auth: 'user',
  standbyMayAnswer: true,
  params: Type.Object({ id: Id }),
  querystring: Type.Object({ dateFrom: DayParam, dateTill: DayParam, ...UserIdQuery }),
  response: DeviceHistory,
});

export const getFlaggedDevices = defineEndpoint({
  method: 'GET',
  path: '/devices/flagged',
  summary:
    'The flagged devices of a selection over a period, every device type at once: the GetDevicesData rows ' +
    '(same arithmetic, same scope) whose Flags are not empty (no reading, stale, negative), by type, in ' +
    'address order. Without locationParentId, the whole scope (docs/device-data.md).',
  tags: ['devices'],
  auth: 'user',
  querystring: Type.Object({
    dateFrom: DayParam,
    dateTill: DayParam,
    locationParentId: Type.Optional(IdList),
    ...UserIdQuery,
  }),
  response: Type.Array(ReadingRow),
});
