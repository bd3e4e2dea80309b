import { type Static, Type } from '@sinclair/typebox';
import { defineEndpoint } from '../endpoint.js';
import { BULK_BODY_BYTES } from '../input.js';
import type { Language } from '../limits.js';

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
  // A LoRaWAN meter's DevEUI, 16 hex digits (docs/lorawan.md); an empty cell keeps the stored one.
  { key: 'DevEui', en: 'DevEUI', lt: 'DevEUI', required: false },
  { key: 'RatingFactor', en: 'Rating factor', lt: 'Koeficientas', required: false },
  { key: 'InstalledAt', en: 'Installation date', lt: 'Įrengimo data', required: false },
  // The device's lifetime (docs/device-lifetime.md); an empty cell keeps the stored value.
  { key: 'VerifiedOn', en: 'Verified on', lt: 'Patikros data', required: false },
  { key: 'ReadMethod', en: 'Read method', lt: 'Nuskaitymo būdas', required: false },
  // A building-level device's role in the heat split (docs/heat-method.md, "Devices"): hotWaterInput
  // (a hot-water meter on the building) or hotWaterHeat (a building heat meter); an empty cell: none.
  { key: 'DeviceRole', en: 'Device role', lt: 'Prietaiso paskirtis', required: false },
  // The building's heat method from a month on (docs/heat-method.md), on any of its rows, the same on each.
  { key: 'HeatMethodFrom', en: 'Heat method from', lt: 'Šilumos metodas nuo', required: false },
  { key: 'HeatMethod', en: 'Heat method', lt: 'Šilumos metodas', required: false },
  { key: 'HeatKwhPerM3', en: 'Hot-water heat, kWh/m³', lt: 'Karšto vandens šiluma, kWh/m³', required: false },
  { key: 'HeatCirculationNorm', en: 'Circulation norm, kWh', lt: 'Cirkuliacijos norma, kWh', required: false },
  { key: 'HeatingSeason', en: 'Heating season', lt: 'Šildymo sezonas', required: false },
  { key: 'HeatCommonShare', en: 'Common-areas share, %', lt: 'Bendrųjų patalpų dalis, %', required: false },
  { key: 'HeatBaseShare', en: 'Base share, %', lt: 'Bazinė dalis, %', required: false },
  { key: 'HeatMinimumShare', en: 'Minimum share k_min', lt: 'Minimali dalis k_min', required: false },
  // The flat's parameters of that method, on the flat's rows.
  { key: 'PositionFactor', en: 'Position factor', lt: 'Padėties koeficientas', required: false },
  { key: 'CirculationClass', en: 'Circulation class, kWh', lt: 'Cirkuliacijos klasė, kWh', required: false },
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
  /** A heating season's period that is not `first..last` days, ends before it starts or overlaps another (params.column, params.value). */
  'INVALID_SEASON',
  /** The building's heat method, or the flat's parameters of it, differ from an earlier row's (params.column, params.line). */
  'HEAT_METHOD_CONFLICT',
  /** A DevEui cell that is not 16 hex digits (params.value): docs/lorawan.md. */
  'INVALID_DEV_EUI',
  /** The DevEUI is another device's, in the file or stored (params.devEui, params.code, params.line: 0 when stored). */
  'DEV_EUI_USED',
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
