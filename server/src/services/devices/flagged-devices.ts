import type { ReadingRow } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import type { DayRange } from '../time.js';
import { type DevicesDataCaches, getDevicesDataJson } from './devices-data/index.js';
import { listTypesInSelection } from './types-in-selection.js';

export interface FlaggedDevicesInput {
  range: DayRange;
  /** The caller's scope (null = all). */
  scope: number[] | null;
  /** Subtrees to include (null = the whole scope). */
  parents: number[] | null;
  timeZone: string;
  now?: Date;
}

/**
 * The flagged devices of a selection, every device type at once: the device types present in the
 * period (listTypesInSelection), then GetDevicesData of each, keeping its flagged rows. The
 * readings arithmetic, the flags and the scoping are GetDevicesData's own, written once.
 */
export async function listFlaggedDevices(
  db: Queryable | Db,
  input: FlaggedDevicesInput,
  caches: DevicesDataCaches,
): Promise<ReadingRow[]> {
  const types = await listTypesInSelection(db, input);
  const out: ReadingRow[] = [];
  for (const type of types) {
    const { json } = await getDevicesDataJson(db, { ...input, deviceTypeId: type.Id }, caches);
    const rows = JSON.parse(json.toString()) as ReadingRow[];
    out.push(...rows.filter((row) => row.Flags.length > 0));
  }
  return out;
}
