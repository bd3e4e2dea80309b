import { type Static, Type } from '@sinclair/typebox';
import { Day, Id, IdParams, MonthParam, Nullable, Ok, Timestamp } from './common.js';
import { MonthEndSource } from './data-quality.js';
import { defineEndpoint } from './endpoint.js';
import { CLIENT_CODE_MAX_LENGTH, NAME_MAX_LENGTH } from './limits.js';
import { OccupancyStatement } from './statements/figures.js';

/** How an occupant agreed to electronic delivery (docs/occupancies.md). */
export const CONSENT_CHANNELS = ['email', 'portal', 'paper'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];
export const OCCUPANT_LANGUAGES = ['lt', 'en'] as const;

/**
 * One occupant of a flat for the days [MoveIn, MoveOut): MoveIn the first day (null = since
 * before the records), MoveOut the first day no longer there, the next occupant's MoveIn (null =
 * still there). Personal data: only callers who may see the flat get it (docs/occupancies.md).
 */
export const OccupancyRow = Type.Object({
  Id,
  FlatId: Id,
  /** The account (client) code the occupant is billed under. */
  ClientCode: Type.String(),
  Name: Type.String(),
  Email: Nullable(Type.String()),
  Phone: Nullable(Type.String()),
  Language: Nullable(Type.Union(OCCUPANT_LANGUAGES.map((l) => Type.Literal(l)))),
  MoveIn: Nullable(Day),
  MoveOut: Nullable(Day),
  ConsentAt: Nullable(Day),
  ConsentChannel: Nullable(Type.Union(CONSENT_CHANNELS.map((c) => Type.Literal(c)))),
});
export type OccupancyRow = Static<typeof OccupancyRow>;

/**
 * A device's state at 00:00 of a moving day (the new occupant's first day), chosen like a
 * month end (docs/data-quality.md): measured, memory, interpolated, estimated, or manual.
 */
export const MoveValueRow = Type.Object({
  DeviceId: Id,
  DeviceCode: Type.String(),
  DeviceTypeId: Type.Integer(),
  /** The moving day, YYYY-MM-DD; the value is the state at its 00:00 in the provider's zone. */
  Day,
  Value: Type.Number(),
  Source: MonthEndSource,
  ReadingTime: Nullable(Timestamp),
  NextReadingTime: Nullable(Timestamp),
  /** interpolated: time; estimated: month_end_prorated, carried_forward. */
  Method: Nullable(Type.String()),
  Reason: Nullable(Type.String()),
  SetBy: Nullable(Type.String()),
  PreviousValue: Nullable(Type.Number()),
  PreviousSource: Nullable(MonthEndSource),
  ChangedAt: Nullable(Timestamp),
  ComputedAt: Timestamp,
});
export type MoveValueRow = Static<typeof MoveValueRow>;

export const FlatOccupancies = Type.Object({
  FlatId: Id,
  /** The flat's address as one line. */
  Path: Type.String(),
  /** Oldest first. */
  Occupancies: Type.Array(OccupancyRow),
  /** The moving days (a MoveIn that follows another occupancy) with each device's value there. */
  Moves: Type.Array(Type.Object({ Day, Values: Type.Array(MoveValueRow) })),
});
export type FlatOccupancies = Static<typeof FlatOccupancies>;

export const getFlatOccupancies = defineEndpoint({
  method: 'GET',
  path: '/occupancies/flats/:id',
  summary:
    "A flat's occupants over time and the values of its devices on each moving day (docs/occupancies.md). " +
    'Anyone who may see the flat; 404 for everyone else.',
  tags: ['occupancies'],
  auth: 'user',
  params: IdParams,
  response: FlatOccupancies,
});

const OptionalText = (max: number) => Type.Optional(Nullable(Type.String({ maxLength: max })));
/** What an occupant is: the account, the name, the contacts, the consent. */
export const OccupantBody = Type.Object({
  clientCode: Type.String({ minLength: 1, maxLength: CLIENT_CODE_MAX_LENGTH }),
  name: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH * 2 }),
  email: Type.Optional(Nullable(Type.String({ maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' }))),
  phone: OptionalText(40),
  language: Type.Optional(Nullable(Type.Union(OCCUPANT_LANGUAGES.map((l) => Type.Literal(l))))),
  consentAt: Type.Optional(Nullable(Day)),
  consentChannel: Type.Optional(Nullable(Type.Union(CONSENT_CHANNELS.map((c) => Type.Literal(c))))),
});
export type OccupantBody = Static<typeof OccupantBody>;

export const RecordMoveBody = Type.Object({
  /** The new occupant's first day; the previous occupant's move-out. */
  day: Day,
  ...OccupantBody.properties,
});
export type RecordMoveBody = Static<typeof RecordMoveBody>;

export const recordMove = defineEndpoint({
  method: 'POST',
  path: '/occupancies/flats/:id/moves',
  summary:
    'Records a move in one step: the occupant there on `day` moves out that day and the new one moves in. ' +
    'An occupancy starting on or after `day`: 409. The moving-day values are computed at once. Group 1 only.',
  tags: ['occupancies'],
  auth: 'operator',
  params: IdParams,
  body: RecordMoveBody,
  response: FlatOccupancies,
  status: 201,
});

export const UpdateOccupancyBody = Type.Object({
  ...OccupantBody.properties,
  moveIn: Nullable(Day),
  moveOut: Nullable(Day),
});
export type UpdateOccupancyBody = Static<typeof UpdateOccupancyBody>;

export const updateOccupancy = defineEndpoint({
  method: 'PUT',
  path: '/occupancies/:id',
  summary:
    "Changes an occupancy (dates, account, name, contacts). Overlapping another of the flat's: 409. Group 1 only.",
  tags: ['occupancies'],
  auth: 'operator',
  params: IdParams,
  body: UpdateOccupancyBody,
  response: FlatOccupancies,
});

export const MoveValueParams = Type.Object({ deviceId: Id, day: Day });

export const setMoveValue = defineEndpoint({
  method: 'PUT',
  path: '/occupancies/move-values/:deviceId/:day',
  summary: "Sets a device's moving-day value by hand, with a reason (source manual; audited). Group 1 only.",
  tags: ['occupancies'],
  auth: 'operator',
  params: MoveValueParams,
  body: Type.Object({
    value: Type.Number({ minimum: -1e12, maximum: 1e12 }),
    reason: Type.String({ minLength: 1, maxLength: 500 }),
  }),
  response: MoveValueRow,
});

export const clearMoveValue = defineEndpoint({
  method: 'DELETE',
  path: '/occupancies/move-values/:deviceId/:day',
  summary: 'Removes a manual moving-day value (audited); it is computed again from the readings. Group 1 only.',
  tags: ['occupancies'],
  auth: 'operator',
  params: MoveValueParams,
  response: Ok,
});

export const getDeviceMoveValues = defineEndpoint({
  method: 'GET',
  path: '/data-quality/move-values/:deviceId',
  summary:
    "A device's moving-day values (docs/occupancies.md), for the anomalies drill-down. 404 outside the caller's scope.",
  tags: ['data-quality'],
  auth: 'user',
  params: Type.Object({ deviceId: Id }),
  response: Type.Array(MoveValueRow),
});

export const getOccupancyStatements = defineEndpoint({
  method: 'GET',
  path: '/statements/flats/:flatId/occupancies',
  summary:
    "A flat's month split between its occupants (docs/occupancies.md): one statement per occupancy for its days, " +
    'from the moving-day values, adding up to the flat’s month. 404 outside the scope.',
  tags: ['statements'],
  auth: 'user',
  params: Type.Object({ flatId: Id }),
  querystring: Type.Object({ month: MonthParam }),
  response: Type.Object({ Month: MonthParam, FlatId: Id, Occupancies: Type.Array(OccupancyStatement) }),
});
