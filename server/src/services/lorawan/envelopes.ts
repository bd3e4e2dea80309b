import { isDevEui, LNS_EVENT_MAX_DEPTH, MAX_FRM_PAYLOAD_BYTES } from '@rodmenys/contract';
import { badRequest } from '../../errors.js';
import { parseTime } from '../time.js';
import { unstorableText } from './storable.js';

/**
 * An LNS event read from its envelope (docs/lorawan.md): ChirpStack's JSON or Protobuf
 * (chirpstack.ts), The Things Stack's webhook JSON (tts.ts). Everything the product keeps is
 * checked here, field by field: a DevEUI of 16 hex digits, base64 that is base64, a time with its
 * zone, text without U+0000; a field at fault is a 400 naming it, and nothing is stored.
 */
export interface Gateway {
  id: string;
  rssi: number | null;
  snr: number | null;
}

export interface UplinkEvent {
  kind: 'up';
  devEui: string;
  devAddr: string;
  fCnt: number | null;
  fPort: number | null;
  payload: Buffer;
  /** ChirpStack's deduplicationId (a UUID), when sent. */
  dedupId: string | null;
  /** The LNS's time of the uplink (timestamptz text). */
  time: string;
  deviceName: string | null;
  /** The LNS's decoded object (`object` / `decoded_payload`), when it has one. */
  object: Record<string, unknown> | null;
  gateways: Gateway[];
}

export interface OtherEvent {
  kind: string;
  devEui: string | null;
  /** The LNS's time of the event when it sends one; else null (the arrival then counts). */
  time: string | null;
  /** status: battery in percent (null: unknown or external power), external power, margin. */
  battery?: number | null;
  externalPower?: boolean;
  margin?: number | null;
  /** log: its code (UPLINK_CODEC, F_CNT_RESET, …) and text. */
  code?: string;
  description?: string;
}

export type LnsEvent = UplinkEvent | OtherEvent;
export const isUplink = (e: LnsEvent): e is UplinkEvent => e.kind === 'up';

/** Longest text kept from an envelope (names, gateway ids, log text), in characters. */
const MAX_TEXT = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const fieldError = (field: string, reason: string) => badRequest('lnsFieldInvalid', { field, reason }, field);

/** JSON text of one event, parsed: not JSON, or nested deeper than LNS_EVENT_MAX_DEPTH, is a 400. */
export function parseEventJson(text: string): Record<string, unknown> {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > LNS_EVENT_MAX_DEPTH)
        throw badRequest('lnsBodyTooDeep', { max: String(LNS_EVENT_MAX_DEPTH) }, 'body');
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw badRequest('lnsBodyNotJson', { reason: (e as Error).message.slice(0, 200) }, 'body');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw badRequest('lnsBodyNotJson', { reason: 'not a JSON object' }, 'body');
  return json as Record<string, unknown>;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object member, or undefined; a non-object where an object must be is a 400. */
export function member(o: Record<string, unknown>, key: string, field: string): Record<string, unknown> | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw fieldError(field, 'not an object');
  return v;
}

/** A DevEUI, upper case; anything but 16 hex digits is a 400 naming the field. */
export function devEuiOf(v: unknown, field: string): string {
  if (typeof v !== 'string' || !isDevEui(v)) throw badRequest('devEuiInvalid', { field }, field);
  return v.toUpperCase();
}

/** Optional text: absent or empty = null; U+0000 or a lone surrogate is a 400; longer than MAX_TEXT is cut. */
export function textOf(v: unknown, field: string, max = MAX_TEXT): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') throw fieldError(field, 'not text');
  if (unstorableText(v)) throw fieldError(field, 'holds U+0000 or a lone surrogate');
  return v.length > max ? v.slice(0, max) : v;
}

/** An optional whole number in [min, max]; absent = null (the LNSs leave out zeros: the caller says what that means). */
export function intOf(v: unknown, field: string, min: number, max: number): number | null {
  if (v === undefined || v === null) return null;
  const n = typeof v === 'string' && /^-?\d{1,12}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max)
    throw fieldError(field, `not a whole number from ${min} to ${max}`);
  return n;
}

/** An optional finite number; absent = null. */
export function numberOf(v: unknown, field: string): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw fieldError(field, 'not a number');
  return v;
}

/** The FRMPayload from base64; absent = empty. Not base64, or longer than MAX_FRM_PAYLOAD_BYTES: 400. */
export function payloadOf(v: unknown, field: string): Buffer {
  if (v === undefined || v === null || v === '') return Buffer.alloc(0);
  if (typeof v !== 'string' || v.length > 4 * Math.ceil(MAX_FRM_PAYLOAD_BYTES / 3) + 4 || !BASE64.test(v))
    throw fieldError(field, 'not base64');
  const bytes = Buffer.from(v, 'base64');
  if (bytes.length > MAX_FRM_PAYLOAD_BYTES) throw fieldError(field, `longer than ${MAX_FRM_PAYLOAD_BYTES} bytes`);
  return bytes;
}

/** An LNS time: ISO 8601 with its zone (up to nanoseconds), 2000–2200; else a 400 naming the field. */
export function timeOf(v: unknown, field: string): string {
  const t = typeof v === 'string' && v.length <= 64 ? parseTime(v) : undefined;
  if (!t || !/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(v as string) || t.year < 2000 || t.year > 2200)
    throw fieldError(field, 'not a time with its zone');
  return t.text;
}

export function optionalTimeOf(v: unknown, field: string): string | null {
  return v === undefined || v === null || v === '' ? null : timeOf(v, field);
}

export function uuidOf(v: unknown, field: string): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || !UUID.test(v)) throw fieldError(field, 'not a UUID');
  return v.toLowerCase();
}

/** The most gateways kept per uplink. */
const MAX_GATEWAYS = 100;

/** The gateways of an uplink (ChirpStack's rxInfo, The Things Stack's rx_metadata), best signal first. */
export function gatewaysOf(
  list: unknown,
  field: string,
  read: (item: Record<string, unknown>, field: string) => Gateway | null,
): Gateway[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw fieldError(field, 'not a list');
  const out: Gateway[] = [];
  for (const [i, item] of list.slice(0, MAX_GATEWAYS).entries()) {
    if (!isObject(item)) throw fieldError(`${field}.${i}`, 'not an object');
    const g = read(item, `${field}.${i}`);
    if (g) out.push(g);
  }
  return out.sort((a, b) => (b.rssi ?? -1e9) - (a.rssi ?? -1e9));
}

/** An LNS's decoded object, kept as JSON only when it is an object. */
export const objectOf = (v: unknown): Record<string, unknown> | null => (isObject(v) ? v : null);
