import { createRequire } from 'node:module';
import { CHIRPSTACK_EVENTS, type ChirpstackEvent } from '@rodmenys/contract';
import { badRequest } from '../../errors.js';
import {
  devEuiOf,
  type Gateway,
  gatewaysOf,
  intOf,
  isObject,
  type LnsEvent,
  member,
  numberOf,
  objectOf,
  optionalTimeOf,
  parseEventJson,
  payloadOf,
  textOf,
  timeOf,
  uuidOf,
} from './envelopes.js';
import { checkStorableObject } from './storable.js';

/**
 * ChirpStack v4's HTTP integration (docs/lorawan.md, "ChirpStack"): one event per request,
 * `?event=`, its JSON marshaler (protojson: camelCase, zero values left out, 64-bit numbers as
 * text) or its Protobuf marshaler (the integration messages of the official
 * @chirpstack/chirpstack-api package, read as the same plain object its JSON gives).
 */

const require = createRequire(import.meta.url);
// The official generated code (google-protobuf, CommonJS).
const pb = require('@chirpstack/chirpstack-api/integration/integration_pb.js') as Record<string, ProtoClass>;

interface ProtoMessage {
  toObject(): Record<string, unknown>;
  getObject?(): { toJavaScript(): unknown } | undefined;
  getTime?(): { toDate(): Date } | undefined;
}
interface ProtoClass {
  deserializeBinary(bytes: Uint8Array): ProtoMessage;
}

const LOG_CODES = new Map(
  Object.entries(pb.LogCode as unknown as Record<string, number>).map(([name, n]) => [n, name] as const),
);

/** The Protobuf message of each event. */
const MESSAGES: Record<ChirpstackEvent, string> = {
  up: 'UplinkEvent',
  status: 'StatusEvent',
  join: 'JoinEvent',
  ack: 'AckEvent',
  txack: 'TxAckEvent',
  log: 'LogEvent',
  location: 'LocationEvent',
  integration: 'IntegrationEvent',
};

/**
 * The event named by `?event=`; one this product does not know (a newer ChirpStack's) is counted as
 * `other`, never refused: a 4xx would make ChirpStack send it again and again.
 */
export function chirpstackEventName(event: string): ChirpstackEvent | 'other' {
  return (CHIRPSTACK_EVENTS as readonly string[]).includes(event) ? (event as ChirpstackEvent) : 'other';
}

/** A ChirpStack event from its body: JSON text, or Protobuf bytes. */
export function readChirpstack(event: ChirpstackEvent | 'other', body: string | Buffer): LnsEvent {
  if (event === 'other') return { kind: 'other', devEui: null, time: null };
  const json = typeof body === 'string' ? parseEventJson(body) : fromProtobuf(event, body);
  return fromJson(event, json);
}

/** Protobuf bytes as the plain object ChirpStack's JSON marshaler would send. */
function fromProtobuf(event: ChirpstackEvent, bytes: Buffer): Record<string, unknown> {
  const name = MESSAGES[event];
  const Class = pb[name];
  if (!Class) return {}; // an event this package version has no message for: counted only
  let message: ProtoMessage;
  try {
    message = Class.deserializeBinary(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
  } catch (e) {
    throw badRequest(
      'lnsBodyNotProtobuf',
      { message: name, reason: String((e as Error).message).slice(0, 200) },
      'body',
    );
  }
  if (event === 'up') return uplinkOf(message as unknown as ProtoUplink);
  const o = message.toObject();
  // Enums are numbers in toObject, names in protojson.
  if (event === 'log' && typeof o.code === 'number') o.code = LOG_CODES.get(o.code) ?? 'UNKNOWN';
  // toObject's shapes differ from protojson's: lists end in `List`, maps in `Map`, bytes are base64,
  // Timestamps are {seconds, nanos}, the decoded object is a Struct.
  const time = message.getTime?.();
  const device = isObject(o.deviceInfo) ? o.deviceInfo : undefined;
  return {
    ...o,
    time: time ? time.toDate().toISOString() : undefined,
    deviceInfo: device,
    rxInfo: Array.isArray(o.rxInfoList) ? o.rxInfoList : undefined,
    object: message.getObject?.()?.toJavaScript(),
    data: typeof o.data === 'string' ? o.data : undefined,
  };
}

interface ProtoUplink {
  getDeduplicationId(): string;
  getTime(): { toDate(): Date } | undefined;
  getDeviceInfo(): { getDevEui(): string; getDeviceName(): string } | undefined;
  getDevAddr(): string;
  getFCnt(): number;
  getFPort(): number;
  getData_asB64(): string;
  getObject(): { toJavaScript(): unknown } | undefined;
  getRxInfoList(): { getGatewayId(): string; getRssi(): number; getSnr(): number }[];
}

/**
 * An uplink's fields as `toObject` would give them (the same values, so the same checks and
 * outcome), read by their getters: `toObject` builds every field of the message and its
 * gateways' (contexts as base64, metadata maps, the transmission), which an uplink does not use
 * (docs/lorawan.md, "Throughput").
 */
function uplinkOf(m: ProtoUplink): Record<string, unknown> {
  const device = m.getDeviceInfo();
  const time = m.getTime();
  return {
    deduplicationId: m.getDeduplicationId(),
    time: time ? time.toDate().toISOString() : undefined,
    deviceInfo: device ? { devEui: device.getDevEui(), deviceName: device.getDeviceName() } : undefined,
    devAddr: m.getDevAddr(),
    fCnt: m.getFCnt(),
    fPort: m.getFPort(),
    data: m.getData_asB64(),
    object: m.getObject()?.toJavaScript(),
    rxInfo: m.getRxInfoList().map((g) => ({ gatewayId: g.getGatewayId(), rssi: g.getRssi(), snr: g.getSnr() })),
  };
}

const gateway = (g: Record<string, unknown>, field: string): Gateway | null => {
  const id = textOf(g.gatewayId, `${field}.gatewayId`, 64);
  if (!id) return null;
  return { id, rssi: numberOf(g.rssi, `${field}.rssi`) ?? 0, snr: numberOf(g.snr, `${field}.snr`) ?? 0 };
};

/** The event from ChirpStack's JSON (camelCase, zero values absent). */
function fromJson(event: ChirpstackEvent, o: Record<string, unknown>): LnsEvent {
  const device = member(o, 'deviceInfo', 'deviceInfo');
  if (event === 'up') {
    checkStorableObject(o.object, 'object');
    return {
      kind: 'up',
      devEui: devEuiOf(device?.devEui, 'deviceInfo.devEui'),
      devAddr: (textOf(o.devAddr, 'devAddr', 16) ?? '').toUpperCase(),
      // protojson leaves out zeros: the first uplink of a session has no fCnt.
      fCnt: intOf(o.fCnt, 'fCnt', 0, 0xffffffff) ?? 0,
      fPort: intOf(o.fPort, 'fPort', 0, 255) ?? 0,
      payload: payloadOf(o.data, 'data'),
      dedupId: uuidOf(o.deduplicationId, 'deduplicationId'),
      time: timeOf(o.time, 'time'),
      deviceName: textOf(device?.deviceName, 'deviceInfo.deviceName', 200),
      object: objectOf(o.object),
      gateways: gatewaysOf(o.rxInfo, 'rxInfo', gateway),
    };
  }
  const devEui =
    device?.devEui === undefined || device.devEui === '' ? null : devEuiOf(device.devEui, 'deviceInfo.devEui');
  const time = optionalTimeOf(o.time, 'time');
  if (event === 'status') {
    const external = o.externalPowerSource === true;
    const unavailable = o.batteryLevelUnavailable === true;
    const level = numberOf(o.batteryLevel, 'batteryLevel');
    return {
      kind: 'status',
      devEui,
      time,
      battery: external || unavailable ? null : Math.max(0, Math.min(100, level ?? 0)),
      externalPower: external,
      margin: intOf(o.margin, 'margin', -1000, 1000) ?? 0,
    };
  }
  if (event === 'log') {
    return {
      kind: 'log',
      devEui,
      time,
      code: (typeof o.code === 'string' ? textOf(o.code, 'code', 64) : null) ?? 'UNKNOWN',
      description: textOf(o.description, 'description', 1000) ?? '',
    };
  }
  return { kind: event, devEui, time };
}
