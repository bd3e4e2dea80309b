import type { DataLoadProc } from '@rodmenys/contract';
import { parseTime } from '../time.js';
import {
  FIELDS,
  HISTORY_FIELDS,
  METER_CLOCK_FIELDS,
  NO_DATE_FROM_YEAR,
  NO_FLAG,
  RELATIVE_HISTORY_FIELDS,
  SENTINEL_NUMBERS,
  STATUS_FIELDS,
} from './drivers.js';
import { jsonDecimal, parseReceptionTime } from './values.js';

/** One telegram of a request: where it was, the decoded object, its JSON text. */
export interface TelegramItem {
  position: number;
  json: Record<string, unknown>;
  raw: string;
}

/** A telegram whose meter id and reception time are usable. */
export interface Telegram extends TelegramItem {
  meterId: string;
  driver: string | null;
  /** Reception time (wmbusmeters' `timestamp`), as text for timestamptz. */
  ts: string;
}

/** What a telegram means for its device, as text for numeric/timestamptz/date columns. */
export interface Mapped {
  value: string | null;
  meterTs: string | null;
  flags: string[];
  setDate: string | null;
  setValue: string | null;
  /** Values the meter stored for past days (monthly history): [day, value]. */
  history: [day: string, value: string][];
}

const METER_ID = /^[0-9A-Za-z_.:-]{1,64}$/;
/** Escapes PostgreSQL's jsonb refuses: NUL, and a surrogate without its pair. */
const UNSTORABLE_ESCAPE =
  /\\u0000|\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}/;

/** Checks a telegram's meter id and reception time; a string is the reason it cannot be taken. */
export function readTelegram(item: TelegramItem, now: Date): Telegram | string {
  if (item.raw.includes('\\u') && UNSTORABLE_ESCAPE.test(item.raw)) {
    return 'contains \\u0000 or a lone surrogate escape, which PostgreSQL cannot store';
  }
  const { id, timestamp, meter } = item.json;
  if (typeof id !== 'string' || !METER_ID.test(id)) {
    return id === undefined ? 'id is missing' : 'id must be a string of up to 64 letters and digits';
  }
  if (typeof timestamp !== 'string') {
    return timestamp === undefined ? 'timestamp is missing' : 'timestamp must be a string';
  }
  const ts = parseReceptionTime(timestamp, now);
  if (typeof ts === 'string') return `timestamp ${ts}`;
  return {
    position: item.position,
    json: item.json,
    raw: item.raw,
    meterId: id,
    driver: typeof meter === 'string' ? meter : null,
    ts: ts.text,
  };
}

/** No value: null, "", or the M-Bus sentinel. */
const isEmpty = (v: unknown) => v === null || v === '' || SENTINEL_NUMBERS.has(String(v));

/** A field's decimal: null when absent or a sentinel, an Error when it is of a wrong type. */
function decimalField(json: Record<string, unknown>, field: string): string | null | Error {
  const v = json[field];
  if (v === undefined || isEmpty(v)) return null;
  return jsonDecimal(v) ?? new Error(`${field} must be a number`);
}

/** A field's date or date-time: null when absent, not a real date (2000-00-00) or a "no date" (2127-…). */
function timeField(json: Record<string, unknown>, field: string) {
  const v = json[field];
  if (typeof v !== 'string') return null;
  const t = parseTime(v);
  return t && t.year < NO_DATE_FROM_YEAR ? t : null;
}

/**
 * Reads a telegram for a device of the given value kind (drivers.ts): its value,
 * the meter's clock, the status flags and the set-day pair. A string is the
 * reason the telegram cannot be taken (a field of a wrong type).
 */
export function mapTelegram(json: Record<string, unknown>, kind: DataLoadProc): Mapped | string {
  const fields = FIELDS[kind];
  let value: string | null = null;
  for (const field of fields.value) {
    const v = decimalField(json, field);
    if (v instanceof Error) return v.message;
    if (v !== null) {
      value = v;
      break;
    }
  }
  let setDate: string | null = null;
  let setValue: string | null = null;
  for (const [dateField, valueField] of fields.setDay) {
    const v = decimalField(json, valueField);
    if (v instanceof Error) return v.message;
    const date = timeField(json, dateField);
    if (v !== null && date) {
      setDate = date.day;
      setValue = v;
      break;
    }
  }
  let meterTs: string | null = null;
  let meterDay: string | null = null;
  for (const field of METER_CLOCK_FIELDS) {
    const t = timeField(json, field);
    if (t) {
      meterTs = t.text;
      meterDay = t.day;
      break;
    }
  }
  return {
    value,
    meterTs,
    flags: statusFlags(json),
    setDate,
    setValue,
    history: historyValues(json, kind, meterDay),
  };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The last day (YYYY-MM-DD) of the month `back` months before the month of `day`. */
function monthEndBefore(day: string, back: number): string {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 - back + 1, 0)).toISOString().slice(0, 10);
}

/**
 * The monthly history pairs of HISTORY_FIELDS found in a telegram, and of
 * RELATIVE_HISTORY_FIELDS counted back from the meter's own date; unusable dates
 * or values are skipped.
 */
function historyValues(json: Record<string, unknown>, kind: DataLoadProc, meterDay: string | null): [string, string][] {
  const found = new Map<string, string>();
  for (const pattern of meterDay ? RELATIVE_HISTORY_FIELDS[kind] : []) {
    const re = new RegExp(`^${escapeRegExp(pattern).replace('\\{n\\}', '(\\d{1,2})')}$`);
    for (const key of Object.keys(json)) {
      const match = re.exec(key);
      const back = match ? Number(match[1]) : 0;
      if (!match || back < 1) continue;
      const value = decimalField(json, key);
      const day = monthEndBefore(meterDay!, back);
      if (typeof value === 'string' && !found.has(day)) found.set(day, value);
    }
  }
  for (const [datePattern, valuePattern] of HISTORY_FIELDS[kind]) {
    const dateRe = new RegExp(`^${escapeRegExp(datePattern).replace('\\{n\\}', '(\\d{1,2})')}$`);
    for (const key of Object.keys(json)) {
      const match = dateRe.exec(key);
      if (!match) continue;
      const valueField = match[1] === undefined ? valuePattern : valuePattern.replace('{n}', match[1]);
      const value = decimalField(json, valueField);
      const date = timeField(json, key);
      if (date && typeof value === 'string' && !found.has(date.day)) found.set(date.day, value);
    }
  }
  return [...found];
}

/** "POWER_LOW TAMPER" and "meter_blocked,underflow" become [POWER_LOW, TAMPER, METER_BLOCKED, UNDERFLOW]; "OK" none. */
function statusFlags(json: Record<string, unknown>): string[] {
  const flags = new Set<string>();
  for (const field of STATUS_FIELDS) {
    const v = json[field];
    if (typeof v !== 'string' || NO_FLAG.has(v)) continue;
    for (const word of v.split(/[\s,]+/)) {
      const flag = word.toUpperCase();
      if (!NO_FLAG.has(flag)) flags.add(flag);
    }
  }
  return [...flags];
}
