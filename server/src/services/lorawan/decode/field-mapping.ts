/**
 * An operator's mapping of the object an LNS codec decoded (ChirpStack's `object`, The Things
 * Stack's `decoded_payload`) for a model no built-in decoder reads: which field is the
 * register, its unit and scale, which field is the meter's time. Fields are dotted paths
 * ("meter.total", "readings.0.value"), walked step by step, never recursively; the other
 * scalar values are kept, within bounds, for diagnosis (docs/lorawan.md, "Decoding").
 */

import { parseTime } from '../../time.js';
import { clean, type DecodeResult, type Problem, type RegisterUnit, undecoded } from './types.js';

/** The units an operator may say a field is in, and what they become. */
export const MAPPING_UNITS = {
  kWh: { unit: 'kWh', factor: 1 },
  Wh: { unit: 'kWh', factor: 1e-3 },
  MWh: { unit: 'kWh', factor: 1e3 },
  GJ: { unit: 'kWh', factor: 1e6 / 3600 },
  m3: { unit: 'm3', factor: 1 },
  l: { unit: 'm3', factor: 1e-3 },
  HCA: { unit: 'HCA', factor: 1 },
} as const satisfies Record<string, { unit: RegisterUnit; factor: number }>;
export type MappingUnit = keyof typeof MAPPING_UNITS;

export interface FieldMapping {
  /** Dotted path of the register's field. */
  registerField: string;
  unit: MappingUnit;
  /** What the field's number is multiplied by to be in `unit` (1, 0.001 …): finite and above 0. */
  scale: number;
  /** Dotted path of the meter's time: ISO 8601 with a zone, or Unix seconds. */
  timeField?: string;
}

export const MAX_PATH_LENGTH = 200;
export const MAX_PATH_STEPS = 16;
/** The other values kept: at most this many, from at most this deep, strings cut to MAX_TEXT. */
const MAX_VALUES = 100;
const MAX_DEPTH = 8;
const MAX_TEXT = 200;
/**
 * Object members looked at while collecting values. JavaScript still lists a huge object's keys
 * whole once (for…in): the LNS endpoints' body limit bounds that.
 */
const MAX_VISITS = 10_000;
/** Unix seconds the meter's time may be: 2000-01-01 … 2100-01-01 (a number outside is no time in seconds). */
const FIRST_SECOND = 946_684_800;
const LAST_SECOND = 4_102_444_800;

const PATH = /^[^.]+(\.[^.]+)*$/;

/** Whether a mapping can be applied at all; a reason when not (the device form checks the same). */
export function mappingProblem(m: FieldMapping): string | undefined {
  for (const [name, path] of [
    ['registerField', m.registerField],
    ['timeField', m.timeField],
  ] as const) {
    if (path === undefined && name === 'timeField') continue;
    if (typeof path !== 'string' || path.length > MAX_PATH_LENGTH || !PATH.test(path))
      return `${name}: not a dotted path`;
    if (path.split('.').length > MAX_PATH_STEPS) return `${name}: more than ${MAX_PATH_STEPS} steps`;
  }
  if (!Object.hasOwn(MAPPING_UNITS, m.unit)) return 'unit: not a known unit';
  if (typeof m.scale !== 'number' || !Number.isFinite(m.scale) || m.scale <= 0) return 'scale: not a number above 0';
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The value at a dotted path: own members only (no `__proto__`, no `constructor`), array items by index. */
function at(object: unknown, path: string): { found: true; value: unknown } | { found: false } {
  let current: unknown = object;
  for (const step of path.split('.')) {
    if (!isObject(current)) return { found: false };
    if (Array.isArray(current) && !/^\d+$/.test(step)) return { found: false };
    if (!Object.hasOwn(current, step)) return { found: false };
    current = current[step];
  }
  return { found: true, value: current };
}

function meterTime(value: unknown): Date | undefined {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= FIRST_SECOND && value < LAST_SECOND ? new Date(value * 1000) : undefined;
  }
  if (typeof value !== 'string' || value.length > 40) return undefined;
  // A time without a zone would be the provider's wall clock or the meter's: neither is known here.
  const zone = /(Z|([+-])(\d{2}):?(\d{2})?)$/i.exec(value.trim());
  const parsed = parseTime(value);
  if (!parsed || !zone) return undefined;
  // parseTime takes the zone's hours; its minutes (+05:30) are added here.
  const minutes = zone[2] ? Number(zone[4] ?? 0) * (zone[2] === '-' ? -1 : 1) : 0;
  return new Date(parsed.approxMs - minutes * 60_000);
}

/** The object's scalar values by dotted path, breadth first, within the bounds above. */
function scalarValues(object: Record<string, unknown>): Record<string, number | string> {
  const values: Record<string, number | string> = {};
  const queue: { prefix: string; value: Record<string, unknown>; depth: number }[] = [
    { prefix: '', value: object, depth: 1 },
  ];
  let count = 0;
  let visits = 0;
  for (let q = 0; q < queue.length && count < MAX_VALUES && visits < MAX_VISITS; q++) {
    const { prefix, value, depth } = queue[q]!;
    for (const key in value) {
      if (++visits > MAX_VISITS || count >= MAX_VALUES) break;
      if (!Object.hasOwn(value, key) || key === '__proto__') continue;
      const v = value[key];
      const name = prefix + key;
      if (typeof v === 'number' && Number.isFinite(v)) values[name] = v;
      else if (typeof v === 'string') values[name] = v.slice(0, MAX_TEXT);
      else if (typeof v === 'boolean') values[name] = String(v);
      else {
        if (isObject(v) && depth < MAX_DEPTH) queue.push({ prefix: `${name}.`, value: v, depth: depth + 1 });
        continue;
      }
      count++;
    }
  }
  return values;
}

export function applyFieldMapping(object: unknown, mapping: FieldMapping): DecodeResult {
  const problem = mappingProblem(mapping);
  if (problem) return undecoded('mapping-invalid', problem);
  if (!isObject(object) || Array.isArray(object)) return undecoded('mapping-not-an-object');
  const field = at(object, mapping.registerField);
  if (!field.found) return undecoded('mapping-field-missing', mapping.registerField);
  if (typeof field.value !== 'number' || !Number.isFinite(field.value)) {
    const type = field.value === null ? 'null' : typeof field.value;
    return undecoded('mapping-not-a-number', `${mapping.registerField} is ${type}`);
  }
  const { unit, factor } = MAPPING_UNITS[mapping.unit];
  const value = clean(field.value * mapping.scale * factor);
  if (!Number.isFinite(value)) return undecoded('register-invalid', `${mapping.registerField} scaled is out of range`);
  const problems: Problem[] = [];
  let time: Date | undefined;
  if (mapping.timeField !== undefined) {
    const t = at(object, mapping.timeField);
    // The payload has no time of its own: the LNS's event time stands, as for any payload without one.
    if (!t.found) problems.push({ field: mapping.timeField, reason: 'time-field-missing' });
    else {
      time = meterTime(t.value);
      if (!time)
        return undecoded('mapping-time-invalid', `${mapping.timeField} is no time with a zone or Unix seconds`);
    }
  }
  return {
    ok: true,
    register: time
      ? { value: value === 0 ? 0 : value, unit, meterTime: time }
      : { value: value === 0 ? 0 : value, unit },
    values: scalarValues(object),
    alarms: [],
    problems,
  };
}
