import type { Queryable } from '../db/db.js';

/**
 * The parameters of month-end and moving-day values, validation rules, collectors' health and
 * schedules (table `dq_setting`, migration 060; docs/data-quality.md lists each one), read by
 * every feature that needs them. Group 1 edits them through the API; every change is audited.
 */
export interface DqSettings {
  /** A reading at most this many days before a month end is its measured value. */
  'monthEnd.toleranceDays': number;
  /** How many completed months back the schedule keeps month-end values for. */
  'monthEnd.keepMonths': number;
  /** A building whose estimated month ends exceed this share of its devices is flagged. */
  'monthEnd.estimatedShareWarn': number;
  /** A late declaration recalculates month ends at most this many months back (docs/declared-readings.md). */
  'declarations.recalcMonths': number;
  /** Months (1–12) of the heating season. */
  heatingSeasonMonths: number[];
  /** Days without a reading before a device is silent, per device type id. */
  'silent.days': Record<string, number>;
  /** Days of unchanged value before zero consumption is reported, per device type id (absent = not checked). */
  'zero.days': Record<string, number>;
  /** A fall to at most this fraction of the previous value is a counter reset. */
  'negative.resetFraction': number;
  /** Days of readings the reading-level rules look at. */
  'window.days': number;
  /** A month's consumption above this multiple of the device's own history is high. */
  'highLow.high': number;
  /** … below this multiple, low. */
  'highLow.low': number;
  /** Values meters send to mean "no value". */
  'sentinel.values': number[];
  /** Building balance: |flats − building| / building above this is reported. */
  'balance.tolerance': number;
  /** Minutes between validation runs. */
  'schedule.validateMinutes': number;
  /** Hour (0–23, provider zone) the daily digest is sent. */
  'schedule.digestHour': number;
  /** Minutes without any request from a collector before it is silent (docs/collectors.md). */
  'collector.silentMinutes': number;
  /** A collector's clock off by more than this many minutes is flagged. */
  'collector.clockSkewMinutes': number;
  /** The largest plausible rise per day of a collector's value, per device type id: above it the value is held back (docs/collectors.md). */
  'suspect.maxPerDay': Record<string, number>;
  /** Hours a meter may be heard without a telegram giving a value before METER_UNDECODED (docs/collectors.md). */
  'collector.undecodedHours': number;
  /** Months after an occupancy's last billed month before its personal data is removed (docs/personal-data.md). */
  'personalData.retentionMonths': number;
  /** Days after move-out that an occupant's link and letter code still open their pages (docs/occupant-access.md). */
  'occupantAccess.graceDays': number;
  /** Years between verifications per device type id, of devices on flats (docs/device-lifetime.md). */
  'lifetime.verificationYears.flat': Record<string, number>;
  /** … of devices on buildings (building-inlet meters). */
  'lifetime.verificationYears.building': Record<string, number>;
  /** A verification runs out at the end of the year its interval ends in. */
  'lifetime.endOfYear': boolean;
  /** An allocator's battery life in years per model, "default" for the rest. */
  'lifetime.batteryYears': Record<string, number>;
  /** A device a collector heard within this many days is read remotely. */
  'lifetime.remoteDays': number;
  /** The declaration window: from this day of each month (docs/declared-readings.md)… */
  'declarations.windowStartDay': number;
  /** … to the end of this day (past the month's last day: the last day). */
  'declarations.windowEndDay': number;
  /** A declared rise above this many times the device's largest monthly consumption of 12 months is doubtful… */
  'declarations.plausibleFactor': number;
  /** … and never below this rise, per device type id ("default" for the rest). */
  'declarations.plausibleFloor': Record<string, number>;
}

export type DqSettingKey = keyof DqSettings;

/** Why a new value for a setting is refused: an error code the web app translates, with its params. */
export interface SettingProblem {
  code:
    | 'settingNumber'
    | 'settingWholeNumber'
    | 'settingDaysPerType'
    | 'settingMonths'
    | 'settingNumbers'
    | 'settingYearsPerType'
    | 'settingBoolean'
    | 'settingYearsPerModel';
  params: { min?: string; max?: string };
}

/** Checks a new value for a setting; null when it is accepted. */
export function checkSetting(key: DqSettingKey, value: unknown): SettingProblem | null {
  const range = { params: {} } as const;
  const num = (min: number, max: number): SettingProblem | null =>
    typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max
      ? null
      : { code: 'settingNumber', params: { min: String(min), max: String(max) } };
  const int = (min: number, max: number): SettingProblem | null =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max
      ? null
      : { code: 'settingWholeNumber', params: { min: String(min), max: String(max) } };
  const perType = (): SettingProblem | null =>
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.entries(value).every(([k, v]) => /^\d{1,5}$/.test(k) && Number.isInteger(v) && v >= 1 && v <= 3650)
      ? null
      : { code: 'settingDaysPerType', params: { min: '1', max: '3650' } };
  const yearsPer = (keys: RegExp, code: 'settingYearsPerType' | 'settingYearsPerModel'): SettingProblem | null =>
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.entries(value).every(([k, v]) => keys.test(k) && Number.isInteger(v) && v >= 1 && v <= 50)
      ? null
      : { code, params: { min: '1', max: '50' } };
  switch (key) {
    case 'lifetime.verificationYears.flat':
    case 'lifetime.verificationYears.building':
      return yearsPer(/^\d{1,5}$/, 'settingYearsPerType');
    case 'lifetime.batteryYears':
      return value !== null && typeof value === 'object' && Object.hasOwn(value, 'default')
        ? yearsPer(/^\S.{0,63}$/s, 'settingYearsPerModel')
        : { code: 'settingYearsPerModel', params: { min: '1', max: '50' } };
    case 'lifetime.endOfYear':
      return typeof value === 'boolean' ? null : { code: 'settingBoolean', params: {} };
    case 'lifetime.remoteDays':
      return int(1, 3650);
    case 'monthEnd.toleranceDays':
      return num(0, 31);
    case 'monthEnd.keepMonths':
      return int(1, 120);
    case 'declarations.recalcMonths':
      return int(0, 24);
    case 'monthEnd.estimatedShareWarn':
    case 'negative.resetFraction':
      return num(0, 1);
    case 'heatingSeasonMonths':
      return Array.isArray(value) && value.every((m) => Number.isInteger(m) && m >= 1 && m <= 12)
        ? null
        : { code: 'settingMonths', ...range };
    case 'silent.days':
    case 'zero.days':
      return perType();
    case 'window.days':
      return int(1, 92);
    case 'highLow.high':
      return num(1, 1000);
    case 'highLow.low':
      return num(0, 1);
    case 'sentinel.values':
      return Array.isArray(value) && value.every((v) => typeof v === 'number' && Number.isFinite(v))
        ? null
        : { code: 'settingNumbers', ...range };
    case 'balance.tolerance':
      return num(0, 10);
    case 'schedule.validateMinutes':
      return int(1, 1440);
    case 'schedule.digestHour':
      return int(0, 23);
    case 'collector.silentMinutes':
      return int(1, 7 * 24 * 60);
    case 'collector.clockSkewMinutes':
      return int(1, 24 * 60);
    case 'collector.undecodedHours':
      return int(1, 7 * 24);
    case 'suspect.maxPerDay':
      return value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.entries(value).every(([k, v]) => /^\d{1,5}$/.test(k) && typeof v === 'number' && v > 0 && v <= 1e9)
        ? null
        : { code: 'settingNumbers', params: {} };
    case 'personalData.retentionMonths':
      return int(1, 600);
    case 'occupantAccess.graceDays':
      return int(0, 3650);
    case 'declarations.windowStartDay':
    case 'declarations.windowEndDay':
      return int(1, 31);
    case 'declarations.plausibleFactor':
      return num(1, 100);
    case 'declarations.plausibleFloor':
      return value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.hasOwn(value, 'default') &&
        Object.entries(value).every(
          ([k, v]) => /^(\d{1,5}|default)$/.test(k) && typeof v === 'number' && v > 0 && v <= 1e9,
        )
        ? null
        : { code: 'settingNumbers', params: {} };
  }
}

/** Every setting with its value. */
export async function loadSettings(db: Queryable): Promise<DqSettings> {
  const { rows } = await db.query<{ key: string; value: unknown }>('SELECT key, value FROM dq_setting');
  return Object.fromEntries(rows.map((r) => [r.key, r.value])) as unknown as DqSettings;
}
