import { parseTime } from '../time.js';
import { type DecodeResult, type Decoders, type DecodingDevice, decodeFor, type FieldMapping } from './decoding.js';
import type { UplinkEvent } from './envelopes.js';

/** A device an uplink's DevEUI names, with what decoding it needs. */
export interface DecodingDeviceWithId extends DecodingDevice {
  id: number;
}

/** The columns of `lorawan_mapping` a device lookup selects (all null: the model has none). */
export interface MappingColumns {
  value_field: string | null;
  unit: string | null;
  scale: number | null;
  time_field: string | null;
}

/** A model's field mapping from the columns a lookup selected (none: null). */
export function mappingOf(r: MappingColumns): FieldMapping | null {
  if (r.value_field === null) return null;
  return {
    registerField: r.value_field,
    unit: r.unit!,
    scale: r.scale!,
    ...(r.time_field ? { timeField: r.time_field } : {}),
  };
}

/** An uplink made ready to store: its decoding and the reading's time. */
export interface Prepared {
  deviceId: number | null;
  decoder: string | null;
  value: string | null;
  decoded: Record<string, unknown>;
  alarms: string[];
  reason: string | null;
  meterTs: string | null;
  /** The reading's time: the meter's own when it has one within the clock tolerance, else the LNS's. */
  ts: string;
}

/**
 * Decodes an uplink for its device (null: a DevEUI unknown to the connection), and picks the
 * reading's time, never the server's clock (docs/lorawan.md, "Uplinks, readings and times").
 */
export function prepare(
  decoders: Decoders,
  device: DecodingDeviceWithId | null,
  up: Pick<UplinkEvent, 'fPort' | 'payload' | 'object' | 'time'>,
  skewMinutes: number,
): Prepared {
  if (!device)
    return {
      deviceId: null,
      decoder: null,
      value: null,
      decoded: {},
      alarms: [],
      reason: 'unknown-dev-eui',
      meterTs: null,
      ts: up.time,
    };
  const { decoder, result } = decodeFor(decoders, device, up);
  return { deviceId: device.id, decoder, ...decodedParts(result, up.time, skewMinutes) };
}

function decodedParts(result: DecodeResult, lnsTime: string, skewMinutes: number) {
  if (!result.ok)
    return {
      value: null,
      decoded: result.detail ? { detail: result.detail } : {},
      alarms: [],
      reason: result.reason,
      meterTs: null,
      ts: lnsTime,
    };
  const meter = result.register.meterTime;
  const meterTs = meter && Number.isFinite(meter.getTime()) ? meter.toISOString() : null;
  const lnsMs = parseTime(lnsTime)!.approxMs;
  const inTolerance = meter !== undefined && Math.abs(meter.getTime() - lnsMs) <= skewMinutes * 60_000;
  return {
    value: String(result.register.value),
    decoded: { ...result.values, ...(result.problems?.length ? { problems: result.problems } : {}) },
    alarms: [...new Set(result.alarms.map((a) => a.toUpperCase()))].sort(),
    reason: null,
    meterTs,
    ts: meterTs && inTolerance ? meterTs : lnsTime,
  };
}
