import { type DataLoadProc, type ReadingRow, STALE_AFTER_DAYS } from '@rodmenys/contract';
import type { JsonKind } from '../../json-sql.js';
import { buildingIdOf } from '../../sql.js';

/**
 * Where a field's value comes from, which decides where it is written:
 * - `kept`: the master data alone (device, type, place, object, client), over
 *   `device d` with DEVICE_JOINS. Written once per device and kept by the text
 *   cache under the master-data version (device-text-cache.ts).
 * - `computed`: the readings, telegram status or the request (period, now),
 *   over the part statement's `f` (the device's readings, sql.ts) and
 *   `device_status ds`. Written by PostgreSQL on every request.
 */
export type FieldSource = 'kept' | 'computed';

export interface RowField {
  name: keyof ReadingRow;
  sql: string;
  kind: JsonKind;
  source: FieldSource;
  /** Only in the rows of these computations (absent: in every row). */
  procs?: readonly DataLoadProc[];
}

const kept = (name: keyof ReadingRow, sql: string, kind: JsonKind): RowField => ({ name, sql, kind, source: 'kept' });
const computed = (name: keyof ReadingRow, sql: string, kind: JsonKind, procs?: DataLoadProc[]): RowField => ({
  name,
  sql,
  kind,
  source: 'computed',
  ...(procs ? { procs } : {}),
});

/**
 * The flags of `readingFlags` (contract/src/readings.ts) as a JSON array text,
 * over `f`, with $7 = min(end of the period, now). Timestamps are compared at
 * whole seconds, as the API shows them; "4 days" is 96 hours, as there.
 */
const flagsSql = (staleAfterHours: number) => `concat('[', concat_ws(',',
    CASE WHEN f.till_ts IS NULL THEN '"NO_READING"' END,
    CASE WHEN date_trunc('second', f.till_ts)
              < least($7::timestamptz, date_trunc('second', f.removed_at)) - interval '${staleAfterHours} hours'
         THEN '"STALE"' END,
    CASE WHEN f.diff < 0 THEN '"NEGATIVE"' END), ']')`;

/**
 * Every field of a ReadingRow, in the contract's order: THE list that both
 * the kept text of a device (the `kept` fields: its head) and the part
 * statement's JSON (the `computed` fields: its tail) are derived from. The
 * kept fields must all come first, so that a row is its kept text followed
 * by the text PostgreSQL computes; `splitRow` checks it when the module loads.
 * The DeviceRow of the device lists is the same list up to LastSeen
 * (DEVICE_ROW_FIELDS). Values per computation: docs/domain.md §5.
 */
export const READING_ROW_FIELDS: readonly RowField[] = [
  kept('DeviceId', 'd.id', 'number'),
  kept('DeviceTypeId', 'd.device_type_id', 'number'),
  kept('LocationId', 'd.location_id', 'number'),
  kept('ParentLocationId', 'l.parent_id', 'number'),
  kept('Country', 'l.country', 'string'),
  kept('County', 'l.county', 'string'),
  kept('Region', 'l.region', 'string'),
  kept('City', 'l.city', 'string'),
  kept('Street', 'l.street', 'string'),
  kept('Building', 'l.building', 'string'),
  kept('Flat', 'l.flat', 'string'),
  kept('FlatOrder', 'l.flat_order', 'number'),
  kept('ObjectCode', 'o.code', 'string'),
  kept('ClientCode', 'c.code', 'string'),
  kept('DeviceCode', 'd.device_code', 'string'),
  kept('CounterCode', 'd.counter_code', 'string'),
  kept('DeviceDescription', 'd.description', 'string'),
  kept('DataLoadProc', 't.data_load_proc', 'plain'),
  kept('RatingFactor', 'd.rating_factor', 'numeric'),
  kept('InstalledAt', 'iso(d.installed_at)', 'plain'),
  kept('RemovedAt', 'iso(d.removed_at)', 'plain'),
  kept('ReplacedBy', 'd.replaced_by', 'number'),
  kept('Replaces', '(SELECT p.id FROM device p WHERE p.replaced_by = d.id LIMIT 1)', 'number'),
  // The latest telegram or reading, which every insert path keeps in device_status (migration 030).
  computed('LastSeen', 'iso(ds.last_seen)', 'plain'),
  computed('TimeFrom', 'iso(f.from_ts)', 'plain'),
  computed('TimeTill', 'iso(f.till_ts)', 'plain'),
  computed('TimePointFrom', 'iso(f.from_mts)', 'plain'),
  computed('TimePointTill', 'iso(f.till_mts)', 'plain'),
  computed('Difference', 'f.diff', 'numeric'),
  computed('FlatDifference', 'f.flat_diff', 'numeric'),
  computed('UnitsForHCAFrom', 'f.from_v', 'numeric', ['allocator']),
  computed('UnitsForHCATill', 'f.till_v', 'numeric', ['allocator']),
  computed('QradFrom', 'f.from_v * f.rating_factor', 'numeric', ['allocator']),
  computed('QradTill', 'f.till_v * f.rating_factor', 'numeric', ['allocator']),
  computed('DifferenceQrad', 'f.diff * f.rating_factor', 'numeric', ['allocator']),
  computed('FlatDifferenceQrad', 'f.flat_diff_q', 'numeric', ['allocator']),
  computed('EnergyFrom', 'f.from_v', 'numeric', ['energy']),
  computed('EnergyTill', 'f.till_v', 'numeric', ['energy']),
  computed('VolumeFrom', 'f.from_v', 'numeric', ['volume']),
  computed('VolumeTill', 'f.till_v', 'numeric', ['volume']),
  computed('Flags', flagsSql(STALE_AFTER_DAYS * 24), 'json'),
  computed('StatusFlags', `array_to_json(coalesce(ds.flags, '{}'))`, 'json'),
  computed('SetDate', 'ds.set_date::text', 'plain'),
  computed('SetValue', 'ds.set_value', 'numeric'),
];

/** The FROM of the kept fields (and of DeviceRow): after `device d`. `o`: the building's object. */
export const DEVICE_JOINS = `JOIN location l ON l.id = d.location_id
  JOIN device_type t ON t.id = d.device_type_id
  LEFT JOIN object o ON o.location_id = ${buildingIdOf('l')}
  LEFT JOIN client c ON c.id = l.client_id
  LEFT JOIN device_status ds ON ds.device_id = d.id`;

/** A row of one computation split in two: the kept head (the same for every computation) and the computed tail. */
export interface SplitRow {
  head: readonly RowField[];
  tail: readonly RowField[];
}

/** The fields of `proc`'s rows, split where the computed ones start; throws if a kept field follows a computed one. */
export function splitRow(fields: readonly RowField[], proc: DataLoadProc): SplitRow {
  const own = fields.filter((f) => !f.procs || f.procs.includes(proc));
  const at = own.findIndex((f) => f.source === 'computed');
  const head = at === -1 ? own : own.slice(0, at);
  const tail = at === -1 ? [] : own.slice(at);
  const late = tail.find((f) => f.source === 'kept');
  if (late) throw new Error(`kept field ${late.name} after the computed ones: the kept text must be the row's start`);
  if (head.some((f) => f.procs)) throw new Error('a kept field of one computation only: the kept text is per device');
  return { head, tail };
}

const PROCS: readonly DataLoadProc[] = ['allocator', 'energy', 'volume'];

/** Each computation's row, split (checked once, when the module loads). */
export const ROWS = Object.fromEntries(PROCS.map((proc) => [proc, splitRow(READING_ROW_FIELDS, proc)])) as Record<
  DataLoadProc,
  SplitRow
>;

/** The kept head of every row (the same for every computation). */
export const KEPT_FIELDS = ROWS.allocator.head;

/** The DeviceRow of the device lists: the ReadingRow's fields up to LastSeen, over `device d` with DEVICE_JOINS. */
export const DEVICE_ROW_FIELDS: readonly RowField[] = READING_ROW_FIELDS.slice(
  0,
  READING_ROW_FIELDS.findIndex((f) => f.name === 'LastSeen') + 1,
);
