import { type Static, Type } from '@sinclair/typebox';
import { Day, Id, MonthParam, Nullable, Timestamp } from './common.js';
import { defineEndpoint } from './endpoint.js';

/*
 * Readings the occupant declares (docs/declared-readings.md): a device read by hand (read method
 * `manual`) is declared by its occupant on their own pages inside the month's window, or by the
 * back office for them (a phone call). The declaration that counts for a month (the latest; on one
 * day the largest) becomes the device's reading, and its month end, with source `declared`.
 */

/** accepted: it counts; doubtful: outside the plausible bounds and confirmed (an anomaly is open); rejected by the back office. */
export const DECLARATION_STATUSES = ['accepted', 'doubtful', 'rejected'] as const;
export type DeclarationStatus = (typeof DECLARATION_STATUSES)[number];
export const DeclarationStatusSchema = Type.Union(DECLARATION_STATUSES.map((s) => Type.Literal(s)));

/** Where a declaration was entered: on the occupant's pages, or by the back office for a phone call. */
export const DECLARATION_CHANNELS = ['occupant', 'phone'] as const;
export type DeclarationChannel = (typeof DECLARATION_CHANNELS)[number];
export const DeclarationChannelSchema = Type.Union(DECLARATION_CHANNELS.map((c) => Type.Literal(c)));

/** A photo: JPEG or PNG by its content, at most this many bytes. */
export const DECLARATION_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const DECLARATION_PHOTO_TYPES = ['image/jpeg', 'image/png'] as const;
/** The largest declared value (a meter's register; kept below the database's bound). */
export const DECLARATION_VALUE_MAX = 1e9;

/** One declaration as stored. */
export const Declaration = Type.Object({
  Id: Id,
  DeviceId: Id,
  OccupancyId: Id,
  /** The flat. */
  LocationId: Id,
  Value: Type.Number(),
  DeclaredAt: Timestamp,
  /** The month it is for, YYYY-MM. */
  Month: MonthParam,
  Channel: DeclarationChannelSchema,
  /** The back-office user who entered it (phone); null when the occupant did. */
  EnteredBy: Nullable(Type.String()),
  PhotoId: Nullable(Id),
  Status: DeclarationStatusSchema,
  /** rejected: why (the occupant is told). */
  Reason: Nullable(Type.String()),
  /** The occupant confirmed a value outside the plausible bounds. */
  Confirmed: Type.Boolean(),
  /** The value it was checked against, and the plausible maximum (previous + the allowance). */
  PreviousValue: Nullable(Type.Number()),
  PlausibleMax: Nullable(Type.Number()),
  /** This is the declaration that counts for its month (the latest; on one day the largest). */
  Counts: Type.Boolean(),
});
export type Declaration = Static<typeof Declaration>;

/** A month's declaration window in the provider's zone: from `Opens` to `Closes` (whole days). */
export const DeclarationWindow = Type.Object({
  /** The month declared now, or the next one whose window opens. */
  Month: MonthParam,
  Opens: Day,
  Closes: Day,
  /** The window is open now. */
  Open: Type.Boolean(),
});
export type DeclarationWindow = Static<typeof DeclarationWindow>;

/** A device of the occupant's flat that they declare, with what the checks compare against. */
export const DeclaredDevice = Type.Object({
  DeviceId: Id,
  DeviceTypeId: Type.Integer(),
  DeviceCode: Type.String(),
  /** The last value before this month's window (a reading or a counted declaration); null: none. */
  PreviousValue: Nullable(Type.Number()),
  PreviousAt: Nullable(Timestamp),
  /** Above this the occupant must confirm and is asked for a photo. */
  PlausibleMax: Nullable(Type.Number()),
  /** This window's declarations of the device, the latest first. */
  Declarations: Type.Array(Declaration),
});
export type DeclaredDevice = Static<typeof DeclaredDevice>;

export const OccupantDeclarations = Type.Object({
  Window: DeclarationWindow,
  Devices: Type.Array(DeclaredDevice),
});
export type OccupantDeclarations = Static<typeof OccupantDeclarations>;

export const DeclareBody = Type.Object({
  deviceId: Id,
  value: Type.Number({ minimum: 0, maximum: DECLARATION_VALUE_MAX }),
  /** A photo uploaded before (uploadOccupantPhoto). */
  photoId: Type.Optional(Id),
  /** The occupant confirms a value above the plausible maximum. */
  confirm: Type.Optional(Type.Boolean()),
});
export type DeclareBody = Static<typeof DeclareBody>;

/** What the occupant sees after declaring (and gets by e-mail with consent). */
export const DeclarationReceipt = Type.Object({
  Declaration: Declaration,
  DeviceCode: Type.String(),
  /** A receipt went out by e-mail (consent and an address). */
  Emailed: Type.Boolean(),
});
export type DeclarationReceipt = Static<typeof DeclarationReceipt>;

export const PhotoUploaded = Type.Object({
  PhotoId: Id,
  Mime: Type.Union(DECLARATION_PHOTO_TYPES.map((t) => Type.Literal(t))),
  Width: Type.Integer(),
  Height: Type.Integer(),
});
export type PhotoUploaded = Static<typeof PhotoUploaded>;
export const getOccupantDeclarations = defineEndpoint({
  method: 'GET',
  path: '/occupant/declarations',
  summary:
    "The declaration window and the occupant's declared devices (read method manual; remote devices never), " +
    'with the previous value and this window’s declarations (docs/declared-readings.md).',
  tags: ['occupant'],
  auth: 'occupant',
  response: OccupantDeclarations,
});

export const uploadOccupantPhoto = defineEndpoint({
  method: 'POST',
  path: '/occupant/declarations/photos',
  summary:
    'A photo of a meter for a declaration: the raw JPEG or PNG (at most 5 MB), its type checked by content; it is ' +
    're-encoded without metadata before it is stored (docs/declared-readings.md).',
  tags: ['occupant'],
  auth: 'occupant',
  consumes: ['image/jpeg', 'image/png', 'application/octet-stream'],
  maxBodyBytes: DECLARATION_PHOTO_MAX_BYTES,
  response: PhotoUploaded,
  status: 201,
});

export const declareReading = defineEndpoint({
  method: 'POST',
  path: '/occupant/declarations',
  summary:
    'Declares a device’s reading inside the window (docs/declared-readings.md): not below the previous value ' +
    '(unless a replacement lies between); above the plausible maximum only with `confirm` (then doubtful, an ' +
    'anomaly opens). A receipt on screen and by e-mail with consent. Another flat’s device: 404.',
  tags: ['occupant'],
  auth: 'occupant',
  body: DeclareBody,
  response: DeclarationReceipt,
  status: 201,
});
