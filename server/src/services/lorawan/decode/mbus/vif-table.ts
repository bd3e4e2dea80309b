/**
 * What a VIF (and, after 0xFD or 0xFB, its first VIFE) means (EN 13757-3): the name a value is
 * kept under, in one unit per quantity (energy in kWh, volume in m³, power in kW, flow in m³/h,
 * temperatures in °C, durations in seconds), and the power of ten (and, for joules, the factor)
 * that brings the raw number there. Codes not listed here are "unknown": the record keeps its
 * bytes and the records after it still decode (docs/lorawan.md, "Decoding").
 */

export type VifKind =
  /** A measured quantity: raw × 10^exponent (× factor) in the unit of its name. */
  | 'numeric'
  /** A number that identifies (fabrication number, enhanced identification): kept as text, leading zeros and all. */
  | 'identification'
  /** A bit field (error flags): unsigned, every value meaningful. */
  | 'bits'
  /** A count or code (access number, versions): unsigned. */
  | 'count'
  /** Date (type G, 2 bytes). */
  | 'date'
  /** Date and time (type F, 4 bytes; type I, 6 bytes). */
  | 'datetime'
  /** Manufacturer-specific (0x7F / 0xFF): kept raw. */
  | 'manufacturer'
  /** Plain-text VIF (0x7C / 0xFC): the unit is the text after it. */
  | 'plain-text'
  | 'unknown';

export interface VifInfo {
  kind: VifKind;
  /** The value's name: energy_kwh, volume_m3, …; for unknown codes the code in hex (vif_fd3f). */
  name: string;
  exponent: number;
  /** A factor that is no power of ten (joules to kWh, minutes to seconds …); absent = 1. */
  factor?: number;
}

const numeric = (name: string, exponent: number, factor?: number): VifInfo =>
  factor === undefined ? { kind: 'numeric', name, exponent } : { kind: 'numeric', name, exponent, factor };
const other = (kind: VifKind, name: string): VifInfo => ({ kind, name, exponent: 0 });
const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/** kWh per joule; kW per J/h. */
const KWH_PER_J = 1 / 3.6e6;
/** Seconds per unit of a duration's nn bits: seconds, minutes, hours, days. */
const DURATION_S = [1, 60, 3600, 86400];

/** The extension codes a primary VIF may be instead of a quantity. */
export const VIF_EXT_FB = 0x7b;
export const VIF_PLAIN_TEXT = 0x7c;
export const VIF_EXT_FD = 0x7d;
export const VIF_MANUFACTURER = 0x7f;

/** A primary VIF (its extension bit removed): 0x00–0x7F. */
export function primaryVif(vif: number): VifInfo {
  const n3 = vif & 0x07;
  const n2 = vif & 0x03;
  const duration = (name: string) => numeric(`${name}_s`, 0, DURATION_S[n2]!);
  switch (vif >> 3) {
    case 0x0:
      return numeric('energy_kwh', n3 - 6); // Wh × 10^(n-3)
    case 0x1:
      return numeric('energy_kwh', n3, KWH_PER_J); // J × 10^n
    case 0x2:
      return numeric('volume_m3', n3 - 6);
    case 0x3:
      return numeric('mass_kg', n3 - 3);
    case 0x4:
      return duration(n3 < 4 ? 'on_time' : 'operating_time');
    case 0x5:
      return numeric('power_kw', n3 - 6); // W × 10^(n-3)
    case 0x6:
      return numeric('power_kw', n3, KWH_PER_J); // J/h × 10^n
    case 0x7:
      return numeric('flow_m3h', n3 - 6);
    case 0x8:
      return numeric('flow_m3h', n3 - 7, 60); // m³/min
    case 0x9:
      return numeric('flow_m3h', n3 - 9, 3600); // m³/s
    case 0xa:
      return numeric('mass_flow_kgh', n3 - 3);
    case 0xb:
      return numeric(n3 < 4 ? 'flow_temperature_c' : 'return_temperature_c', n2 - 3);
    case 0xc:
      return numeric(n3 < 4 ? 'temperature_difference_k' : 'external_temperature_c', n2 - 3);
    case 0xd:
      if (n3 < 4) return numeric('pressure_bar', n2 - 3);
      if (vif === 0x6c) return other('date', 'date');
      if (vif === 0x6d) return other('datetime', 'datetime');
      if (vif === 0x6e) return numeric('hca_units', 0);
      return other('unknown', `vif_${hex2(vif)}`);
    case 0xe:
      return duration(n3 < 4 ? 'averaging_duration' : 'actuality_duration');
    default:
      if (vif === 0x78) return other('identification', 'fabrication_number');
      if (vif === 0x79) return other('identification', 'enhanced_identification');
      if (vif === 0x7a) return other('count', 'bus_address');
      if (vif === VIF_PLAIN_TEXT) return other('plain-text', 'plain_text');
      if (vif === VIF_MANUFACTURER) return other('manufacturer', 'manufacturer_specific');
      return other('unknown', `vif_${hex2(vif)}`); // 0x7E "any VIF" is a readout request
  }
}

const FD_COUNTS: Record<number, string> = {
  8: 'access_number',
  9: 'medium',
  10: 'manufacturer',
  11: 'parameter_set',
  12: 'model_version',
  13: 'hardware_version',
  14: 'firmware_version',
  15: 'software_version',
  96: 'reset_counter',
  97: 'cumulation_counter',
  116: 'remaining_battery_days',
};
const FD_BITS: Record<number, string> = {
  23: 'error_flags',
  24: 'error_mask',
  26: 'digital_output',
  27: 'digital_input',
};

/** The code after 0xFD (its extension bit removed). */
export function extensionFd(code: number): VifInfo {
  const bits = FD_BITS[code];
  if (bits) return other('bits', bits);
  const count = FD_COUNTS[code];
  if (count) return other('count', count);
  if (code === 0x3a) return numeric('dimensionless', 0);
  if (code >> 4 === 0x4) return numeric('voltage_v', (code & 0x0f) - 9);
  if (code >> 4 === 0x5) return numeric('current_a', (code & 0x0f) - 12);
  return other('unknown', `vif_fd${hex2(code)}`);
}

/** The code after 0xFB (its extension bit removed). */
export function extensionFb(code: number): VifInfo {
  const n = code & 0x01;
  switch (code & 0x7e) {
    case 0x00:
      return numeric('energy_kwh', n + 2); // MWh × 10^(n-1)
    case 0x08:
      return numeric('energy_kwh', n - 1, 1e9 * KWH_PER_J); // GJ × 10^(n-1)
    case 0x10:
      return numeric('volume_m3', n + 2);
    case 0x18:
      return numeric('mass_kg', n + 5); // t × 10^(n+2)
    case 0x28:
      return numeric('power_kw', n + 2); // MW × 10^(n-1)
    case 0x30:
      return numeric('power_kw', n - 1, 1e9 * KWH_PER_J); // GJ/h × 10^(n-1)
    default:
      return other('unknown', `vif_fb${hex2(code)}`);
  }
}
