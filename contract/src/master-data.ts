import { type Static, Type } from '@sinclair/typebox';
import { Day, Id, IdParams, Nullable } from './common.js';
import { DEVICE_CODE_MAX_LENGTH, DEVICE_CODE_PATTERN } from './device-codes.js';
import { DEVICE_MODEL_MAX_LENGTH } from './device-models.js';
import { DeviceRowFields } from './devices.js';
import { DEVICE_ROLES, LOCATION_LEVEL } from './domain.js';
import { defineEndpoint } from './endpoint.js';
import { BULK_BODY_BYTES, MAX_READING } from './input.js';
import { ReadMethodSchema } from './lifetime.js';
import { type Language, NAME_MAX_LENGTH } from './limits.js';

/**
 * The columns of a register file (one row per device), in template order, with
 * their headers in both languages. A file may use either language's headers
 * (or the keys themselves); the order of columns in a file does not matter.
 */
export const REGISTER_COLUMNS = [
  { key: 'Country', en: 'Country', lt: 'Šalis', required: true },
  { key: 'County', en: 'County', lt: 'Apskritis', required: true },
  { key: 'Region', en: 'Region', lt: 'Savivaldybė', required: true },
  { key: 'City', en: 'City', lt: 'Miestas', required: true },
  { key: 'Street', en: 'Street', lt: 'Gatvė', required: true },
  { key: 'Building', en: 'Building', lt: 'Pastatas', required: true },
  { key: 'Flat', en: 'Flat', lt: 'Butas', required: false },
  { key: 'FlatOrder', en: 'Flat order', lt: 'Buto eilė', required: false },
  { key: 'FlatArea', en: 'Flat area (m²)', lt: 'Buto plotas (m²)', required: false },
  { key: 'ObjectCode', en: 'Object code', lt: 'Objekto kodas', required: true },
  { key: 'ObjectName', en: 'Object name', lt: 'Objekto pavadinimas', required: false },
  { key: 'ObjectTypeCode', en: 'Object type code', lt: 'Objekto tipo kodas', required: false },
  { key: 'ObjectTypeName', en: 'Object type', lt: 'Objekto tipas', required: false },
  { key: 'ObjectCategoryCode', en: 'Object category code', lt: 'Objekto kategorijos kodas', required: false },
  { key: 'ObjectCategoryName', en: 'Object category', lt: 'Objekto kategorija', required: false },
  { key: 'ClientCode', en: 'Client code', lt: 'Kliento kodas', required: false },
  { key: 'ClientName', en: 'Client name', lt: 'Kliento pavadinimas', required: false },
  { key: 'ClientTypeCode', en: 'Client type code', lt: 'Kliento tipo kodas', required: false },
  { key: 'ClientTypeName', en: 'Client type', lt: 'Kliento tipas', required: false },
  { key: 'ClientCategoryCode', en: 'Client category code', lt: 'Kliento kategorijos kodas', required: false },
  { key: 'ClientCategoryName', en: 'Client category', lt: 'Kliento kategorija', required: false },
  // The flat's occupant on this row's account (docs/occupancies.md); without these a flat gets one open occupancy.
  { key: 'OccupantName', en: 'Occupant name', lt: 'Gyventojo vardas, pavardė', required: false },
  { key: 'OccupantEmail', en: 'Occupant e-mail', lt: 'Gyventojo el. paštas', required: false },
  { key: 'OccupantPhone', en: 'Occupant phone', lt: 'Gyventojo telefonas', required: false },
  { key: 'OccupantLanguage', en: 'Occupant language', lt: 'Gyventojo kalba', required: false },
  { key: 'MoveIn', en: 'Move-in date', lt: 'Įsikraustymo data', required: false },
  { key: 'MoveOut', en: 'Move-out date', lt: 'Išsikraustymo data', required: false },
  { key: 'ConsentDate', en: 'Consent date', lt: 'Sutikimo data', required: false },
  { key: 'ConsentChannel', en: 'Consent channel', lt: 'Sutikimo kanalas', required: false },
  { key: 'DeviceType', en: 'Device type', lt: 'Prietaiso tipas', required: true },
  { key: 'DeviceCode', en: 'Device code', lt: 'Prietaiso numeris', required: true },
  { key: 'CounterCode', en: 'Counter code', lt: 'Skaitiklio kodas', required: false },
  { key: 'DeviceDescription', en: 'Description', lt: 'Aprašymas', required: false },
  // The device's model (docs/collectors.md, "Drivers"); an empty cell keeps the stored one.
  { key: 'Model', en: 'Model', lt: 'Modelis', required: false },
  { key: 'RatingFactor', en: 'Rating factor', lt: 'Koeficientas', required: false },
  { key: 'InstalledAt', en: 'Installation date', lt: 'Įrengimo data', required: false },
  // The device's lifetime (docs/device-lifetime.md); an empty cell keeps the stored value.
  { key: 'VerifiedOn', en: 'Verified on', lt: 'Patikros data', required: false },
  { key: 'ReadMethod', en: 'Read method', lt: 'Nuskaitymo būdas', required: false },
  // A building-level device's role in the heat split (docs/heat-method.md, "Devices"): hotWaterInput
  // (a hot-water meter on the building) or hotWaterHeat (a building heat meter); an empty cell: none.
  { key: 'DeviceRole', en: 'Device role', lt: 'Prietaiso paskirtis', required: false },
] as const;
export type RegisterColumn = (typeof REGISTER_COLUMNS)[number]['key'];

/** Why a register row (or the whole file, line 0) was refused; the web translates the code with its params. */
export const IMPORT_ERROR_CODES = [
  /** The file is neither a readable .xlsx nor a .csv. */
  'BAD_FILE',
  /** No data rows. */
  'EMPTY_FILE',
  /** A required column has no header (params.column). */
  'MISSING_COLUMN',
  /** A required cell is empty (params.column). */
  'REQUIRED',
  /** Not a number, or not > 0 for a rating factor (params.column, params.value). */
  'INVALID_NUMBER',
  /** Not a date (params.column, params.value). */
  'INVALID_DATE',
  /** Longer than the column allows (params.column, params.max). */
  'TOO_LONG',
  /** No such device type (params.value). */
  'UNKNOWN_DEVICE_TYPE',
  /** A building heat meter (type 11) with a flat, or a flat device without one. */
  'FLAT_MISMATCH',
  /** The serial number appears earlier in the file (params.line). */
  'DUPLICATE_SERIAL',
  /** The serial number belongs to a device elsewhere (params.address). */
  'SERIAL_USED_ELSEWHERE',
  /** The serial number belongs to a device of another type (params.type). */
  'DEVICE_TYPE_CHANGED',
  /** The serial number belongs to a removed device (params.removedAt). */
  'DEVICE_REMOVED',
  /** The object code belongs to another building, or the building has another object (params.code, params.address). */
  'OBJECT_CONFLICT',
  /** The same object or client code with other details earlier in the file (params.code, params.line). */
  'DETAILS_CONFLICT',
  /** The flat has another client earlier in the file (params.code, params.line). */
  'CLIENT_CONFLICT',
  /** Not one of the accepted values (params.column, params.value, params.allowed). */
  'INVALID_CHOICE',
  /** The occupancy's days overlap another of the flat's (params.from, params.till; params.line when in the file). */
  'OCCUPANCY_OVERLAP',
  /** The move-out date is not after the move-in date (params.column). */
  'MOVE_OUT_BEFORE_MOVE_IN',
  /** A serial number or counter code with a character it may not have (params.column): contract/src/device-codes.ts. */
  'INVALID_CODE',
] as const;
export type ImportErrorCode = (typeof IMPORT_ERROR_CODES)[number];

export const ImportRowError = Type.Object({
  /** 1-based line of the file (the header is line 1); 0 for the whole file. */
  Line: Type.Integer({ minimum: 0 }),
  Code: Type.Union(IMPORT_ERROR_CODES.map((c) => Type.Literal(c))),
  Params: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
  /** The reason in English (the web shows its own translation of Code). */
  Message: Type.String(),
});
export type ImportRowError = Static<typeof ImportRowError>;

const Counts = Type.Object({
  Created: Type.Integer({ minimum: 0 }),
  Changed: Type.Integer({ minimum: 0 }),
  Unchanged: Type.Integer({ minimum: 0 }),
});
export type ImportCounts = Static<typeof Counts>;

/** What an import did (apply) or would do (preview). Nothing is written when Errors is not empty. */
export const ImportReport = Type.Object({
  /** True when the changes were committed (apply without errors). */
  Applied: Type.Boolean(),
  Rows: Type.Integer({ minimum: 0 }),
  Locations: Counts,
  Objects: Counts,
  Clients: Counts,
  Devices: Counts,
  /** Occupancies of flats (docs/occupancies.md). */
  Occupancies: Counts,
  /** Every bad row, in line order (at most MAX_IMPORT_ERRORS). */
  Errors: Type.Array(ImportRowError),
  /** How many errors there were in all. */
  ErrorCount: Type.Integer({ minimum: 0 }),
});
export type ImportReport = Static<typeof ImportReport>;
export const MAX_IMPORT_ERRORS = 1000;

/** The content types a register upload may be sent as (raw body); the format is recognised from the bytes. */
export const REGISTER_CONTENT_TYPES = [
  'application/octet-stream',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;

const uploadSummary =
  'Body: the raw .xlsx or .csv file (Content-Type application/octet-stream, text/csv or the xlsx type). ' +
  'CSV: `;` or `,` separated, UTF-8 (a BOM is fine), decimal comma or point. Group 1 only.';

export const previewRegisterImport = defineEndpoint({
  method: 'POST',
  path: '/masterData/register/preview',
  summary: `Register import dry run: what would be created, changed, left alone, and every bad row. ${uploadSummary}`,
  tags: ['master data'],
  auth: 'operator',
  maxBodyBytes: BULK_BODY_BYTES,
  response: ImportReport,
});

export const applyRegisterImport = defineEndpoint({
  method: 'POST',
  path: '/masterData/register/apply',
  summary: `Register import: all or nothing in one transaction; with any bad row nothing is written (Applied false). ${uploadSummary}`,
  tags: ['master data'],
  auth: 'operator',
  maxBodyBytes: BULK_BODY_BYTES,
  response: ImportReport,
});

export const registerTemplate = defineEndpoint({
  method: 'GET',
  path: '/masterData/register/template',
  summary: 'An empty register file with the headers in the given language (xlsx or csv). Group 1 only.',
  tags: ['master data'],
  auth: 'operator',
  querystring: Type.Object({
    lang: Type.Optional(Type.Union([Type.Literal('lt'), Type.Literal('en')])),
    format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')])),
  }),
  response: Type.String(),
  produces: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
});

/** The header of a register column in a language. */
export const registerHeader = (key: RegisterColumn, lang: Language): string =>
  REGISTER_COLUMNS.find((c) => c.key === key)![lang];

// ---- The location tree and its editing (group 1) ----

export const LocationNode = Type.Object({
  Id,
  ParentId: Nullable(Id),
  /** 1 country … 6 building, 7 flat. */
  Level: Type.Integer({ minimum: LOCATION_LEVEL.country, maximum: LOCATION_LEVEL.flat }),
  Name: Type.String(),
  /** The address as one line. */
  Path: Type.String(),
  FlatOrder: Nullable(Type.Integer()),
  /** A flat's floor area in m² (estimates per m², the statements' averages per m²); null when unknown. */
  AreaM2: Nullable(Type.Number()),
  ChildCount: Type.Integer({ minimum: 0 }),
  /** Devices here (not in the subtree), removed ones included. */
  DeviceCount: Type.Integer({ minimum: 0 }),
  ObjectCode: Nullable(Type.String()),
  ObjectName: Nullable(Type.String()),
  ClientCode: Nullable(Type.String()),
  ClientName: Nullable(Type.String()),
});
export type LocationNode = Static<typeof LocationNode>;

export const listLocationChildren = defineEndpoint({
  method: 'GET',
  path: '/masterData/locations',
  summary: 'The children of a location (or the countries without parentId), for browsing the tree. Group 1 only.',
  tags: ['master data'],
  auth: 'operator',
  querystring: Type.Object({ parentId: Type.Optional(Id) }),
  response: Type.Array(LocationNode),
});

/** The most locations one address search answers. */
export const LOCATION_SEARCH_LIMIT = 50;

export const searchLocations = defineEndpoint({
  method: 'GET',
  path: '/masterData/locations/search',
  summary:
    'Buildings and flats whose address (or building object code) holds every word of `text`, case-insensitive: ' +
    'buildings first, then flats, in address order, at most 50. Group 1 only.',
  tags: ['master data'],
  auth: 'operator',
  querystring: Type.Object({ text: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }) }),
  response: Type.Array(LocationNode),
});

/**
 * A device as the master-data screens show it: its DeviceRow and its model (docs/collectors.md,
 * "Drivers"), which only master data shows.
 */
/** A building-level device's role (docs/heat-method.md, "Devices"). */
export const DeviceRoleSchema = Type.Union(DEVICE_ROLES.map((r) => Type.Literal(r)));

export const MasterDevice = Type.Object({
  ...DeviceRowFields,
  /** The model as master data names it (e.g. "Q caloric 5.5"); picks the wmbusmeters driver. */
  Model: Nullable(Type.String()),
  /** The day of its last verification, or of its manufacture; null = its installation day counts (docs/device-lifetime.md). */
  VerifiedOn: Nullable(Day),
  /** How it is marked as read (null = not said); ReadNow is what counts. */
  ReadMethod: Nullable(ReadMethodSchema),
  /** How it is read now: remote when a collector heard it lately, else as marked, else manual. */
  ReadNow: ReadMethodSchema,
  /** A building-level device's role in the heat split (docs/heat-method.md, "Devices"); null: none. */
  Role: Nullable(DeviceRoleSchema),
  /** When its verification runs out; null when its type has none. */
  VerificationDue: Nullable(Day),
  /** An allocator's battery end; null for other types. */
  BatteryEnd: Nullable(Day),
});
export type MasterDevice = Static<typeof MasterDevice>;

export const LocationDetail = Type.Object({
  Location: LocationNode,
  /** Its ancestors from the country down, for the breadcrumb. */
  Ancestors: Type.Array(Type.Object({ Id, Level: Type.Integer(), Name: Type.String() })),
  /** Devices at this location, removed ones included (RemovedAt set). */
  Devices: Type.Array(MasterDevice),
});
export type LocationDetail = Static<typeof LocationDetail>;

export const getLocation = defineEndpoint({
  method: 'GET',
  path: '/masterData/locations/:id',
  summary: 'One location with its devices. Group 1 only.',
  tags: ['master data'],
  auth: 'operator',
  params: IdParams,
  response: LocationDetail,
});

const Text = (max = NAME_MAX_LENGTH * 2) => Type.String({ maxLength: max });
/** A serial number or counter code: the characters of contract/src/device-codes.ts. */
const Serial = Type.String({
  minLength: 1,
  maxLength: DEVICE_CODE_MAX_LENGTH,
  pattern: DEVICE_CODE_PATTERN,
  description: 'letters, digits and - . _ / inside; no space, line break, ; = # or quote',
});
/** A moment: ISO 8601, with an offset or without one (then it is the provider's local time). */
export const MomentParam = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?)?(Z|[+-]\\d{2}(:?\\d{2})?)?$',
  description: 'YYYY-MM-DDTHH:mm[:ss][offset]; without an offset, the provider time zone',
});
/** The largest flat floor area accepted, m². */
export const FLAT_AREA_MAX = 100_000;
const ReadingValue = Type.Number({ minimum: 0, maximum: MAX_READING });
const RatingFactor = Type.Number({ exclusiveMinimum: 0, maximum: 999_999 });
/** A device model (trimmed; blank = none): any text, the known ones are DEVICE_MODELS. */
const Model = Type.Optional(Nullable(Type.String({ maxLength: DEVICE_MODEL_MAX_LENGTH })));

export const updateLocation = defineEndpoint({
  method: 'PUT',
  path: '/masterData/locations/:id',
  summary:
    'Rename a location (its subtree follows), or change a flat order or floor area (m², null = unknown). Group 1 only. ' +
    'A sibling with the name: 409.',
  tags: ['master data'],
  auth: 'operator',
  params: IdParams,
  body: Type.Object({
    name: Type.Optional(Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH * 2 })),
    flatOrder: Type.Optional(Nullable(Type.Integer({ minimum: -2147483648, maximum: 2147483647 }))),
    areaM2: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: FLAT_AREA_MAX }))),
  }),
  response: LocationNode,
});

export const setFlatClient = defineEndpoint({
  method: 'PUT',
  path: '/masterData/locations/:id/client',
  summary:
    "Set a flat's client by client code (an unknown code with clientName creates the client); null = none. Group 1 only.",
  tags: ['master data'],
  auth: 'operator',
  params: IdParams,
  body: Type.Object({
    clientCode: Nullable(Type.String({ minLength: 1, maxLength: 64 })),
    clientName: Type.Optional(Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH * 2 })),
  }),
  response: LocationNode,
});

export const ClientRow = Type.Object({
  Id,
  ClientCode: Type.String(),
  ClientName: Type.String(),
  /** Flats linked to the client. */
  FlatCount: Type.Integer({ minimum: 0 }),
});
export type ClientRow = Static<typeof ClientRow>;

export const searchClients = defineEndpoint({
  method: 'GET',
  path: '/masterData/clients',
  summary: 'Up to 20 clients whose code or name starts with `search` (case-insensitive). Group 1 only.',
  tags: ['master data'],
  auth: 'operator',
  querystring: Type.Object({ search: Type.Optional(Type.String({ maxLength: 100 })) }),
  response: Type.Array(ClientRow),
});

export const AddDeviceBody = Type.Object({
  /** A flat (types 1–4) or a building (type 11). */
  locationId: Id,
  deviceTypeId: Type.Integer({ minimum: 1, maximum: 32767 }),
  deviceCode: Serial,
  counterCode: Type.Optional(Nullable(Serial)),
  description: Type.Optional(Nullable(Text())),
  ratingFactor: Type.Optional(Nullable(RatingFactor)),
  model: Model,
  /** Default: now. */
  installedAt: Type.Optional(MomentParam),
  /** Stored as a reading at installedAt. */
  initialReading: Type.Optional(ReadingValue),
  /** The day of its verification or manufacture; default: none (the installation day counts). */
  verifiedOn: Type.Optional(Nullable(Day)),
  readMethod: Type.Optional(Nullable(ReadMethodSchema)),
  /**
   * A building-level role (docs/heat-method.md, "Devices"): `hotWaterInput` for a hot-water meter
   * (then on a building), `hotWaterHeat` for a building heat meter; default: none.
   */
  role: Type.Optional(Nullable(DeviceRoleSchema)),
});
export type AddDeviceBody = Static<typeof AddDeviceBody>;

export const addDevice = defineEndpoint({
  method: 'POST',
  path: '/masterData/devices',
  summary:
    'Add a device to a flat (or a building heat meter to a building). A serial already in use: 409. Group 1 only.',
  tags: ['master data'],
  auth: 'operator',
  body: AddDeviceBody,
  response: MasterDevice,
  status: 201,
});

export const updateDevice = defineEndpoint({
  method: 'PUT',
  path: '/masterData/devices/:id',
  summary:
    "Change a device's description, rating factor, counter code, model, verification day or read method. Group 1 only.",
  tags: ['master data'],
  auth: 'operator',
  params: IdParams,
  body: Type.Object({
    description: Type.Optional(Nullable(Text())),
    ratingFactor: Type.Optional(Nullable(RatingFactor)),
    counterCode: Type.Optional(Nullable(Serial)),
    model: Model,
    /** Re-verified: the day of the new verification (docs/device-lifetime.md). */
    verifiedOn: Type.Optional(Nullable(Day)),
    readMethod: Type.Optional(Nullable(ReadMethodSchema)),
  }),
  response: MasterDevice,
});

export const removeDevice = defineEndpoint({
  method: 'POST',
  path: '/masterData/devices/:id/remove',
  summary: 'Remove a device: its final reading is stored at the removal time. Group 1 only.',
  tags: ['master data'],
  auth: 'operator',
  params: IdParams,
  body: Type.Object({ removedAt: MomentParam, finalReading: ReadingValue }),
  response: MasterDevice,
});

export const ReplaceDeviceBody = Type.Object({
  /** When the old device was taken out and the new one put in. */
  replacedAt: MomentParam,
  finalReading: ReadingValue,
  newDeviceCode: Serial,
  initialReading: ReadingValue,
  newCounterCode: Type.Optional(Nullable(Serial)),
  /** Default: the old device's. */
  newDescription: Type.Optional(Nullable(Text())),
  /** Default: the old device's. */
  newRatingFactor: Type.Optional(Nullable(RatingFactor)),
  /** Default: the old device's. */
  newModel: Model,
  /** The new device's verification or manufacture day; default: the replacement day (its dates start anew). */
  newVerifiedOn: Type.Optional(Day),
  /** Default: the old device's. */
  newReadMethod: Type.Optional(Nullable(ReadMethodSchema)),
});
export type ReplaceDeviceBody = Static<typeof ReplaceDeviceBody>;

export const replaceDevice = defineEndpoint({
  method: 'POST',
  path: '/masterData/devices/:id/replace',
  summary:
    'Replace a device in one step (docs/domain.md §8): the old one is removed with its final reading, the new one ' +
    '(same type and place) installed with its initial reading, both at replacedAt. Group 1 only.',
  tags: ['master data'],
  auth: 'operator',
  params: IdParams,
  body: ReplaceDeviceBody,
  response: Type.Object({ Old: MasterDevice, New: MasterDevice }),
  status: 201,
});
