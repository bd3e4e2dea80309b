/**
 * A small M-Bus record encoder for tests (EN 13757-3, written from the standard, sharing no
 * code with services/lorawan/decode/): DIF with DIFEs for storage number, tariff and subunit,
 * VIF and VIFE bytes as given, data as integer, BCD (with its negative form), real or none.
 */

export type EncData =
  | { coding: 'none' }
  | { coding: 'int'; length: 1 | 2 | 3 | 4 | 6 | 8; value: bigint }
  | { coding: 'bcd'; length: 1 | 2 | 3 | 4 | 6; value: number }
  | { coding: 'real'; value: number }
  /** Bytes as they are (after an LVAR byte for variable data). */
  | { coding: 'raw'; dataField: number; bytes: number[] };

export interface EncRecord {
  /** 0 instantaneous, 1 maximum, 2 minimum, 3 value during error state. */
  function?: 0 | 1 | 2 | 3;
  storage?: number;
  tariff?: number;
  subunit?: number;
  /** DIFEs beyond those needed, all zero (a longer chain meaning the same). */
  extraDifes?: number;
  /** The VIF and its VIFEs, extension bits included. */
  vif: number[];
  data: EncData;
}

const DATA_FIELD_INT = { 1: 0x1, 2: 0x2, 3: 0x3, 4: 0x4, 6: 0x6, 8: 0x7 } as const;
const DATA_FIELD_BCD = { 1: 0x9, 2: 0xa, 3: 0xb, 4: 0xc, 6: 0xe } as const;

const bitLength = (n: number) => (n === 0 ? 0 : Math.floor(Math.log2(n)) + 1);

function dataField(d: EncData): number {
  switch (d.coding) {
    case 'none':
      return 0x0;
    case 'int':
      return DATA_FIELD_INT[d.length];
    case 'bcd':
      return DATA_FIELD_BCD[d.length];
    case 'real':
      return 0x5;
    case 'raw':
      return d.dataField;
  }
}

export function encodeData(d: EncData): number[] {
  switch (d.coding) {
    case 'none':
      return [];
    case 'int': {
      const bits = BigInt(8 * d.length);
      let v = BigInt.asUintN(Number(bits), d.value);
      const out: number[] = [];
      for (let i = 0; i < d.length; i++) {
        out.push(Number(v & 0xffn));
        v >>= 8n;
      }
      return out;
    }
    case 'bcd': {
      // Digits, most significant first, padded; negative: the top digit is 0xF.
      const digits = 2 * d.length;
      const text = String(Math.abs(d.value)).padStart(digits, '0');
      if (text.length > digits || (d.value < 0 && text[0] !== '0')) throw new Error(`${d.value} needs more digits`);
      const nibbles = [...text].map(Number);
      if (d.value < 0) nibbles[0] = 0xf;
      const out: number[] = [];
      for (let i = digits - 2; i >= 0; i -= 2) out.push((nibbles[i]! << 4) | nibbles[i + 1]!);
      return out;
    }
    case 'real': {
      const view = new DataView(new ArrayBuffer(4));
      view.setFloat32(0, d.value, true);
      return [...new Uint8Array(view.buffer)];
    }
    case 'raw':
      return d.bytes;
  }
}

export function encodeRecord(r: EncRecord): number[] {
  const storage = r.storage ?? 0;
  const tariff = r.tariff ?? 0;
  const subunit = r.subunit ?? 0;
  const difes =
    Math.max(Math.ceil(Math.max(0, bitLength(storage) - 1) / 4), Math.ceil(bitLength(tariff) / 2), bitLength(subunit)) +
    (r.extraDifes ?? 0);
  const out = [((difes > 0 ? 1 : 0) << 7) | ((storage & 1) << 6) | ((r.function ?? 0) << 4) | dataField(r.data)];
  for (let n = 0; n < difes; n++) {
    const s = Math.floor(storage / 2 ** (1 + 4 * n)) % 16;
    const t = Math.floor(tariff / 4 ** n) % 4;
    const u = Math.floor(subunit / 2 ** n) % 2;
    out.push(((n < difes - 1 ? 1 : 0) << 7) | (u << 6) | (t << 4) | s);
  }
  return [...out, ...r.vif, ...encodeData(r.data)];
}

export const encodeRecords = (records: EncRecord[]): Uint8Array => new Uint8Array(records.flatMap(encodeRecord));

export const hex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text.replace(/\s+/g, ''), 'hex'));
