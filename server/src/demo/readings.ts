// The demo readings: cumulative values on a fixed time grid, heat seasonal and
// water with a daily and weekly rhythm. Every number comes from a hash of
// (seed, serial number, slot), so the seed and a later top-up use the same
// formulas and need nothing but the last stored value.
import { DEVICE_TYPE, type DeviceRole, type DeviceTypeId } from '@rodmenys/contract';
import { hashString, mix, unit } from './random.js';

export type { DeviceTypeId };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface Timeline {
  intervalMs: number;
  /** Slot k starts at k * intervalMs (epoch milliseconds). */
  firstSlot: number;
  lastSlot: number;
  /** Per slot: how much heating it needs (0 in summer, ~1 in January). */
  heat: Float64Array;
  /** Per slot: water use relative to the average (time of day, weekend). */
  water: Float64Array;
  /** Per slot: ISO text of the slot's hour and of the hour before, up to the minutes ("2026-01-31T06:"). */
  hour: string[];
  hourBefore: string[];
}

// Water use by hour of day (local time ~ UTC+2), normalised to a mean of 1 below.
const HOURLY_WATER = [
  0.2, 0.1, 0.1, 0.1, 0.2, 0.5, 1.4, 2.0, 1.6, 1.0, 0.8, 0.9, 1.1, 1.0, 0.8, 0.8, 1.0, 1.3, 1.7, 1.9, 1.7, 1.4, 0.9,
  0.5,
];
const HOURLY_MEAN = HOURLY_WATER.reduce((a, b) => a + b, 0) / 24;

/** Heating need at a time: from a smooth yearly outdoor temperature (-5 °C late January, +20 °C late July). */
function heatNeed(ms: number): number {
  const dayOfYear = (ms / DAY) % 365.2425;
  const outdoor = 7.5 - 12.5 * Math.cos((2 * Math.PI * (dayOfYear - 20)) / 365.2425);
  return Math.max(0, 16 - outdoor) / 21;
}

function waterNeed(slotStart: number, intervalMs: number): number {
  const hours = Math.max(1, Math.round(intervalMs / HOUR));
  let sum = 0;
  for (let h = 0; h < hours; h++) {
    const t = slotStart + h * HOUR + 2 * HOUR;
    sum += HOURLY_WATER[Math.floor(t / HOUR) % 24]!;
  }
  const weekday = new Date(slotStart + 2 * HOUR).getUTCDay();
  return (sum / hours / HOURLY_MEAN) * (weekday === 0 || weekday === 6 ? 1.25 : 0.9);
}

/** The slots whose readings can fall in (afterMs, untilMs]. */
export function timeline(intervalHours: number, afterMs: number, untilMs: number): Timeline {
  const intervalMs = intervalHours * HOUR;
  const firstSlot = Math.floor(afterMs / intervalMs);
  const lastSlot = Math.floor(untilMs / intervalMs);
  const n = Math.max(0, lastSlot - firstSlot + 1);
  const heat = new Float64Array(n);
  const water = new Float64Array(n);
  const hour: string[] = [];
  const hourBefore: string[] = [];
  for (let i = 0; i < n; i++) {
    const start = (firstSlot + i) * intervalMs;
    heat[i] = heatNeed(start + intervalMs / 2);
    water[i] = waterNeed(start, intervalMs);
    hour.push(new Date(start).toISOString().slice(0, 14));
    hourBefore.push(new Date(start - HOUR).toISOString().slice(0, 14));
  }
  return { intervalMs, firstSlot, lastSlot, heat, water, hour, hourBefore };
}

interface Profile {
  /** Consumption per day at full need. */
  perDay: number;
  /** Share of the yearly peak still used in summer (building meters heat hot water). */
  base: number;
  start: number;
  seasonal: boolean;
  integer: boolean;
}

function profile(typeId: DeviceTypeId, key: number, role: DeviceRole | null = null): Profile {
  const u = (n: number) => unit(mix(key, n));
  // The building-level devices of the hot water (docs/heat-method.md, "Devices"): the hot-water input
  // meter takes about what ten flats do, and the hot-water heat meter 1.5–2 times the heat that warms
  // it at 51 kWh/m³ (the rest is the circulation), both following the water's daily rhythm.
  if (role === 'hotWaterInput')
    return { perDay: 1.1 + 0.4 * u(1), base: 0, start: 1000 + 4000 * u(2), seasonal: false, integer: false };
  if (role === 'hotWaterHeat')
    return { perDay: 115, base: 0, start: 20000 + 50000 * u(2), seasonal: false, integer: false };
  switch (typeId) {
    case DEVICE_TYPE.allocator:
      return { perDay: 4 + 21 * u(1), base: 0, start: Math.floor(200 + 2500 * u(2)), seasonal: true, integer: true };
    case DEVICE_TYPE.heatMeter:
      return { perDay: 12 + 30 * u(1), base: 0, start: 2000 + 15000 * u(2), seasonal: true, integer: false };
    case DEVICE_TYPE.coldWaterMeter:
      return { perDay: 0.1 + 0.25 * u(1), base: 0, start: 20 + 800 * u(2), seasonal: false, integer: false };
    case DEVICE_TYPE.hotWaterMeter:
      return { perDay: 0.05 + 0.12 * u(1), base: 0, start: 10 + 400 * u(2), seasonal: false, integer: false };
    case DEVICE_TYPE.buildingHeatMeter:
      return { perDay: 700 + 2500 * u(1), base: 0.08, start: 200000 + 800000 * u(2), seasonal: true, integer: false };
  }
}

/** The key every number of one device derives from. */
export const deviceKey = (seed: number, deviceCode: string): number => mix(hashString(deviceCode), seed);

/** The value a device shows when its readings begin. */
export const startValue = (
  seed: number,
  deviceCode: string,
  typeId: DeviceTypeId,
  role: DeviceRole | null = null,
): number => profile(typeId, deviceKey(seed, deviceCode), role).start;

/** A device's consumption per day at full need. */
export const perDayOf = (seed: number, deviceCode: string, typeId: DeviceTypeId): number =>
  profile(typeId, deviceKey(seed, deviceCode)).perDay;

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

/** ISO text of a time `secondsIntoHour` (-3600..3599) after the start of slot i's hour: toISOString is the hot spot. */
function isoInSlot(line: Timeline, i: number, secondsIntoHour: number): string {
  const before = secondsIntoHour < 0;
  const s = before ? secondsIntoHour + 3600 : secondsIntoHour;
  return `${before ? line.hourBefore[i] : line.hour[i]}${TWO_DIGITS[Math.floor(s / 60)]}:${TWO_DIGITS[s % 60]}Z`;
}

export interface SeriesDevice {
  id: number;
  code: string;
  typeId: DeviceTypeId;
  /** A building-level role (docs/heat-method.md, "Devices"). */
  role?: DeviceRole | null;
}

export interface SeriesOptions {
  seed: number;
  /** Readings with afterMs < ts <= untilMs. */
  afterMs: number;
  untilMs: number;
  /** The cumulative value just before the first reading. */
  fromValue: number;
  /** No readings with from <= ts < till (`till` may be Infinity: a silent device). */
  gaps?: ReadonlyArray<readonly [number, number]>;
  /** From this time on, the meter starts again near zero (a reset or a wrong reading). */
  resetAtMs?: number;
}

export interface Series {
  /** CSV rows for `COPY reading (device_id, ts, meter_ts, value)`. */
  csv: string;
  count: number;
  lastValue: number;
}

/** One device's readings on the timeline as CSV. */
export function renderSeries(line: Timeline, device: SeriesDevice, opts: SeriesOptions): Series {
  const key = deviceKey(opts.seed, device.code);
  const p = profile(device.typeId, key, device.role ?? null);
  // The collector hears each device at its own minute of the slot.
  // Seconds into the slot: below one hour, so the reading stays in the slot's first hour.
  const offset = Math.floor(unit(mix(key, 3)) * (Math.min(HOUR, line.intervalMs) / 60_000 - 1)) * 60;
  const perSlot = (p.perDay * line.intervalMs) / DAY;
  let value = opts.fromValue;
  let reset = opts.resetAtMs;
  let csv = '';
  let count = 0;
  for (let i = 0, slot = line.firstSlot; slot <= line.lastSlot; i++, slot++) {
    const h = mix(key, slot);
    const seconds = offset + (h % 60);
    const ts = slot * line.intervalMs + seconds * 1000;
    if (ts <= opts.afterMs) continue;
    if (ts > opts.untilMs) break;
    const need = p.seasonal ? p.base + (1 - p.base) * line.heat[i]! : line.water[i]!;
    value += perSlot * need * (0.6 + 0.8 * unit(mix(h, 7)));
    if (reset !== undefined && ts >= reset) {
      value = p.integer ? 0 : 0.01 + 0.1 * unit(mix(h, 11));
      reset = undefined;
    }
    if (opts.gaps?.some(([from, till]) => ts >= from && ts < till)) continue;
    // The meter's own clock runs 20 s to 8 min behind the reception time.
    const meterSeconds = seconds - 20 - (mix(h, 13) % 460);
    const shown = p.integer ? String(Math.floor(value)) : value.toFixed(3);
    csv += `${device.id},${isoInSlot(line, i, seconds)},${isoInSlot(line, i, meterSeconds)},${shown}\n`;
    count++;
  }
  return { csv, count, lastValue: value };
}

export const READING_COPY = 'COPY reading (device_id, ts, meter_ts, value) FROM STDIN WITH (FORMAT csv)';
