import { type Static, Type } from '@sinclair/typebox';
import { Day, Id, IdList, IdParams, MonthParam, Nullable, Ok, Timestamp } from './common.js';
import { MonthEndSource } from './data-quality.js';
import { defineEndpoint } from './endpoint.js';
import { StatementKind, StatementLanguage } from './statements/figures.js';

/**
 * The billing system's interface (docs/integration.md): integration keys that read the billing
 * export, the readings and the statements inside their subtrees; the versioned month export;
 * receivers told when a month is published.
 */

/** Every integration key starts with this, so that a sign-in token and a key are told apart (and a leaked key is recognised). */
export const INTEGRATION_KEY_PREFIX = 'rdm_live_';
/** Most location subtrees one key may hold. */
export const MAX_KEY_LOCATIONS = 100;
/** Longest validity of a key, in days. */
export const MAX_KEY_DAYS = 3 * 366;

export const IntegrationKey = Type.Object({
  Id: Id,
  Name: Type.String(),
  /** The key's first characters, to recognise it; the key itself is shown once, on creation. */
  Prefix: Type.String(),
  /** The subtrees it reads, with their names. */
  Locations: Type.Array(Type.Object({ Id: Id, Name: Type.String() })),
  /** Keys only read: always true. */
  ReadOnly: Type.Boolean(),
  ExpiresAt: Timestamp,
  CreatedAt: Timestamp,
  CreatedBy: Nullable(Type.String()),
  /** When it was last used (noted at most every 5 minutes). */
  LastUsedAt: Nullable(Timestamp),
  RevokedAt: Nullable(Timestamp),
});
export type IntegrationKey = Static<typeof IntegrationKey>;

export const listIntegrationKeys = defineEndpoint({
  method: 'GET',
  path: '/integrations/keys',
  summary:
    'Integration keys (docs/integration.md): group 1 sees all, group 2 those whose subtrees lie in its scope. ' +
    'Groups 1 and 2 only.',
  tags: ['integrations'],
  auth: 'user',
  response: Type.Object({ Keys: Type.Array(IntegrationKey) }),
});

export const createIntegrationKey = defineEndpoint({
  method: 'POST',
  path: '/integrations/keys',
  summary:
    'Creates a read-only integration key for location subtrees (group 2: inside its scope) until a day. ' +
    'The answer holds the key; it is never shown again. Audited.',
  tags: ['integrations'],
  auth: 'user',
  body: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 100 }),
    locationIds: Type.Array(Id, { minItems: 1, maxItems: MAX_KEY_LOCATIONS }),
    /** The last day it works (in the provider's zone). */
    expiresOn: Day,
  }),
  response: Type.Object({ Key: Type.String(), Created: IntegrationKey }),
  status: 201,
});

export const revokeIntegrationKey = defineEndpoint({
  method: 'POST',
  path: '/integrations/keys/:id/revoke',
  summary: 'Revokes an integration key at once, on every instance. Audited. 404 outside the caller’s reach.',
  tags: ['integrations'],
  auth: 'user',
  params: IdParams,
  response: IntegrationKey,
});

/** Which line of the export a row is (`occupancy`: one occupant's part of a flat with a move in the month). */
export const BILLING_LINES = ['device', 'flat', 'occupancy', 'building'] as const;
export type BillingLine = (typeof BILLING_LINES)[number];
/** A row of a difference: new in this version, changed, or gone since the version compared with. */
export const BILLING_CHANGES = ['added', 'changed', 'removed'] as const;

/**
 * One row of the billing export (docs/integration.md, "Fields"). `device`: one device's month-end
 * values at both ends and its consumption; `flat`: one flat's figure of a kind (the statement's);
 * `occupancy`: one occupant's part of it, as the occupants' statements split a month with a move;
 * `building`: the building heat meter's energy, what the flats with their own heat meter took, and
 * what was shared among allocators. Units: kWh (energy), m3 (water), units (allocators).
 */
export const BillingRow = Type.Object({
  Month: MonthParam,
  /** `published`: a frozen version; `live`: computed now, may still change. */
  Status: Type.Union([Type.Literal('published'), Type.Literal('live')]),
  Version: Nullable(Type.Integer()),
  PublishedAt: Nullable(Timestamp),
  /** In a difference: how this row changed since the version compared with; else null. */
  Change: Nullable(Type.Union(BILLING_CHANGES.map((c) => Type.Literal(c)))),
  Line: Type.Union(BILLING_LINES.map((l) => Type.Literal(l))),
  BuildingId: Id,
  FlatId: Nullable(Id),
  City: Nullable(Type.String()),
  Street: Nullable(Type.String()),
  Building: Nullable(Type.String()),
  Flat: Nullable(Type.String()),
  /** The account the row is billed to: the occupancy's client code and the occupant's name (see `Books`). */
  AccountCode: Nullable(Type.String()),
  AccountName: Nullable(Type.String()),
  DeviceId: Nullable(Id),
  /** Serial number. */
  DeviceCode: Nullable(Type.String()),
  DeviceTypeId: Nullable(Type.Integer()),
  Kind: Nullable(StatementKind),
  /** kWh, m3, units (allocators), Qrad. */
  Unit: Nullable(Type.String()),
  /** The value at the end of the month before (or at installation), when, and where it comes from. */
  StartValue: Nullable(Type.Number()),
  StartTime: Nullable(Timestamp),
  StartSource: Nullable(MonthEndSource),
  /** The value at the end of the month (or at removal). */
  EndValue: Nullable(Type.Number()),
  EndTime: Nullable(Timestamp),
  EndSource: Nullable(MonthEndSource),
  /** End − start (device), or the statement's figure of the kind (flat). */
  Consumption: Nullable(Type.Number()),
  /** Allocators: units, rating factor, Qrad = units × rating factor. */
  Units: Nullable(Type.Number()),
  RatingFactor: Nullable(Type.Number()),
  Qrad: Nullable(Type.Number()),
  /** Allocator flats: their share of the building meter's energy (kWh), and how it was found. */
  KwhShare: Nullable(Type.Number()),
  KwhMethod: Nullable(Type.String()),
  /** Building line: the building heat meters' energy, the flat heat meters' energy subtracted, and what was shared. */
  BuildingMeterKwh: Nullable(Type.Number()),
  SubtractedKwh: Nullable(Type.Number()),
  SharedKwh: Nullable(Type.Number()),
  /** Some value behind it is interpolated, estimated or manual. */
  Partial: Type.Boolean(),
  /** A value is missing: the figure is not given. */
  Incomplete: Type.Boolean(),
  /** Occupancy rows: the occupancy, the occupant's first and last day of the month and their number of days. */
  OccupancyId: Nullable(Id),
  OccupancyFrom: Nullable(Day),
  OccupancyTill: Nullable(Day),
  Days: Nullable(Type.Integer()),
  /**
   * The rows a billing system books (docs/integration.md, "Which rows to book"): a flat's rows per kind, or,
   * for a flat with a move in the month, its occupants' rows instead (its own rows stay, for reference).
   */
  Books: Type.Boolean(),
  /**
   * Heating by the building's heat method (docs/heat-method.md), so a billing system need not
   * recompute: the method and the month its version is valid from; on a flat's heating row its parts
   * (space heating = consumption + base + common + no device + heat meter + assigned), on the
   * building row the building's parts and its input. Null without a method.
   */
  HeatMethod: Nullable(Type.String()),
  HeatMethodFrom: Nullable(Type.String()),
  HeatInputKwh: Nullable(Type.Number()),
  HeatConsumptionKwh: Nullable(Type.Number()),
  HeatBaseKwh: Nullable(Type.Number()),
  HeatCommonKwh: Nullable(Type.Number()),
  HeatNoDeviceKwh: Nullable(Type.Number()),
  HeatMeterPartKwh: Nullable(Type.Number()),
  HeatAssignedKwh: Nullable(Type.Number()),
  HeatSpaceKwh: Nullable(Type.Number()),
  HotWaterHeatKwh: Nullable(Type.Number()),
  CirculationKwh: Nullable(Type.Number()),
  HeatTotalKwh: Nullable(Type.Number()),
  /**
   * Devices past their verification due date or battery end in the month (docs/device-lifetime.md,
   * "Overdue figures"): on a flat's or occupant's row those behind its figure, on a device row the
   * device itself, on the building row its heat meters; each as `serial (due date, reason)`, joined
   * by `; `. Null when none.
   */
  OverdueDevices: Nullable(Type.String()),
});
export type BillingRow = Static<typeof BillingRow>;

/** The columns of the CSV and XLSX files: the row's members in this order. */
export const BILLING_COLUMNS = Object.keys(BillingRow.properties) as (keyof BillingRow)[];

export const BILLING_FORMATS = ['csv', 'xlsx'] as const;

const ExportQuery = {
  month: MonthParam,
  /** Subtrees (location ids); absent = everything the caller reads. */
  locationParentId: Type.Optional(IdList),
  /** A published version of each building (absent: the latest; a building without it is left out). */
  version: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  /** Only what changed since this version: an existing version earlier than the one exported (400 naming `since` otherwise). */
  since: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  /** The figures as computed now, even where the month is published. */
  live: Type.Optional(Type.Boolean()),
};

export const getBillingExport = defineEndpoint({
  method: 'GET',
  path: '/billing/export',
  summary:
    'The billing export of a month (docs/integration.md): per device, flat and building, the month-end values, ' +
    'consumption, allocator units, Qrad and kWh share, the building meter line, the account and the publication ' +
    'version. Streamed building by building; a published version answers the same bytes every time.',
  tags: ['billing'],
  auth: 'user',
  querystring: Type.Object(ExportQuery),
  response: Type.Object({ Month: MonthParam, Rows: Type.Array(BillingRow) }),
});

export const getBillingExportFile = defineEndpoint({
  method: 'GET',
  path: '/billing/export/file',
  summary: 'The same rows as /billing/export as a CSV (`;`, UTF-8) or XLSX file (docs/integration.md).',
  tags: ['billing'],
  auth: 'user',
  querystring: Type.Object({ ...ExportQuery, format: Type.Union(BILLING_FORMATS.map((f) => Type.Literal(f))) }),
  response: Type.String(),
  produces: 'application/octet-stream',
});

/** Where a publication is announced. */
export const BillingReceiver = Type.Object({
  Id: Id,
  Name: Type.String(),
  Kind: Type.Union([Type.Literal('webhook'), Type.Literal('email')]),
  Url: Nullable(Type.String()),
  Email: Nullable(Type.String()),
  Language: StatementLanguage,
  Active: Type.Boolean(),
  CreatedAt: Timestamp,
});
export type BillingReceiver = Static<typeof BillingReceiver>;

export const listBillingReceivers = defineEndpoint({
  method: 'GET',
  path: '/integrations/receivers',
  summary: 'Receivers told when a month is published (webhooks and e-mails). Group 1 only.',
  tags: ['integrations'],
  auth: 'operator',
  response: Type.Object({ Receivers: Type.Array(BillingReceiver) }),
});

export const createBillingReceiver = defineEndpoint({
  method: 'POST',
  path: '/integrations/receivers',
  summary:
    'Adds a receiver: a webhook (an https URL, or http on an allowed internal network; never an internal address ' +
    'otherwise, nor one with a user name or password: 400 naming `url`; the answer holds its signing secret, shown ' +
    'once) or an e-mail address. Group 1 only; audited (docs/integration.md).',
  tags: ['integrations'],
  auth: 'operator',
  body: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 100 }),
    kind: Type.Union([Type.Literal('webhook'), Type.Literal('email')]),
    url: Type.Optional(Type.String({ maxLength: 2000 })),
    email: Type.Optional(Type.String({ maxLength: 254 })),
    language: Type.Optional(StatementLanguage),
  }),
  response: Type.Object({ Receiver: BillingReceiver, Secret: Nullable(Type.String()) }),
  status: 201,
});

export const disableBillingReceiver = defineEndpoint({
  method: 'POST',
  path: '/integrations/receivers/:id/disable',
  summary: 'Stops telling a receiver (its pending deliveries are given up). Group 1 only; audited.',
  tags: ['integrations'],
  auth: 'operator',
  params: IdParams,
  response: Ok,
});

/**
 * How an attempt ended (docs/integration.md, "Notices on publication"): `accepted` (a 2xx, or the SMTP server
 * took the mail), `httpStatus` (another status, in `Status`), or why no answer came. The web app shows each in
 * the reader's language; `DELIVERY_REASON_TEXT` is the English text the API gives as `Error`.
 */
export const DELIVERY_REASONS = [
  'accepted',
  'httpStatus',
  'connectionRefused',
  'connectionReset',
  'timedOut',
  'tlsError',
  'refusedAddress',
  'nameNotResolved',
  'networkError',
  'mailNotConfigured',
  'mailRefused',
] as const;
export type DeliveryReason = (typeof DELIVERY_REASONS)[number];

/** The English text of each reason (the attempt's `Error`); `{{status}}` is the HTTP status. */
export const DELIVERY_REASON_TEXT: Record<DeliveryReason, string> = {
  accepted: 'accepted',
  httpStatus: 'HTTP {{status}}',
  connectionRefused: 'connection refused',
  connectionReset: 'connection closed by the receiver',
  timedOut: 'timed out',
  tlsError: 'TLS error',
  refusedAddress: 'refused address (internal or not allowed)',
  nameNotResolved: 'the name does not resolve',
  networkError: 'network error',
  mailNotConfigured: 'mail is not configured (SMTP_URL)',
  mailRefused: 'refused by the mail server',
};

/** One attempt to deliver one notice: no more of the answer than its status and a short reason. */
export const BillingDeliveryAttempt = Type.Object({
  /** When it was sent (stamped and signed then). */
  At: Timestamp,
  /** The receiver's HTTP status (webhook), or null when it did not answer (see Reason). */
  Status: Nullable(Type.Integer()),
  Reason: Type.Union(DELIVERY_REASONS.map((r) => Type.Literal(r))),
  /** The answer's reason phrase (HTTP) or the mail server's reply, printable characters only, at most 100. */
  Response: Nullable(Type.String()),
  /** The reason in English when not accepted (`DELIVERY_REASON_TEXT`), else null. */
  Error: Nullable(Type.String()),
  DurationMs: Type.Integer(),
});

export const BillingDelivery = Type.Object({
  Id: Id,
  ReceiverId: Id,
  ReceiverName: Type.String(),
  Month: MonthParam,
  Version: Type.Integer(),
  BuildingIds: Type.Array(Id),
  CreatedAt: Timestamp,
  /** Delivered (2xx, or accepted by the SMTP server), given up after 24 hours, or still pending. */
  State: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  NextAttemptAt: Nullable(Timestamp),
  Attempts: Type.Array(BillingDeliveryAttempt),
});
export type BillingDelivery = Static<typeof BillingDelivery>;

export const listBillingDeliveries = defineEndpoint({
  method: 'GET',
  path: '/integrations/deliveries',
  summary: 'The delivery log: each notice with every attempt and its answer (newest first). Group 1 only.',
  tags: ['integrations'],
  auth: 'operator',
  querystring: Type.Object({ receiverId: Type.Optional(Id) }),
  response: Type.Object({ Deliveries: Type.Array(BillingDelivery) }),
});
