import { type Static, Type } from '@sinclair/typebox';
import { Day, Id, IdParams, Nullable } from '../common.js';
import { DEVICE_CODE_MAX_LENGTH, DEVICE_CODE_PATTERN } from '../device-codes.js';
import { DEVICE_MODEL_MAX_LENGTH } from '../device-models.js';
import { DeviceRowFields } from '../devices.js';
import { DEVICE_ROLES, LOCATION_LEVEL } from '../domain.js';
import { defineEndpoint } from '../endpoint.js';
import { MAX_READING } from '../input.js';
import { ReadMethodSchema } from '../lifetime.js';
import { NAME_MAX_LENGTH } from '../limits.js';
import { DecoderId, DevEui } from '../lorawan.js';

/* The location tree, its flats' clients and its devices, edited by group 1 (docs/master-data.md). */

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
  /** A LoRaWAN meter's DevEUI, upper case (docs/lorawan.md); null: not a LoRaWAN meter. */
  DevEui: Nullable(Type.String()),
  /** How its LoRaWAN uplinks are decoded: a built-in decoder's id or `lnsMapping`; null: by its model. */
  Decoder: Nullable(Type.String()),
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
/** The largest rating factor of a device (the form refuses a larger one at its field too). */
export const RATING_FACTOR_MAX = 999_999;
const RatingFactor = Type.Number({ exclusiveMinimum: 0, maximum: RATING_FACTOR_MAX });
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
  /** A LoRaWAN meter's DevEUI (16 hex digits, unique: one in use is 409); default: none. */
  devEui: Type.Optional(Nullable(DevEui)),
  /** A built-in decoder's id or `lnsMapping` (docs/lorawan.md); default: by its model. */
  decoder: Type.Optional(Nullable(DecoderId)),
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
    "Change a device's description, rating factor, counter code, model, verification day, read method, DevEUI or " +
    'decoder. Group 1 only.',
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
    /** Its DevEUI (null: none); one in use by another device is 409. */
    devEui: Type.Optional(Nullable(DevEui)),
    decoder: Type.Optional(Nullable(DecoderId)),
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
  /**
   * The new device's DevEUI (docs/lorawan.md, "Replacing a meter"). Default: none, the old device keeps
   * its own; `keepDevEui: true` moves the old device's DevEUI to the new one (the radio module moved
   * with the meter). Both given: 400.
   */
  newDevEui: Type.Optional(Nullable(DevEui)),
  keepDevEui: Type.Optional(Type.Boolean()),
  /** Default: the old device's. */
  newDecoder: Type.Optional(Nullable(DecoderId)),
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
