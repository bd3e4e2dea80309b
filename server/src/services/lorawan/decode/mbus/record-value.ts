/**
 * A raw data field read in the light of its VIF: a measured quantity scaled into the unit of
 * its name, an identification kept as its digits, a bit field or count as a plain number.
 */

import { clean, scaled } from '../types.js';
import type { InvalidReason, RawValue } from './data-field.js';
import type { VifInfo } from './vif-table.js';

/** A record's value in the unit its VIF names (energy_kwh in kWh, …). */
export type RecordValue =
  | { kind: 'number'; value: number }
  | { kind: 'text'; value: string }
  | { kind: 'hex'; value: string }
  | { kind: 'none' }
  | { kind: 'invalid'; reason: InvalidReason };

/** Digits past this many are more than a double holds exactly: no measured value has them. */
const MAX_DIGITS = 15;

/** The shortest decimal that is the same 32-bit float: 0.1f is 0.1, not 0.10000000149011612. */
function float32Decimal(value: number): number {
  for (let p = 1; p < 9; p++) {
    const shorter = Number(value.toPrecision(p));
    if (Math.fround(shorter) === value) return shorter;
  }
  return value;
}

export function toRecordValue(raw: RawValue, vif: VifInfo, exponentShift: number, isReal: boolean): RecordValue {
  switch (raw.kind) {
    case 'none':
    case 'text':
    case 'hex':
      return raw;
    case 'invalid':
      return { kind: 'invalid', reason: raw.reason };
    case 'digits':
      if (vif.kind === 'identification') {
        return raw.negative
          ? { kind: 'invalid', reason: 'bcd-negative-identification' }
          : { kind: 'text', value: raw.digits };
      }
      if (raw.digits.replace(/^0+/, '').length > MAX_DIGITS) return { kind: 'invalid', reason: 'integer-out-of-range' };
      return measured((raw.negative ? -1 : 1) * Number(raw.digits), vif, exponentShift, false);
    case 'number':
      if (vif.kind === 'identification') return { kind: 'text', value: String(raw.value) };
      return measured(isReal ? float32Decimal(raw.value) : raw.value, vif, exponentShift, isReal);
  }
}

function measured(value: number, vif: VifInfo, exponentShift: number, isReal: boolean): RecordValue {
  if (vif.kind !== 'numeric' && vif.kind !== 'plain-text') return { kind: 'number', value };
  const exponent = vif.exponent + exponentShift;
  // A float times a power of ten, or a factor, leaves binary noise: cut to 15 digits. Never -0.
  const v = scaled(value, exponent) * (vif.factor ?? 1);
  const result = vif.factor === undefined && !isReal ? v : clean(v);
  return { kind: 'number', value: result === 0 ? 0 : result };
}
