/**
 * Records as named values: a record's name is its VIF's (energy_kwh, flow_temperature_c, …),
 * with what sets it apart from the current value appended: _max, _min, _error (function
 * field), _storageN, _tariffN, _subunitN, _vifeXX (a combinable VIFE). A second record of the
 * same name gets _2, _3 …  Unusable values become problems with their reason.
 */

import type { Problem } from '../types.js';
import type { MbusRecord, MbusRecords } from './records.js';

const FUNCTION_SUFFIX = { instantaneous: '', maximum: '_max', minimum: '_min', error: '_error' } as const;

export function recordName(r: MbusRecord): string {
  let name = r.vif.name + FUNCTION_SUFFIX[r.function];
  if (r.storage) name += `_storage${r.storage}`;
  if (r.tariff) name += `_tariff${r.tariff}`;
  if (r.subunit) name += `_subunit${r.subunit}`;
  for (const vife of r.otherVifes) name += `_vife${vife.toString(16).padStart(2, '0')}`;
  return name;
}

/** Whether a record is a current value: instantaneous, storage 0, tariff 0, subunit 0, nothing combined with it. */
export const isCurrent = (r: MbusRecord): boolean =>
  r.function === 'instantaneous' && r.storage === 0 && r.tariff === 0 && r.subunit === 0 && r.otherVifes.length === 0;

export interface NamedValues {
  values: Record<string, number | string>;
  problems: Problem[];
  /** The name each record got, in the order of `records`. */
  names: string[];
}

export function namedValues(parsed: MbusRecords): NamedValues {
  const values: Record<string, number | string> = {};
  const problems: Problem[] = [];
  const names: string[] = [];
  const seen = new Map<string, number>();
  for (const r of parsed.records) {
    const base = recordName(r);
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    const name = count === 1 ? base : `${base}_${count}`;
    names.push(name);
    if (r.value.kind === 'invalid') problems.push({ field: name, reason: r.value.reason, offset: r.offset });
    else if (r.value.kind !== 'none') values[name] = r.value.value;
  }
  if (parsed.manufacturerData) values.manufacturer_data = parsed.manufacturerData.hex;
  return { values, problems, names };
}
