import { type Static, Type } from '@sinclair/typebox';
import { Id, IdParams, Nullable, Timestamp } from './common.js';
import { defineEndpoint } from './endpoint.js';
import { BULK_BODY_BYTES } from './input.js';

/**
 * Collectors as a managed fleet (docs/collectors.md): meter keys, the buildings each
 * collector key serves, the wmbusmeters configuration it downloads, its health.
 */

/** Lines one meter key file may carry. */
export const MAX_METER_KEY_LINES = 100_000;
/** Buildings or streets one collector key may be assigned. */
export const MAX_COLLECTOR_LOCATIONS = 1000;
/** Longest alarm type and message a collector may post. */
export const MAX_ALARM_TYPE_LENGTH = 100;
export const MAX_ALARM_MESSAGE_LENGTH = 2000;

/** Why a key file line cannot be taken (the web app translates each code). */
export const METER_KEY_PROBLEMS = [
  'fields',
  'manufacturer',
  'meterId',
  'unknownMeter',
  'malformedKey',
  'duplicate',
] as const;
export type MeterKeyProblemCode = (typeof METER_KEY_PROBLEMS)[number];

export const MeterKeyLine = Type.Object({
  Line: Type.Integer({ minimum: 1 }),
  Manufacturer: Type.String(),
  MeterId: Type.String(),
  DeviceId: Id,
  /** new: the meter had no key; changed: it had another one; unchanged: the same key again. */
  Change: Type.Union([Type.Literal('new'), Type.Literal('changed'), Type.Literal('unchanged')]),
});
export type MeterKeyLine = Static<typeof MeterKeyLine>;

export const MeterKeyProblem = Type.Object({
  Line: Type.Integer({ minimum: 1 }),
  MeterId: Nullable(Type.String()),
  Problem: Type.Union(METER_KEY_PROBLEMS.map((c) => Type.Literal(c))),
});
export type MeterKeyProblem = Static<typeof MeterKeyProblem>;

/** A key file checked (and, when asked and every line is good, stored). The keys themselves are never in it. */
export const MeterKeyImportResult = Type.Object({
  Lines: Type.Integer({ minimum: 0 }),
  /** True when the keys were stored: `apply` was asked and no line had a problem. */
  Applied: Type.Boolean(),
  New: Type.Integer({ minimum: 0 }),
  Changed: Type.Integer({ minimum: 0 }),
  Unchanged: Type.Integer({ minimum: 0 }),
  /** The good lines (the first 1,000). */
  Rows: Type.Array(MeterKeyLine),
  /** Every bad line (the first 1,000); one bad line and nothing is stored. */
  Problems: Type.Array(MeterKeyProblem),
  ProblemCount: Type.Integer({ minimum: 0 }),
});
export type MeterKeyImportResult = Static<typeof MeterKeyImportResult>;

export const importMeterKeys = defineEndpoint({
  method: 'POST',
  path: '/meter-keys/import',
  summary:
    'Check (and with apply=true store) a meter key file: `manufacturer;meter id;key` per line, the key as 32 ' +
    'hex characters. All or nothing: one bad line (unknown meter, malformed key, …) and nothing is stored. ' +
    'Keys are encrypted at rest and never shown again. Group 1 only.',
  tags: ['collectors'],
  auth: 'operator',
  consumes: ['text/csv', 'text/plain'],
  maxBodyBytes: BULK_BODY_BYTES,
  querystring: Type.Object({ apply: Type.Optional(Type.Boolean()) }),
  body: Type.String({ description: 'CSV text: manufacturer;meter id;key per line' }),
  response: MeterKeyImportResult,
});

export const CollectorLocation = Type.Object({ Id: Id, Label: Type.String(), Level: Type.Integer() });
export type CollectorLocation = Static<typeof CollectorLocation>;

export const CollectorEvent = Type.Object({ At: Timestamp, Type: Type.String(), Message: Type.String() });
export type CollectorEvent = Static<typeof CollectorEvent>;

/** One collector key's health over the last 24 hours. */
export const CollectorHealth = Type.Object({
  Id: Id,
  Name: Type.String(),
  Locations: Type.Array(CollectorLocation),
  LastContact: Nullable(Timestamp),
  /** An unresolved anomaly says it has been silent longer than the setting `collector.silentMinutes`. */
  Silent: Type.Boolean(),
  /** Telegrams per hour, oldest hour first; the last is the hour up to now. */
  TelegramsPerHour: Type.Array(Type.Integer({ minimum: 0 })),
  /** Meters of its buildings, and how many of them it heard. */
  Expected: Type.Integer({ minimum: 0 }),
  Heard: Type.Integer({ minimum: 0 }),
  /** Its meters it did not hear that another collector heard. */
  HeardElsewhere: Type.Array(Type.String()),
  /** The latest telegram's own time stamp minus its arrival, in seconds. */
  ClockSkewSeconds: Nullable(Type.Number()),
  /** noClock: stamped before 2000 (1970: the collector has no clock); skew: more than `collector.clockSkewMinutes`. */
  ClockFlag: Nullable(Type.Union([Type.Literal('noClock'), Type.Literal('skew')])),
  /** The latest alarm events (wmbusmeters' alarmshell), newest first. */
  Events: Type.Array(CollectorEvent),
  /**
   * Serials of its meters left out of its configuration: not a wM-Bus meter id (8 hex digits;
   * contract/src/device-codes.ts), so no telegram can match them and none may break the file.
   */
  LeftOut: Type.Array(Type.String()),
  /**
   * Meters it heard whose telegrams gave no value for `collector.undecodedHours` (an open METER_UNDECODED,
   * or WRONG_KEY when a meter key is stored for it: possibly a wrong key).
   */
  Undecoded: Type.Array(
    Type.Object({ MeterId: Type.String(), Driver: Type.String(), AnomalyId: Id, WrongKey: Type.Boolean() }),
  ),
});
export type CollectorHealth = Static<typeof CollectorHealth>;

export const listCollectorHealth = defineEndpoint({
  method: 'GET',
  path: '/collectors/health',
  summary:
    'Each live collector key with its buildings and health over 24 hours: last contact, telegrams per hour, ' +
    'meters heard against expected, clock skew, alarm events. Group 1 only.',
  tags: ['collectors'],
  auth: 'operator',
  response: Type.Array(CollectorHealth),
});

export const CollectorHearing = Type.Object({
  CollectorId: Id,
  Collector: Type.String(),
  Telegrams: Type.Integer({ minimum: 0 }),
  /** dBm; null when no telegram carried a known signal (999 is unknown). */
  RssiMedian: Nullable(Type.Number()),
  RssiMin: Nullable(Type.Number()),
  LastHeard: Timestamp,
});

export const CollectorMeter = Type.Object({
  MeterId: Type.String(),
  DeviceId: Nullable(Id),
  Address: Nullable(Type.String()),
  /** One of the collector's buildings holds it. */
  Expected: Type.Boolean(),
  /** Whether a key is stored, and since when; the key itself is never shown. */
  HasKey: Type.Boolean(),
  KeySince: Nullable(Timestamp),
  /** Every collector that heard it in the last 24 hours. */
  HeardBy: Type.Array(CollectorHearing),
});
export type CollectorMeter = Static<typeof CollectorMeter>;

export const listCollectorMeters = defineEndpoint({
  method: 'GET',
  path: '/collectors/:id/meters',
  summary:
    "A collector key's meters (those of its buildings, and any it heard in 24 hours), each with every " +
    'collector that heard it and the signal (rssi_dbm median and minimum). Group 1 only.',
  tags: ['collectors'],
  auth: 'operator',
  params: IdParams,
  response: Type.Array(CollectorMeter),
});

export const setCollectorLocations = defineEndpoint({
  method: 'PUT',
  path: '/collectors/:id/locations',
  summary: 'Assign buildings or streets to a collector key (replaces its list; audited). Group 1 only.',
  tags: ['collectors'],
  auth: 'operator',
  params: IdParams,
  body: Type.Object({ locationIds: Type.Array(Id, { maxItems: MAX_COLLECTOR_LOCATIONS, uniqueItems: true }) }),
  response: Type.Array(CollectorLocation),
});

export const CollectorConfigFile = Type.Object({
  /** Relative to wmbusmeters' configuration folder: `wmbusmeters.conf`, `wmbusmeters.d/<name>`. */
  Path: Type.String(),
  Content: Type.String(),
});
export const CollectorConfig = Type.Object({ Files: Type.Array(CollectorConfigFile) });
export type CollectorConfig = Static<typeof CollectorConfig>;

export const getCollectorConfig = defineEndpoint({
  method: 'GET',
  path: '/collectors/config',
  summary:
    "The calling collector's wmbusmeters configuration: wmbusmeters.conf with the product's shell= and " +
    'alarmshell= hooks, and one meter file (name, driver, id, key) per meter of its buildings. Authenticated ' +
    'with the collector key; every download is audited.',
  tags: ['collectors'],
  auth: 'collector',
  response: CollectorConfig,
});

export const postCollectorAlarm = defineEndpoint({
  method: 'POST',
  path: '/collectors/alarms',
  summary:
    "An event from wmbusmeters' alarmshell (ALARM_TYPE, ALARM_MESSAGE) in the query string. Authenticated " +
    'with the collector key.',
  tags: ['collectors'],
  auth: 'collector',
  querystring: Type.Object({
    type: Type.String({ minLength: 1, maxLength: MAX_ALARM_TYPE_LENGTH, pattern: '\\S' }),
    message: Type.Optional(Type.String({ maxLength: MAX_ALARM_MESSAGE_LENGTH })),
  }),
  response: Type.Object({ message: Type.String() }),
  status: 201,
});
