import { type Static, Type } from '@sinclair/typebox';
import { Day, Id, MonthParam, Nullable, Timestamp } from './common.js';
import { DECLARATION_VALUE_MAX, DeclarationChannelSchema, DeclarationStatusSchema } from './declarations.js';
import { defineEndpoint } from './endpoint.js';
import { StatementLanguage } from './statements/figures.js';

/*
 * The back office's side of declared readings (docs/declared-readings.md): a declaration
 * entered for an occupant who phoned, the review of declarations (the photo, accept or reject a
 * doubtful one), the devices not declared in a window and the reminders. Groups 1 and 2 (group 2
 * within its scope); group 3 and integration keys get 403.
 */

/** The longest caller's name and phone number a phone declaration keeps. */
export const CALLER_NAME_MAX_LENGTH = 200;
export const CALLER_PHONE_MAX_LENGTH = 40;
/** The longest reason of a decision. */
export const DECISION_REASON_MAX_LENGTH = 1000;

/** The kinds of mail an occupant gets about declarations: the decision on theirs, and the window's reminders. */
export const DECLARATION_NOTICE_KINDS = ['accepted', 'rejected', 'reminderStart', 'reminderEnd'] as const;
export type DeclarationNoticeKind = (typeof DECLARATION_NOTICE_KINDS)[number];

/** One declaration as the back office reviews it. */
export const OfficeDeclaration = Type.Object({
  Id: Id,
  DeviceId: Id,
  DeviceCode: Type.String(),
  DeviceTypeId: Type.Integer(),
  BuildingId: Id,
  /** The building's address as one line. */
  Address: Type.String(),
  FlatId: Id,
  Flat: Type.String(),
  FlatOrder: Nullable(Type.Integer()),
  /** The occupant of the occupancy it was declared for. */
  OccupantName: Type.String(),
  Value: Type.Number(),
  DeclaredAt: Timestamp,
  /** The month it is for, YYYY-MM. */
  Month: MonthParam,
  Channel: DeclarationChannelSchema,
  /** The back-office user who entered it (a phone call); null when the occupant did. */
  EnteredBy: Nullable(Type.String()),
  /** Who called, as they gave their name and phone number (phone declarations). */
  CallerName: Nullable(Type.String()),
  CallerPhone: Nullable(Type.String()),
  /** A photo is kept: GET /declarations/:id/photo. */
  HasPhoto: Type.Boolean(),
  Status: DeclarationStatusSchema,
  Reason: Nullable(Type.String()),
  DecidedBy: Nullable(Type.String()),
  DecidedAt: Nullable(Timestamp),
  Confirmed: Type.Boolean(),
  PreviousValue: Nullable(Type.Number()),
  PlausibleMax: Nullable(Type.Number()),
  /** It is the declaration that counts for its month (the latest; on one day the largest; never a rejected one). */
  Counts: Type.Boolean(),
});
export type OfficeDeclaration = Static<typeof OfficeDeclaration>;

export const enterPhoneDeclaration = defineEndpoint({
  method: 'POST',
  path: '/declarations/phone',
  summary:
    'Enters a declaration for an occupant who phoned (docs/declared-readings.md): the value, the day it was ' +
    "read, who called; checked like the occupant's own (a value above the plausible maximum needs `confirm` and " +
    'is doubtful); audited with the user. Groups 1 and 2 (its scope); group 3: 403; a device outside the scope: 404.',
  tags: ['declarations'],
  auth: 'user',
  body: Type.Object({
    deviceId: Id,
    value: Type.Number({ minimum: 0, maximum: DECLARATION_VALUE_MAX }),
    /** The day the occupant read the meter (the provider's zone): not in the future. */
    day: Day,
    callerName: Type.String({ minLength: 1, maxLength: CALLER_NAME_MAX_LENGTH, pattern: '\\S' }),
    callerPhone: Type.Optional(Type.String({ maxLength: CALLER_PHONE_MAX_LENGTH, pattern: '^[0-9 +()./-]*$' })),
    /** The caller confirms a value above the plausible maximum. */
    confirm: Type.Optional(Type.Boolean()),
  }),
  status: 201,
  response: OfficeDeclaration,
});

export const listDeclarations = defineEndpoint({
  method: 'GET',
  path: '/declarations',
  summary:
    "A month's declarations for review, by building address and flat, the latest first per device; optionally one " +
    'building and one status. Groups 1 and 2 (its scope); group 3: 403.',
  tags: ['declarations'],
  auth: 'user',
  querystring: Type.Object({
    month: MonthParam,
    buildingId: Type.Optional(Id),
    status: Type.Optional(DeclarationStatusSchema),
  }),
  response: Type.Object({ Month: MonthParam, Rows: Type.Array(OfficeDeclaration) }),
});

export const getDeclarationPhoto = defineEndpoint({
  method: 'GET',
  path: '/declarations/:id/photo',
  summary:
    "A declaration's photo (JPEG or PNG, as stored: re-encoded without metadata). Groups 1 and 2 within their " +
    'scope; 404 for a declaration outside it or without a photo.',
  tags: ['declarations'],
  auth: 'user',
  params: Type.Object({ id: Id }),
  response: Type.String(),
  produces: 'image/*',
});

export const decideDeclaration = defineEndpoint({
  method: 'POST',
  path: '/declarations/:id/decision',
  summary:
    'Accepts or rejects a declaration (a rejection needs a reason and stops it counting); audited; the occupant is ' +
    'told by e-mail where they consented, in their language. Groups 1 and 2 (its scope).',
  tags: ['declarations'],
  auth: 'user',
  params: Type.Object({ id: Id }),
  body: Type.Object({
    accept: Type.Boolean(),
    /** Required to reject. */
    reason: Type.Optional(Type.String({ maxLength: DECISION_REASON_MAX_LENGTH })),
  }),
  response: OfficeDeclaration,
});

/** A declared device (read method manual) of a flat in service, and what its window holds. */
export const DeclarationDeviceRow = Type.Object({
  DeviceId: Id,
  DeviceCode: Type.String(),
  DeviceTypeId: Type.Integer(),
  BuildingId: Id,
  Address: Type.String(),
  FlatId: Id,
  Flat: Type.String(),
  FlatOrder: Nullable(Type.Integer()),
  /** The flat's occupancy on the window's last day (null: nobody lives there). */
  OccupancyId: Nullable(Id),
  OccupantName: Nullable(Type.String()),
  /** The occupant has an e-mail address and consented to electronic delivery. */
  Email: Type.Boolean(),
  /** A declaration of the month counts (not rejected). */
  Declared: Type.Boolean(),
  /** The value that counts for the month, if any. */
  Value: Nullable(Type.Number()),
  /** The reminders already queued for this window: reminderStart, reminderEnd. */
  Reminders: Type.Array(Type.String()),
});
export type DeclarationDeviceRow = Static<typeof DeclarationDeviceRow>;

const DevicesQuery = Type.Object({
  /** The window's month (default: the month whose window is open now, else the last one that closed). */
  month: Type.Optional(MonthParam),
  buildingId: Type.Optional(Id),
  /** Only the devices without a declaration that counts. */
  undeclared: Type.Optional(Type.Boolean()),
});

export const listDeclarationDevices = defineEndpoint({
  method: 'GET',
  path: '/declarations/devices',
  summary:
    'The declared devices (read method manual) of flats in service in a month, with whether a declaration counts ' +
    'and the reminders sent; `undeclared` lists only those without. Groups 1 and 2 (its scope).',
  tags: ['declarations'],
  auth: 'user',
  querystring: DevicesQuery,
  response: Type.Object({ Month: MonthParam, Opens: Day, Closes: Day, Rows: Type.Array(DeclarationDeviceRow) }),
});

export const getUndeclaredPrintList = defineEndpoint({
  method: 'GET',
  path: '/declarations/devices/print-list',
  summary:
    'The reminders that go by post: the flats without a declaration in the window whose occupant has no e-mail ' +
    'consent, one block per flat sorted by address and flat (PDF). Groups 1 and 2 (its scope).',
  tags: ['declarations'],
  auth: 'user',
  querystring: Type.Object({
    month: Type.Optional(MonthParam),
    buildingId: Type.Optional(Id),
    lang: Type.Optional(StatementLanguage),
  }),
  response: Type.String(),
  produces: 'application/pdf',
});
