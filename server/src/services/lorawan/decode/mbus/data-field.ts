/**
 * The data field of an M-Bus record (EN 13757-3): how the DIF's low nibble codes the data,
 * and the readers of each coding. Integers are little-endian two's complement; BCD is
 * little-endian with two digits a byte, a top nibble 0xF marking a negative number; the
 * variable length coding starts with its LVAR byte (docs/lorawan.md, "Decoding").
 */

import type { ProblemReason } from '../types.js';

export type Coding = 'none' | 'int' | 'real' | 'bcd' | 'variable' | 'selection' | 'special';

/** The coding and data length of each DIF data field nibble (0x0–0xF). */
export const DATA_FIELDS: readonly { coding: Coding; length: number }[] = [
  { coding: 'none', length: 0 },
  { coding: 'int', length: 1 },
  { coding: 'int', length: 2 },
  { coding: 'int', length: 3 },
  { coding: 'int', length: 4 },
  { coding: 'real', length: 4 },
  { coding: 'int', length: 6 },
  { coding: 'int', length: 8 },
  { coding: 'selection', length: 0 },
  { coding: 'bcd', length: 1 },
  { coding: 'bcd', length: 2 },
  { coding: 'bcd', length: 3 },
  { coding: 'bcd', length: 4 },
  { coding: 'variable', length: 0 },
  { coding: 'bcd', length: 6 },
  { coding: 'special', length: 0 },
];

/** Why one record's value is unusable; the records after it still decode. */
export type InvalidReason = Exclude<ProblemReason, 'time-field-missing'>;

/** A raw number read from the data field, before the VIF gives it a unit and a scale. */
export type RawValue =
  | { kind: 'number'; value: number }
  /** BCD digits as written, leading zeros kept (identification numbers), with the sign. */
  | { kind: 'digits'; digits: string; negative: boolean }
  | { kind: 'text'; value: string }
  /** Bytes with no numeric meaning here (long binary, manufacturer data), as hex. */
  | { kind: 'hex'; value: string }
  /** No data, or the OMS "no value" (the most negative binary value of the field). */
  | { kind: 'none' }
  | { kind: 'invalid'; reason: InvalidReason };

export const toHex = (bytes: Uint8Array, from: number, to: number): string => {
  let s = '';
  for (let i = from; i < to; i++) s += bytes[i]!.toString(16).padStart(2, '0');
  return s;
};

/**
 * A little-endian integer of 1–8 bytes. Signed (type B): its most negative value is the OMS
 * "no value". Unsigned for bit fields and identification numbers. Past 2⁵³ it is kept as hex
 * (a count that large is no register a meter sends).
 */
export function readInt(bytes: Uint8Array, at: number, length: number, signed: boolean): RawValue {
  if (length === 8) {
    let big = 0n;
    for (let i = length - 1; i >= 0; i--) big = (big << 8n) | BigInt(bytes[at + i]!);
    if (signed && big >= 1n << 63n) {
      if (big === 1n << 63n) return { kind: 'none' };
      big -= 1n << 64n;
    }
    const abs = big < 0n ? -big : big;
    if (abs > BigInt(Number.MAX_SAFE_INTEGER)) return { kind: 'invalid', reason: 'integer-out-of-range' };
    return { kind: 'number', value: Number(big) };
  }
  let value = 0;
  for (let i = length - 1; i >= 0; i--) value = value * 256 + bytes[at + i]!;
  const half = 2 ** (8 * length - 1);
  if (signed && value >= half) {
    if (value === half) return { kind: 'none' };
    value -= 2 * half;
  }
  return { kind: 'number', value };
}

/**
 * BCD of `length` bytes (2 digits each), the most significant byte last. A top nibble 0xF is
 * the minus sign; any other nibble above 9 makes the record invalid, never a guessed number.
 */
export function readBcd(bytes: Uint8Array, at: number, length: number): RawValue {
  let digits = '';
  let negative = false;
  for (let i = length - 1; i >= 0; i--) {
    const byte = bytes[at + i]!;
    for (const nibble of [byte >> 4, byte & 0x0f]) {
      if (nibble === 0x0f && i === length - 1 && digits === '' && !negative) {
        negative = true;
        continue;
      }
      if (nibble > 9) return { kind: 'invalid', reason: 'bcd-hex-digit' };
      digits += String(nibble);
    }
  }
  return { kind: 'digits', digits, negative };
}

export function readReal(bytes: Uint8Array, at: number): RawValue {
  const value = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getFloat32(0, true);
  return Number.isFinite(value) ? { kind: 'number', value } : { kind: 'invalid', reason: 'real-not-finite' };
}

/** The length of a variable-length data field from its LVAR byte (the LVAR byte not counted); undefined = reserved. */
export function lvarLength(lvar: number): number | undefined {
  if (lvar <= 0xbf) return lvar; // ASCII text
  if (lvar <= 0xc9) return lvar - 0xc0; // positive BCD
  if (lvar >= 0xd0 && lvar <= 0xd9) return lvar - 0xd0; // negative BCD
  if (lvar >= 0xe0 && lvar <= 0xef) return lvar - 0xe0; // binary number
  if (lvar >= 0xf0 && lvar <= 0xf4) return 4 * (lvar - 0xec); // binary number, 16–64 bytes
  if (lvar === 0xf5) return 48;
  if (lvar === 0xf6) return 64;
  return undefined;
}

/** A variable-length value after its LVAR byte; `length` from lvarLength. */
export function readVariable(bytes: Uint8Array, at: number, lvar: number, length: number): RawValue {
  if (lvar <= 0xbf) {
    // The text is sent last character first.
    let text = '';
    for (let i = at + length - 1; i >= at; i--) {
      const c = bytes[i]!;
      text += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '?';
    }
    return { kind: 'text', value: text };
  }
  if (lvar <= 0xd9) {
    if (length === 0) return { kind: 'none' };
    const bcd = readBcd(bytes, at, length);
    if (bcd.kind !== 'digits') return bcd;
    return { kind: 'digits', digits: bcd.digits, negative: lvar >= 0xd0 || bcd.negative };
  }
  if (length === 0) return { kind: 'none' };
  if (length <= 6) return readInt(bytes, at, length, true);
  return { kind: 'hex', value: toHex(bytes, at, at + length) };
}
