/**
 * The built-in decoders, by id (the device's model names one), and the one entry that runs
 * them: a raw FRMPayload and its fPort in, a register or a reason out (docs/lorawan.md,
 * "Decoding"). Checks shared by every decoder come first: an empty payload, one longer than
 * LoRaWAN carries, an fPort the decoder does not read.
 */

import { decodeElvacoCmi } from './elvaco-cmi.js';
import { decodeQalcosonicW1 } from './qalcosonic-w1.js';
import { type DecodeResult, type RegisterUnit, undecoded } from './types.js';

/** The largest FRMPayload of LoRaWAN (EU868 at its fastest data rates). */
export const MAX_PAYLOAD_BYTES = 242;

export interface BuiltInDecoder {
  id: string;
  /** The product's name, the same in every language; the screens say the meter type in theirs. */
  name: string;
  meterType: 'heat' | 'water';
  fPorts: readonly number[];
  registerUnit: RegisterUnit;
}

export const BUILT_IN_DECODERS = [
  {
    id: 'elvaco-cmi41xx',
    name: 'Elvaco CMi41xx',
    meterType: 'heat',
    fPorts: [2],
    registerUnit: 'kWh',
  },
  {
    id: 'axioma-qalcosonic-w1',
    name: 'Axioma Qalcosonic W1',
    meterType: 'water',
    fPorts: [100],
    registerUnit: 'm3',
  },
] as const satisfies readonly BuiltInDecoder[];

export type DecoderId = (typeof BUILT_IN_DECODERS)[number]['id'];

const DECODE: Record<DecoderId, (fPort: number, payload: Uint8Array) => DecodeResult> = {
  'elvaco-cmi41xx': decodeElvacoCmi,
  'axioma-qalcosonic-w1': decodeQalcosonicW1,
};

export const isDecoderId = (id: string): id is DecoderId => Object.hasOwn(DECODE, id);

export interface Uplink {
  /** A BUILT_IN_DECODERS id; anything else is undecoded as unknown-decoder. */
  decoder: string;
  fPort: number;
  /** The FRMPayload, base64-decoded. */
  payload: Uint8Array;
}

/** Decodes one uplink; never throws. */
export function decodeUplink({ decoder, fPort, payload }: Uplink): DecodeResult {
  if (!isDecoderId(decoder)) return undecoded('unknown-decoder', decoder.slice(0, 100));
  const spec = BUILT_IN_DECODERS.find((d) => d.id === decoder)!;
  if (!(spec.fPorts as readonly number[]).includes(fPort)) {
    return undecoded('unknown-fport', `${spec.name} reads fPort ${spec.fPorts.join(', ')}, not ${fPort}`);
  }
  if (payload.length === 0) return undecoded('empty-payload');
  if (payload.length > MAX_PAYLOAD_BYTES) {
    return undecoded('payload-too-long', `${payload.length} bytes, LoRaWAN carries at most ${MAX_PAYLOAD_BYTES}`);
  }
  return DECODE[decoder](fPort, payload);
}
