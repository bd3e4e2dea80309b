import type { DataLoadProc } from '@rodmenys/contract';

/**
 * Where a wmbusmeters telegram keeps what Rodmenys stores, by the value kind of
 * the device's type (its data_load_proc). Field names differ per driver: each
 * list is tried in order and the first usable field wins. To take in a new
 * driver, add its field names here; nothing else changes.
 */
export interface KindFields {
  /** The meter's current cumulative value: units, kWh or m3. */
  value: readonly string[];
  /** Set-day (billing date) pairs: [date field, value field]. */
  setDay: readonly (readonly [date: string, value: string])[];
}

export const FIELDS: Record<DataLoadProc, KindFields> = {
  allocator: {
    value: ['current_consumption_hca', 'current_hca', 'consumption_hca'],
    setDay: [
      ['set_date', 'consumption_at_set_date_hca'],
      ['target_date', 'target_hca'],
      ['previous_date', 'previous_hca'],
    ],
  },
  energy: {
    value: ['total_energy_consumption_kwh', 'total_kwh', 'total_heating_kwh', 'heat_kwh', 'total_energy_kwh'],
    setDay: [
      ['target_date', 'target_energy_kwh'],
      ['target_date', 'target_kwh'],
      ['set_date', 'energy_at_set_date_kwh'],
      ['due_date', 'due_energy_consumption_kwh'],
    ],
  },
  volume: {
    value: ['total_m3'],
    setDay: [
      ['target_date', 'target_m3'],
      ['target_datetime', 'target_m3'],
      ['prev_date', 'target_m3'],
      ['last_month_measure_date', 'last_month_total_m3'],
    ],
  },
};

/**
 * Values the meter stored for past dates (monthly history, last year's value),
 * kept as device memory for month-end values (docs/data-quality.md): [date field,
 * value field] pairs; `{n}` stands for 1, 2, 3… and must be the same in both.
 */
export const HISTORY_FIELDS: Record<DataLoadProc, readonly (readonly [date: string, value: string])[]> = {
  allocator: [
    ['set_date_{n}', 'consumption_at_set_date_{n}_hca'],
    ['consumption_at_set_date_{n}', 'consumption_at_set_date_{n}_hca'],
  ],
  energy: [
    ['prev_{n}_month_date', 'prev_{n}_month_kwh'],
    ['last_year_date', 'last_year_kwh'],
  ],
  volume: [['last_month_measure_date', 'last_month_total_m3']],
};

/**
 * Monthly history without dates: `prev_{n}_…` is the value at the end of the month
 * n months before the meter's own date (bfw240radio sends 18: on 2021-03-01,
 * `prev_01_hca` is the value at the end of February). Kept as device memory on
 * that month's last day, like the dated history above.
 */
export const RELATIVE_HISTORY_FIELDS: Record<DataLoadProc, readonly string[]> = {
  allocator: ['prev_{n}_hca'],
  energy: [],
  volume: [],
};

/** The meter's own clock: it becomes the reading's time point. */
export const METER_CLOCK_FIELDS = ['meter_datetime', 'device_datetime', 'meter_date', 'device_date', 'current_date'];

/** Fields with status flags: "OK", or flags separated by spaces or commas (POWER_LOW, TAMPER, DRY, LEAK…). */
export const STATUS_FIELDS = ['status', 'current_status', 'current_alarms', 'error_flags'];
/** Status words that mean "nothing to report". */
export const NO_FLAG = new Set(['', 'OK', 'NO_ALARM', 'NONE']);

/** Numbers that mean "no value" (the M-Bus int32 minimum). */
export const SENTINEL_NUMBERS = new Set(['-2147483648']);
/** Dates from this year on mean "no date" (M-Bus fills unset dates with 2127-…). */
export const NO_DATE_FROM_YEAR = 2127;
