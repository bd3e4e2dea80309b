/**
 * What a LoRaWAN uplink decodes to, whichever decoder read it (docs/lorawan.md, "Decoding"):
 * a register value in the device's unit with the meter's own time when the payload has one,
 * the other values kept for diagnosis, alarms, and an hourly history; or a stable reason why
 * nothing was decoded. Nothing here touches the database.
 */

/** The units a register is given in: energy in kWh, volume in m³, heat cost allocator units. */
export type RegisterUnit = 'kWh' | 'm3' | 'HCA';

export interface Register {
  value: number;
  unit: RegisterUnit;
  /** The meter's own clock, when the payload carries it; else the caller uses the LNS's time. */
  meterTime?: Date;
}

/** One step of a payload's history: a value per interval, with its time only where the payload defines it. */
export interface HistoryEntry {
  /** Its place in the payload, 1 = the first. */
  index: number;
  /** The consumption of the interval in the register's unit. */
  delta: number;
  unit: RegisterUnit;
  /** Absent where the payload does not define when the interval was (the W1: docs/lorawan.md). */
  time?: Date;
}

export interface Decoded {
  ok: true;
  register: Register;
  /** Every other value of the payload by name (energy_kwh, flow_temperature_c, …), for diagnosis. */
  values: Record<string, number | string>;
  /** Alarm flags in the wmbusmeters vocabulary (LEAK, BURST, BACKFLOW, LOW_BATTERY, …); empty = none. */
  alarms: string[];
  history?: HistoryEntry[];
  /** Parts of the payload left out, each with its reason; empty = none. */
  problems: Problem[];
}

/**
 * Why a part of a payload was left out while the rest decoded. Stable codes, as the undecoded
 * reasons are: screens translate them.
 */
export const PROBLEM_REASONS = [
  'bcd-hex-digit',
  'bcd-negative-identification',
  'real-not-finite',
  'integer-out-of-range',
  'date-coding',
  'date-invalid',
  'time-field-missing',
] as const;
export type ProblemReason = (typeof PROBLEM_REASONS)[number];

export interface Problem {
  /** The value's name (flow_temperature_c) or the mapping's field path. */
  field: string;
  reason: ProblemReason;
  /** Where the record starts in the payload (M-Bus records). */
  offset?: number;
}

/**
 * Why an uplink stays undecoded. Stable codes: the ingest stores them and the screens translate
 * them; a new reason is a new code, an existing one never changes its meaning.
 */
export const UNDECODED_REASONS = [
  'unknown-decoder',
  'unknown-fport',
  'empty-payload',
  'payload-too-long',
  'wrong-length',
  'unsupported-frame-version',
  'history-multiplier',
  'mbus-truncated',
  'mbus-reserved-dif',
  'mbus-reserved-lvar',
  'mbus-too-many-difes',
  'mbus-too-many-vifes',
  'mbus-too-many-records',
  'no-register',
  'register-no-value',
  'register-invalid',
  'mapping-invalid',
  'mapping-not-an-object',
  'mapping-field-missing',
  'mapping-not-a-number',
  'mapping-time-invalid',
] as const;
export type UndecodedReason = (typeof UNDECODED_REASONS)[number];

export interface Undecoded {
  ok: false;
  reason: UndecodedReason;
  /** English detail for diagnosis (which byte, which record); the reason code is what screens show. */
  detail?: string;
}

export type DecodeResult = Decoded | Undecoded;

export const undecoded = (reason: UndecodedReason, detail?: string): Undecoded =>
  detail === undefined ? { ok: false, reason } : { ok: false, reason, detail };

/**
 * A value scaled by a power of ten without binary noise: 660720 × 10⁻² is 6607.2, not
 * 6607.200000000001 (dividing an integer by an exact power of ten rounds once).
 */
export function scaled(raw: number, exponent: number): number {
  return exponent < 0 ? raw / 10 ** -exponent : raw * 10 ** exponent;
}

/** A converted value (GJ to kWh, a mapping's scale) cut to 15 significant digits, where binary noise starts. */
export const clean = (value: number): number => Number(value.toPrecision(15));
