/**
 * The M-Bus application layer's records (EN 13757-3): DIF, up to ten DIFEs, VIF, up to ten
 * VIFEs, data, one after another to the end of the payload. A record that cannot be read
 * whole (running past the end, a reserved DIF or LVAR whose length nobody knows) stops the
 * walk with a typed error; the records before it are returned with it. A record whose value
 * alone is bad (BCD with hex digits) is kept as invalid with its reason and the walk goes on.
 * The walk is one pass over the bytes and stops at MAX_RECORDS records (docs/lorawan.md).
 */

import { type Coding, DATA_FIELDS, lvarLength, readBcd, readInt, readReal, readVariable, toHex } from './data-field.js';
import { readDateType } from './date-types.js';
import { type RecordValue, toRecordValue } from './record-value.js';
import {
  extensionFb,
  extensionFd,
  primaryVif,
  VIF_EXT_FB,
  VIF_EXT_FD,
  VIF_PLAIN_TEXT,
  type VifInfo,
} from './vif-table.js';

export type { RecordValue };

export type MbusFunction = 'instantaneous' | 'maximum' | 'minimum' | 'error';
const FUNCTIONS: readonly MbusFunction[] = ['instantaneous', 'maximum', 'minimum', 'error'];

export interface MbusRecord {
  /** Where its DIF is in the payload. */
  offset: number;
  function: MbusFunction;
  storage: number;
  tariff: number;
  subunit: number;
  coding: Coding;
  vif: VifInfo;
  /** The VIF and every VIFE as sent. */
  vifBytes: number[];
  /**
   * Combinable VIFEs that change what the value is (per hour, a future value, an error code …),
   * without their extension bit. Multiplicative corrections (0x70–0x77, 0x7D) are applied
   * instead. A record with any of these is no current register.
   */
  otherVifes: number[];
  /** The unit text of a plain-text VIF (0x7C / 0xFC). */
  plainTextUnit?: string;
  value: RecordValue;
}

export type MbusErrorCode =
  | 'mbus-truncated'
  | 'mbus-reserved-dif'
  | 'mbus-reserved-lvar'
  | 'mbus-too-many-difes'
  | 'mbus-too-many-vifes'
  | 'mbus-too-many-records';

export interface MbusError {
  code: MbusErrorCode;
  /** Where the record that stopped the walk starts. */
  offset: number;
  detail: string;
}

export interface MbusRecords {
  records: MbusRecord[];
  /** The bytes after DIF 0x0F or 0x1F: manufacturer-specific, kept raw (0x1F: more records in the next message). */
  manufacturerData?: { offset: number; hex: string; moreRecordsFollow: boolean };
  error?: MbusError;
}

/** Far more than a LoRaWAN payload (242 bytes) can hold; a longer walk stops with mbus-too-many-records. */
export const MAX_RECORDS = 1000;
const MAX_DIFES = 10;
const MAX_VIFES = 10;

class Stop extends Error {
  constructor(readonly stop: MbusError) {
    super(stop.detail);
  }
}

/** The records of `bytes` from `start` on. Never throws. */
export function parseRecords(bytes: Uint8Array, start = 0, maxRecords = MAX_RECORDS): MbusRecords {
  const records: MbusRecord[] = [];
  let at = start;
  try {
    while (at < bytes.length) {
      const offset = at;
      const dif = bytes[at++]!;
      if (dif === 0x2f) continue; // idle filler
      if (dif === 0x0f || dif === 0x1f) {
        const hex = toHex(bytes, at, bytes.length);
        return { records, manufacturerData: { offset, hex, moreRecordsFollow: dif === 0x1f } };
      }
      if (dif === 0x7f) continue; // global readout request: no VIF, no data
      if ((dif & 0x0f) === 0x0f) stop('mbus-reserved-dif', offset, `reserved DIF 0x${dif.toString(16)}`);
      if (records.length >= maxRecords) stop('mbus-too-many-records', offset, `more than ${maxRecords} records`);
      const record = readRecord(bytes, offset, dif);
      records.push(record.record);
      at = record.next;
    }
  } catch (e) {
    if (e instanceof Stop) return { records, error: e.stop };
    throw e;
  }
  return { records };
}

function stop(code: MbusErrorCode, offset: number, detail: string): never {
  throw new Stop({ code, offset, detail });
}

function readRecord(bytes: Uint8Array, offset: number, dif: number): { record: MbusRecord; next: number } {
  let at = offset + 1;
  const need = (n: number, what: string) => {
    if (at + n > bytes.length) {
      stop('mbus-truncated', offset, `record at byte ${offset}: ${what} runs past the end (${bytes.length - at} left)`);
    }
  };

  // DIFEs: storage number bits 1+4n…, tariff bits 2n…, subunit bit n.
  let storage = (dif >> 6) & 1;
  let tariff = 0;
  let subunit = 0;
  let more = (dif & 0x80) !== 0;
  for (let n = 0; more; n++) {
    if (n === MAX_DIFES) stop('mbus-too-many-difes', offset, `record at byte ${offset}: more than ${MAX_DIFES} DIFEs`);
    need(1, 'DIFE');
    const dife = bytes[at++]!;
    storage += (dife & 0x0f) * 2 ** (1 + 4 * n);
    tariff += ((dife >> 4) & 0x03) * 2 ** (2 * n);
    subunit += ((dife >> 6) & 0x01) * 2 ** n;
    more = (dife & 0x80) !== 0;
  }

  need(1, 'VIF');
  const vifBytes = [bytes[at++]!];
  more = (vifBytes[0]! & 0x80) !== 0;
  const nextVife = () => {
    if (vifBytes.length > MAX_VIFES) {
      stop('mbus-too-many-vifes', offset, `record at byte ${offset}: more than ${MAX_VIFES} VIFEs`);
    }
    need(1, 'VIFE');
    const vife = bytes[at++]!;
    vifBytes.push(vife);
    more = (vife & 0x80) !== 0;
    return vife & 0x7f;
  };
  const code = vifBytes[0]! & 0x7f;
  let vif: VifInfo;
  if ((code === VIF_EXT_FD || code === VIF_EXT_FB) && more) {
    vif = code === VIF_EXT_FD ? extensionFd(nextVife()) : extensionFb(nextVife());
  } else vif = primaryVif(code);

  const otherVifes: number[] = [];
  let exponentShift = 0;
  let manufacturerVifes = vif.kind === 'manufacturer';
  while (more) {
    const vife = nextVife();
    if (manufacturerVifes) continue; // after 0x7F every VIFE is the manufacturer's
    if (vife >= 0x70 && vife <= 0x77) exponentShift += (vife & 0x07) - 6;
    else if (vife === 0x7d) exponentShift += 3;
    else {
      otherVifes.push(vife);
      if (vife === 0x7f) manufacturerVifes = true;
    }
  }

  let plainTextUnit: string | undefined;
  if (code === VIF_PLAIN_TEXT) {
    need(1, 'plain-text VIF length');
    const length = bytes[at++]!;
    need(length, 'plain-text VIF');
    const text = readVariable(bytes, at, length, length);
    plainTextUnit = text.kind === 'text' ? text.value : '';
    at += length;
    vif = { ...vif, name: `plain_${plainTextUnit.toLowerCase().replace(/[^a-z0-9]+/g, '_')}` };
  }

  const field = DATA_FIELDS[dif & 0x0f]!;
  let length = field.length;
  let lvar = 0;
  if (field.coding === 'variable') {
    need(1, 'LVAR');
    lvar = bytes[at++]!;
    const l = lvarLength(lvar);
    if (l === undefined)
      stop('mbus-reserved-lvar', offset, `record at byte ${offset}: reserved LVAR 0x${lvar.toString(16)}`);
    length = l;
  }
  need(length, `data (${length} bytes)`);
  const value = readValue(bytes, at, length, field.coding, lvar, vif, exponentShift);
  at += length;

  const record: MbusRecord = {
    offset,
    function: FUNCTIONS[(dif >> 4) & 0x03]!,
    storage,
    tariff,
    subunit,
    coding: field.coding,
    vif,
    vifBytes,
    otherVifes,
    value,
  };
  if (plainTextUnit !== undefined) record.plainTextUnit = plainTextUnit;
  return { record, next: at };
}

function readValue(
  bytes: Uint8Array,
  at: number,
  length: number,
  coding: Coding,
  lvar: number,
  vif: VifInfo,
  exponentShift: number,
): RecordValue {
  if (coding === 'none' || coding === 'selection') return { kind: 'none' };
  if (vif.kind === 'unknown' || vif.kind === 'manufacturer') {
    return length === 0 ? { kind: 'none' } : { kind: 'hex', value: toHex(bytes, at, at + length) };
  }
  if (vif.kind === 'date' || vif.kind === 'datetime') {
    if (coding !== 'int') return { kind: 'invalid', reason: 'date-coding' };
    return toRecordValue(readDateType(bytes, at, length, vif.kind === 'datetime'), vif, 0, false);
  }
  // Only measured quantities are signed (type B); bit fields and identities are not.
  const signed = vif.kind === 'numeric' || vif.kind === 'plain-text';
  const raw =
    coding === 'int'
      ? readInt(bytes, at, length, signed)
      : coding === 'bcd'
        ? readBcd(bytes, at, length)
        : coding === 'real'
          ? readReal(bytes, at)
          : readVariable(bytes, at, lvar, length);
  return toRecordValue(raw, vif, exponentShift, coding === 'real');
}
