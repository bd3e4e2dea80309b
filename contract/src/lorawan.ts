import { type Static, Type } from '@sinclair/typebox';
import { CollectorLocation } from './collectors.js';
import { Id, IdParams, Nullable, PageQuery, Timestamp } from './common.js';
import { DEVICE_MODEL_MAX_LENGTH } from './device-models.js';
import { defineEndpoint, Paged } from './endpoint.js';

/**
 * LoRaWAN meters (docs/lorawan.md): network-server (LNS) connections and their keys, the
 * endpoints ChirpStack's HTTP integration and The Things Stack's webhooks post to, the
 * radio health of connections and devices, the decoders and the per-model field mappings.
 */

// ---------------------------------------------------------------- identifiers and limits

/**
 * A device's DevEUI: 16 hex digits (EUI-64), nothing else (no separators, no line break).
 * Stored and answered in upper case; accepted in either case.
 */
export const DEV_EUI_PATTERN = '^[0-9A-Fa-f]{16}$';
const DEV_EUI_RE = new RegExp(DEV_EUI_PATTERN);
/** True when `text` is a DevEUI the product accepts. */
export const isDevEui = (text: string): boolean => DEV_EUI_RE.test(text);
export const DevEui = Type.String({
  pattern: DEV_EUI_PATTERN,
  minLength: 16,
  maxLength: 16,
  description: 'DevEUI: 16 hex digits (EUI-64), no separators',
});

/** The two network servers the product takes events from. */
export const LNS_KINDS = ['chirpstack', 'tts'] as const;
export type LnsKind = (typeof LNS_KINDS)[number];
export const LnsKindSchema = Type.Union(LNS_KINDS.map((k) => Type.Literal(k)));

export const LNS_CONNECTION_NAME_MAX_LENGTH = 100;
/** Buildings or streets one connection may serve. */
export const MAX_LNS_LOCATIONS = 1000;
/**
 * Largest body of one LNS event, in bytes. ChirpStack and The Things Stack send one event
 * per request: an uplink with its gateways is 1–10 KB; 64 KB leaves room for many gateways.
 */
export const LNS_EVENT_MAX_BYTES = 64 * 1024;
/** Deepest JSON nesting an LNS event may have (their events nest 4–6 deep). */
export const LNS_EVENT_MAX_DEPTH = 32;
/** Largest FRMPayload, in bytes (LoRaWAN's maximum application payload is 242). */
export const MAX_FRM_PAYLOAD_BYTES = 255;

/**
 * The header an LNS sends the connection's key in: `Authorization: Bearer <key>`, or this one
 * (for an LNS whose Authorization header is taken by something else). Keys start with `rml_`.
 */
export const LNS_KEY_HEADER = 'X-Rodmenys-Key';

/** ChirpStack v4's HTTP integration events (`?event=`). Only up, status, join and log are used. */
export const CHIRPSTACK_EVENTS = ['up', 'status', 'join', 'ack', 'txack', 'log', 'location', 'integration'] as const;
export type ChirpstackEvent = (typeof CHIRPSTACK_EVENTS)[number];

/** Content types the ChirpStack endpoint takes: its JSON marshaler, and its Protobuf marshaler. */
export const CHIRPSTACK_CONTENT_TYPES = [
  'application/json',
  'application/octet-stream',
  'application/protobuf',
  'application/x-protobuf',
] as const;

/**
 * The event kinds counted per connection (health): ChirpStack's events by name, The Things
 * Stack's messages by their field (`uplink_message` = up, `join_accept` = join, anything else
 * under its own name, e.g. `downlink_ack`, `service_data`; an unknown one = `other`).
 */
export const LnsEventKind = Type.String({ maxLength: 64 });

// ---------------------------------------------------------------- decoders and mappings

/**
 * How a device's uplinks are decoded: a built-in decoder's id (listLorawanDecoders), or
 * `lnsMapping` (the LNS's decoded object through the device model's field mapping). A device
 * without one is decoded by its model's built-in decoder when its model has one, else by its
 * model's mapping when one exists, else its uplinks are kept undecoded ("no decoder").
 */
export const LNS_MAPPING_DECODER = 'lnsMapping';

/**
 * The built-in decoder a device model reads by default (docs/lorawan.md, "Decoding"), matched as
 * models are (case and spacing ignored): the Elvaco CMi41xx modules, the Axioma Qalcosonic W1.
 */
export function defaultLorawanDecoder(model: string | null | undefined): string | null {
  const key = (model ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
  if (/^(elvaco )?cmi ?41\d\d\b/.test(key)) return 'elvaco-cmi41xx';
  if (/^(axioma )?qalcosonic w1\b/.test(key)) return 'axioma-qalcosonic-w1';
  return null;
}
export const DECODER_ID_PATTERN = '^[a-zA-Z][a-zA-Z0-9_.-]{0,63}$';
export const DecoderId = Type.String({ pattern: DECODER_ID_PATTERN, maxLength: 64 });

export const LorawanDecoderInfo = Type.Object({
  /** `elvaco-cmi41xx`, `axioma-qalcosonic-w1`, …: the web app names each in the UI language by its id. */
  Id: Type.String(),
  /** The English name. */
  Name: Type.String(),
  MeterType: Type.Union([Type.Literal('heat'), Type.Literal('water')]),
  /** The fPorts it reads; others are kept undecoded. */
  FPorts: Type.Array(Type.Integer({ minimum: 0, maximum: 255 })),
  /** The unit of the register it gives: kWh for an energy device, m3 for a volume device, HCA for an allocator. */
  RegisterUnit: Type.Union([Type.Literal('kWh'), Type.Literal('m3'), Type.Literal('HCA')]),
});
export type LorawanDecoderInfo = Static<typeof LorawanDecoderInfo>;

export const listLorawanDecoders = defineEndpoint({
  method: 'GET',
  path: '/lorawan/decoders',
  summary: 'The built-in payload decoders (docs/lorawan.md, "Decoding"). Group 1 only.',
  tags: ['lorawan'],
  auth: 'operator',
  response: Type.Array(LorawanDecoderInfo),
});

/** Units a mapping's register field may be in; the value is converted to the device type's unit (kWh, m³, HCA units). */
export const MAPPING_UNITS = ['Wh', 'kWh', 'MWh', 'GJ', 'l', 'm3', 'HCA'] as const;
export type MappingUnit = (typeof MAPPING_UNITS)[number];
export const MappingUnitSchema = Type.Union(MAPPING_UNITS.map((u) => Type.Literal(u)));

/**
 * A field of the LNS's decoded object (`object` / `decoded_payload`): names joined by dots, a
 * number for an array element (`meter.readings.0.value`).
 */
export const FIELD_PATH_PATTERN = '^[A-Za-z0-9_$-]{1,64}(\\.[A-Za-z0-9_$-]{1,64}){0,7}$';
export const FieldPath = Type.String({ pattern: FIELD_PATH_PATTERN, maxLength: 200 });

export const LorawanMapping = Type.Object({
  Id,
  /** The device model it applies to (matched as models are: case and spacing ignored). */
  Model: Type.String(),
  /** The field that is the register (a number, or a numeric string). */
  ValueField: Type.String(),
  Unit: MappingUnitSchema,
  /** Multiplies the field's value before the unit conversion (e.g. 0.001 for a count of litres as m³ in `m3`). */
  Scale: Type.Number(),
  /** The field holding the meter's own time (ISO 8601 or Unix seconds); null: the LNS's time. */
  TimeField: Nullable(Type.String()),
  UpdatedAt: Timestamp,
  UpdatedBy: Nullable(Type.String()),
});
export type LorawanMapping = Static<typeof LorawanMapping>;

const MappingBody = Type.Object({
  model: Type.String({ minLength: 1, maxLength: DEVICE_MODEL_MAX_LENGTH, pattern: '\\S' }),
  valueField: FieldPath,
  unit: MappingUnitSchema,
  /** Default 1. */
  scale: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e9 })),
  timeField: Type.Optional(Nullable(FieldPath)),
});

export const listLorawanMappings = defineEndpoint({
  method: 'GET',
  path: '/lorawan/mappings',
  summary: 'The per-model field mappings of LNS-decoded objects, by model. Group 1 only.',
  tags: ['lorawan'],
  auth: 'operator',
  response: Type.Array(LorawanMapping),
});

export const createLorawanMapping = defineEndpoint({
  method: 'POST',
  path: '/lorawan/mappings',
  summary: 'Create the field mapping of a model; a model has at most one (409). Audited. Group 1 only.',
  tags: ['lorawan'],
  auth: 'operator',
  body: MappingBody,
  response: LorawanMapping,
  status: 201,
});

export const updateLorawanMapping = defineEndpoint({
  method: 'PUT',
  path: '/lorawan/mappings/:id',
  summary: "Change a model's field mapping (all fields given). Later uplinks use it. Audited. Group 1 only.",
  tags: ['lorawan'],
  auth: 'operator',
  params: IdParams,
  body: MappingBody,
  response: LorawanMapping,
});

export const deleteLorawanMapping = defineEndpoint({
  method: 'DELETE',
  path: '/lorawan/mappings/:id',
  summary: "Delete a model's field mapping; its devices' later uplinks are kept undecoded. Audited. Group 1 only.",
  tags: ['lorawan'],
  auth: 'operator',
  params: IdParams,
  response: LorawanMapping,
});

// ---------------------------------------------------------------- connections

export const LnsConnection = Type.Object({
  Id,
  Kind: LnsKindSchema,
  Name: Type.String(),
  /** The first characters of the key, to tell keys apart; the key itself is never shown again. */
  Prefix: Type.String(),
  /** The buildings or streets it serves: uplinks of devices elsewhere are taken as unknown DevEUIs. */
  Locations: Type.Array(CollectorLocation),
  CreatedAt: Timestamp,
  CreatedBy: Nullable(Type.String()),
  /** When the key last came (noted at most once a minute). */
  LastUsedAt: Nullable(Timestamp),
  /** When the key was last created or rotated. */
  KeySince: Timestamp,
  /** The path the LNS posts to (under the server's address): `/api/lorawan/chirpstack` or `/api/lorawan/tts`. */
  EndpointPath: Type.String(),
});
export type LnsConnection = Static<typeof LnsConnection>;

/** A connection with its key: in the answer of creation and rotation only. */
export const LnsConnectionWithKey = Type.Object({ ...LnsConnection.properties, Key: Type.String() });
export type LnsConnectionWithKey = Static<typeof LnsConnectionWithKey>;

const ConnectionName = Type.String({ minLength: 1, maxLength: LNS_CONNECTION_NAME_MAX_LENGTH, pattern: '\\S' });
const LocationIds = Type.Array(Id, { maxItems: MAX_LNS_LOCATIONS, uniqueItems: true });

export const listLnsConnections = defineEndpoint({
  method: 'GET',
  path: '/lorawan/connections',
  summary: 'The network-server connections (deleted ones left out), by name. Group 1 only.',
  tags: ['lorawan'],
  auth: 'operator',
  response: Type.Array(LnsConnection),
});

export const createLnsConnection = defineEndpoint({
  method: 'POST',
  path: '/lorawan/connections',
  summary:
    'Create a network-server connection (ChirpStack or The Things Stack) serving the given buildings or streets. ' +
    'The key is in this answer only: it is stored hashed. A name taken (case ignored): 409. Audited. Group 1 only.',
  tags: ['lorawan'],
  auth: 'operator',
  body: Type.Object({ kind: LnsKindSchema, name: ConnectionName, locationIds: Type.Optional(LocationIds) }),
  response: LnsConnectionWithKey,
  status: 201,
});

export const getLnsConnection = defineEndpoint({
  method: 'GET',
  path: '/lorawan/connections/:id',
  summary: 'One network-server connection. Group 1 only.',
  tags: ['lorawan'],
  auth: 'operator',
  params: IdParams,
  response: LnsConnection,
});

export const updateLnsConnection = defineEndpoint({
  method: 'PUT',
  path: '/lorawan/connections/:id',
  summary: 'Rename a connection or replace its buildings (the kind does not change). Audited. Group 1 only.',
  tags: ['lorawan'],
  auth: 'operator',
  params: IdParams,
  body: Type.Object({ name: Type.Optional(ConnectionName), locationIds: Type.Optional(LocationIds) }),
  response: LnsConnection,
});

export const deleteLnsConnection = defineEndpoint({
  method: 'DELETE',
  path: '/lorawan/connections/:id',
  summary:
    'Delete a connection: its key answers 401 from now on; the uplinks it delivered stay. Audited. Group 1 only.',
  tags: ['lorawan'],
  auth: 'operator',
  params: IdParams,
  response: LnsConnection,
});

export const rotateLnsConnectionKey = defineEndpoint({
  method: 'POST',
  path: '/lorawan/connections/:id/key',
  summary:
    'A new key for a connection, in this answer only; the old key answers 401 from now on. Audited. Group 1 only.',
  tags: ['lorawan'],
  auth: 'operator',
  params: IdParams,
  response: LnsConnectionWithKey,
  status: 201,
});

// ---------------------------------------------------------------- health

export const LnsGateway = Type.Object({
  /** As the LNS names it (ChirpStack's gatewayId, The Things Stack's gateway_ids.eui or gateway_id). */
  GatewayId: Type.String(),
  LastSeen: Timestamp,
  /** Devices it heard in the last 24 hours. */
  Devices: Type.Integer({ minimum: 0 }),
  /** Uplinks it heard in the last 24 hours. */
  Uplinks: Type.Integer({ minimum: 0 }),
});
export type LnsGateway = Static<typeof LnsGateway>;

export const DayCount = Type.Object({ Day: Type.String({ format: 'date' }), Count: Type.Integer({ minimum: 0 }) });

export const LnsCodecError = Type.Object({
  At: Timestamp,
  DevEui: Nullable(Type.String()),
  /** ChirpStack's log `code` (e.g. UPLINK_CODEC, F_CNT_RESET) or The Things Stack's event name. */
  Code: Type.String(),
  Description: Type.String(),
});

export const LnsUndecodedDevice = Type.Object({
  DeviceId: Id,
  DevEui: Type.String(),
  /** Why its latest uplink gave no reading (the decoder's reason). */
  Reason: Type.String(),
  /** Its uplinks without a reading in the last 24 hours. */
  Uplinks: Type.Integer({ minimum: 0 }),
});

export const LnsConnectionHealth = Type.Object({
  Id,
  Name: Type.String(),
  Kind: LnsKindSchema,
  /** The latest event of any kind it delivered. */
  LastEvent: Nullable(Timestamp),
  /**
   * Its LNS_SILENT anomaly is open: no event for longer than `collector.silentMinutes`
   * (docs/lorawan.md, "A silent connection").
   */
  Silent: Type.Boolean(),
  /** Uplinks stored per day (provider zone), the last 14 days, oldest first; today last. */
  UplinksPerDay: Type.Array(DayCount),
  /** Events per kind in the last 24 hours, used or not (`up`, `status`, `join`, `log`, … `other`). */
  EventsLast24h: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  /** Devices of its buildings with a DevEUI, and how many it heard in the last 24 hours. */
  Expected: Type.Integer({ minimum: 0 }),
  DevicesHeard: Type.Integer({ minimum: 0 }),
  /** Unknown DevEUIs it delivered (waiting in the LoRaWAN unmatched inbox). */
  Unmatched: Type.Integer({ minimum: 0 }),
  Gateways: Type.Array(LnsGateway),
  /** Codec errors and frame-counter resets from `log` events, newest first (the last 50). */
  CodecErrors: Type.Array(LnsCodecError),
  CodecErrorsLast24h: Type.Integer({ minimum: 0 }),
  /** Devices whose uplinks give no reading (the anomaly "heard but never decoded"). */
  Undecoded: Type.Array(LnsUndecodedDevice),
  /** Meters whose own clock (W1) is off from the LNS's time by more than `collector.clockSkewMinutes` (as collectors' clocks). */
  ClockOff: Type.Array(Type.Object({ DeviceId: Id, DevEui: Type.String(), SkewSeconds: Type.Number() })),
});
export type LnsConnectionHealth = Static<typeof LnsConnectionHealth>;

export const getLnsConnectionHealth = defineEndpoint({
  method: 'GET',
  path: '/lorawan/connections/:id/health',
  summary:
    "A connection's health: last event, uplinks per day, events per kind, devices heard, gateways with their " +
    'last-seen time and devices, codec errors, undecoded devices, meter clocks off. Group 1 only.',
  tags: ['lorawan'],
  auth: 'operator',
  params: IdParams,
  response: LnsConnectionHealth,
});

export const LorawanDeviceGateway = Type.Object({
  GatewayId: Type.String(),
  LastSeen: Timestamp,
  /** The signal of its latest uplink at this gateway: dBm and dB. */
  Rssi: Nullable(Type.Number()),
  Snr: Nullable(Type.Number()),
  Uplinks: Type.Integer({ minimum: 0 }),
});

/** One uplink as kept: what came and what it decoded to (diagnosis). */
export const LorawanUplink = Type.Object({
  /** The LNS's time of the uplink. */
  ReceivedAt: Timestamp,
  /** The meter's own time, when the payload carries one (the reading's time then). */
  MeterTime: Nullable(Timestamp),
  FCnt: Nullable(Type.Integer({ minimum: 0 })),
  FPort: Nullable(Type.Integer({ minimum: 0, maximum: 255 })),
  /** The FRMPayload in hex. */
  Payload: Type.String(),
  Connection: Type.String(),
  Decoder: Nullable(Type.String()),
  /** The register value in the device's unit (a reading), or null. */
  Value: Nullable(Type.Number()),
  /** Every value the decoder found (name → number or text), for diagnosis. */
  Values: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Boolean(), Type.Null()])),
  Alarms: Type.Array(Type.String()),
  /** Why it gave no reading (null when it did). */
  Reason: Nullable(Type.String()),
  /** Best signal among its gateways. */
  Rssi: Nullable(Type.Number()),
  Snr: Nullable(Type.Number()),
});
export type LorawanUplink = Static<typeof LorawanUplink>;

export const LorawanDeviceHealth = Type.Object({
  DeviceId: Id,
  DevEui: Nullable(Type.String()),
  /** The decoder set on the device, and the one its uplinks are decoded by (after the model's default). */
  Decoder: Nullable(Type.String()),
  EffectiveDecoder: Nullable(Type.String()),
  LastUplink: Nullable(Timestamp),
  LastFCnt: Nullable(Type.Integer({ minimum: 0 })),
  /** Signal of the latest uplink (best gateway). */
  Rssi: Nullable(Type.Number()),
  Snr: Nullable(Type.Number()),
  Gateways: Type.Array(LorawanDeviceGateway),
  UplinksPerDay: Type.Array(DayCount),
  /** Uplinks lost in the last 30 days: gaps in the frame counter (a reset after a rejoin is not a gap). */
  LostLast30d: Type.Integer({ minimum: 0 }),
  /** From the LNS's status events: battery in percent (null: unknown, or external power). */
  Battery: Nullable(
    Type.Object({
      Level: Nullable(Type.Number({ minimum: 0, maximum: 100 })),
      ExternalPower: Type.Boolean(),
      /** The link margin (dB) of the status answer. */
      Margin: Nullable(Type.Integer()),
      At: Timestamp,
    }),
  ),
  /** The meter's clock minus the LNS's time at its latest uplink with a meter time, in seconds. */
  ClockSkewSeconds: Nullable(Type.Number()),
  ClockFlag: Nullable(Type.Literal('skew')),
  /** The latest uplinks, newest first (at most 50). */
  Uplinks: Type.Array(LorawanUplink),
});
export type LorawanDeviceHealth = Static<typeof LorawanDeviceHealth>;

export const getLorawanDeviceHealth = defineEndpoint({
  method: 'GET',
  path: '/lorawan/devices/:id',
  summary:
    "A device's radio health: last uplink, RSSI, SNR, gateways, uplinks per day, uplinks lost by frame-counter " +
    'gaps, battery, its latest uplinks with what they decoded to. Group 1 only.',
  tags: ['lorawan'],
  auth: 'operator',
  params: IdParams,
  response: LorawanDeviceHealth,
});

export const LorawanDeviceRow = Type.Object({
  DeviceId: Id,
  DevEui: Type.String(),
  DeviceCode: Type.String(),
  Model: Nullable(Type.String()),
  Decoder: Nullable(Type.String()),
  /** The address as one line. */
  Address: Type.String(),
  LastUplink: Nullable(Timestamp),
  Rssi: Nullable(Type.Number()),
  Snr: Nullable(Type.Number()),
  LostLast30d: Type.Integer({ minimum: 0 }),
  BatteryLevel: Nullable(Type.Number()),
  /** Why its latest uplink gave no reading; null when it did (or none came). */
  LastReason: Nullable(Type.String()),
});
export type LorawanDeviceRow = Static<typeof LorawanDeviceRow>;

export const listLorawanDevices = defineEndpoint({
  method: 'GET',
  path: '/lorawan/devices',
  summary:
    'Devices with a DevEUI, in address order, with their radio summary; `search` keeps those whose DevEUI or ' +
    'serial starts with it (case ignored). Removed devices are left out. Group 1 only.',
  tags: ['lorawan'],
  auth: 'operator',
  querystring: Type.Object({
    ...PageQuery,
    search: Type.Optional(Type.String({ maxLength: 64 })),
    /** Only those served by this connection's buildings. */
    connectionId: Type.Optional(Id),
  }),
  response: Paged(LorawanDeviceRow),
});

export const LorawanUnmatched = Type.Object({
  DevEui: Type.String(),
  ConnectionId: Id,
  Connection: Type.String(),
  /** The LNS's device name (ChirpStack deviceInfo.deviceName, The Things Stack device_id), when sent. */
  DeviceName: Nullable(Type.String()),
  FirstSeen: Timestamp,
  LastSeen: Timestamp,
  Count: Type.Integer({ minimum: 0 }),
  LastFPort: Nullable(Type.Integer()),
  LastPayload: Type.String(),
});
export type LorawanUnmatched = Static<typeof LorawanUnmatched>;

export const listLorawanUnmatched = defineEndpoint({
  method: 'GET',
  path: '/lorawan/unmatched',
  summary:
    'The LoRaWAN part of the unmatched inbox: DevEUIs no device of the connection’s buildings has (latest first). ' +
    'Their uplinks are kept and taken in once such a device gets that DevEUI. Group 1 only.',
  tags: ['lorawan'],
  auth: 'operator',
  querystring: Type.Object({ ...PageQuery, devEui: Type.Optional(Type.String({ maxLength: 16 })) }),
  response: Paged(LorawanUnmatched),
});

// ---------------------------------------------------------------- the LNS endpoints

/**
 * What an LNS event did. `stored`: a new uplink of a known device (`Reading`: whether it gave a
 * reading); `duplicate`: that uplink was stored before (resent, or from a second integration);
 * `unmatched`: a DevEUI no device of the connection's buildings has (kept in the inbox);
 * `counted`: an event the product only counts (join, ack, txack, location, integration, others)
 * or keeps as health (status, log).
 */
export const LnsEventResult = Type.Object({
  Event: Type.String(),
  Outcome: Type.Union([
    Type.Literal('stored'),
    Type.Literal('duplicate'),
    Type.Literal('unmatched'),
    Type.Literal('counted'),
  ]),
  Reading: Type.Boolean(),
  /** Why the uplink gave no reading, when it did not. */
  Reason: Nullable(Type.String()),
});
export type LnsEventResult = Static<typeof LnsEventResult>;

export const ingestChirpstack = defineEndpoint({
  method: 'POST',
  path: '/lorawan/chirpstack',
  summary:
    "ChirpStack v4's HTTP integration: one event per request, `?event=up|status|join|ack|txack|log|location|" +
    'integration`, JSON (application/json) or Protobuf (application/octet-stream, application/protobuf) by the ' +
    'marshaler setting. Authenticated with a ChirpStack connection key in `Authorization: Bearer <key>` or ' +
    '`X-Rodmenys-Key`. Events not used are answered 200 and counted. A body that does not parse (JSON too deep ' +
    'or not JSON, Protobuf that does not decode), or a DevEUI that is not 16 hex digits: 400 naming it, nothing ' +
    'stored. Idempotent on deduplicationId and on (DevEUI, fCnt, payload). Answered after the commit.',
  tags: ['lorawan'],
  auth: 'lns',
  consumes: CHIRPSTACK_CONTENT_TYPES,
  maxBodyBytes: LNS_EVENT_MAX_BYTES,
  querystring: Type.Object({ event: Type.String({ minLength: 1, maxLength: 32 }) }),
  response: LnsEventResult,
});

/** The Things Stack's webhook messages: each arrives at its own path (the webhook's message paths). */
export const TTS_MESSAGES = ['uplink', 'join', 'events'] as const;

export const ingestTtsUplink = defineEndpoint({
  method: 'POST',
  path: '/lorawan/tts/uplink',
  summary:
    "The Things Stack's webhook, uplink message (`uplink_message`). Authenticated with a The Things Stack " +
    'connection key (`Authorization: Bearer <key>` or `X-Rodmenys-Key`). A message of another kind sent here is ' +
    'counted, not refused. Bad body or DevEUI: 400 naming it. Idempotent on (DevEUI, f_cnt, payload).',
  tags: ['lorawan'],
  auth: 'lns',
  consumes: ['application/json'],
  maxBodyBytes: LNS_EVENT_MAX_BYTES,
  response: LnsEventResult,
});

export const ingestTtsJoin = defineEndpoint({
  method: 'POST',
  path: '/lorawan/tts/join',
  summary: "The Things Stack's webhook, join-accept message: counted (a rejoin restarts the frame counter).",
  tags: ['lorawan'],
  auth: 'lns',
  consumes: ['application/json'],
  maxBodyBytes: LNS_EVENT_MAX_BYTES,
  response: LnsEventResult,
});

export const ingestTtsEvents = defineEndpoint({
  method: 'POST',
  path: '/lorawan/tts/events',
  summary:
    "The Things Stack's webhook, every other message (downlink ack/nack/sent/failed/queued, location solved, " +
    'service data, normalized uplink): counted; an `uplink_message` sent here is taken as on /uplink.',
  tags: ['lorawan'],
  auth: 'lns',
  consumes: ['application/json'],
  maxBodyBytes: LNS_EVENT_MAX_BYTES,
  response: LnsEventResult,
});
