import {
  type DataLoadProc,
  defaultLorawanDecoder,
  LNS_MAPPING_DECODER,
  type LorawanDecoderInfo,
} from '@rodmenys/contract';
import { applyFieldMapping, BUILT_IN_DECODERS, decodeUplink, type MappingUnit } from './decode/index.js';

/**
 * What the ingest needs of the payload decoders (docs/lorawan.md, "Decoding"): a register in
 * the device's unit with the meter's time when the payload has one, the other values, alarms; or
 * a stable reason. The decoders themselves are pure functions of the payload (decode/).
 */
export interface Register {
  value: number;
  unit: 'kWh' | 'm3' | 'HCA';
  meterTime?: Date;
}
export type DecodeResult =
  | {
      ok: true;
      register: Register;
      values: Record<string, number | string>;
      alarms: string[];
      problems?: unknown[];
    }
  | { ok: false; reason: string; detail?: string };

export interface FieldMapping {
  registerField: string;
  unit: string;
  scale: number;
  timeField?: string;
}

/** The decoders the ingest calls: the built-in ones by id, and an operator's mapping of the LNS's object. */
export interface Decoders {
  list: readonly LorawanDecoderInfo[];
  decodeUplink(u: { decoder: string; fPort: number; payload: Uint8Array }): DecodeResult;
  applyFieldMapping(object: unknown, mapping: FieldMapping): DecodeResult;
}

/** The product's decoders (decode/): pure functions of the payload or the LNS's object. */
export const DECODERS: Decoders = {
  list: BUILT_IN_DECODERS.map((d) => ({
    Id: d.id,
    Name: d.name,
    MeterType: d.meterType,
    FPorts: [...d.fPorts],
    RegisterUnit: d.registerUnit,
  })),
  decodeUplink,
  // A stored mapping's unit is one of MAPPING_UNITS (migration 320 checks it).
  applyFieldMapping: (object, m) => applyFieldMapping(object, { ...m, unit: m.unit as MappingUnit }),
};

/** The unit a device type's readings are in. */
const UNIT_OF: Record<DataLoadProc, Register['unit']> = { energy: 'kWh', volume: 'm3', allocator: 'HCA' };

/** What a device needs for its uplinks to be decoded. */
export interface DecodingDevice {
  kind: DataLoadProc;
  model: string | null;
  decoder: string | null;
  mapping: FieldMapping | null;
}

/** The decoder a device's uplinks go through: its own, else its model's built-in one, else its model's mapping. */
export function effectiveDecoder(
  d: Pick<DecodingDevice, 'decoder' | 'model'> & { hasMapping: boolean },
): string | null {
  return d.decoder ?? defaultLorawanDecoder(d.model) ?? (d.hasMapping ? LNS_MAPPING_DECODER : null);
}

/** The largest register value taken (a reading's numeric stays within what the screens show). */
const MAX_VALUE = 1e15;

/** Decodes one uplink for its device; never throws. */
export function decodeFor(
  decoders: Decoders,
  device: DecodingDevice,
  uplink: { fPort: number | null; payload: Uint8Array; object: Record<string, unknown> | null },
): { decoder: string | null; result: DecodeResult } {
  const decoder = effectiveDecoder({ ...device, hasMapping: device.mapping !== null });
  const result = ((): DecodeResult => {
    if (decoder === null) return { ok: false, reason: 'no-decoder' };
    if (decoder === LNS_MAPPING_DECODER) {
      if (!device.mapping) return { ok: false, reason: 'no-mapping' };
      if (!uplink.object) return { ok: false, reason: 'no-lns-object' };
      return decoders.applyFieldMapping(uplink.object, device.mapping);
    }
    return decoders.decodeUplink({ decoder, fPort: uplink.fPort ?? 0, payload: uplink.payload });
  })();
  if (!result.ok) return { decoder, result };
  const { value, unit } = result.register;
  if (unit !== UNIT_OF[device.kind])
    return {
      decoder,
      result: {
        ok: false,
        reason: 'unit-mismatch',
        detail: `${unit}, the device's readings are in ${UNIT_OF[device.kind]}`,
      },
    };
  if (!Number.isFinite(value) || Math.abs(value) >= MAX_VALUE)
    return { decoder, result: { ok: false, reason: 'register-invalid', detail: String(value) } };
  return { decoder, result };
}
