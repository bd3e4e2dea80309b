import type { Queryable } from '../../db/db.js';

/*
 * Figures carrying a late declaration (docs/declared-readings.md, "Late declarations"): a declared
 * meter's month end of M that is a declaration of an earlier month (its reading before M) carries the
 * correction against the estimate kept there, and marks M's figure of the flat's kind.
 */

/** Per flat, the device types and months of the late declarations carried into M. */
export class LateDeclarations {
  private readonly byFlat = new Map<number, { typeId: number; month: string }[]>();

  constructor(lines: readonly { flat_id: number; type_id: number; month: string }[]) {
    for (const l of lines) {
      const list = this.byFlat.get(l.flat_id) ?? [];
      list.push({ typeId: l.type_id, month: l.month });
      this.byFlat.set(l.flat_id, list);
    }
  }

  /** The months (YYYY-MM, each once, in order) of a flat's late declarations of some device types. */
  of(flatId: number, types: readonly number[]): string[] {
    const lines = this.byFlat.get(flatId);
    if (!lines) return [];
    const months = lines.filter((l) => types.includes(l.typeId)).map((l) => l.month);
    return [...new Set(months)].sort();
  }
}

/** The late declarations carried into `month` (YYYY-MM) of the devices on `flatIds`. */
export async function loadLateDeclarations(
  db: Queryable,
  flatIds: readonly number[],
  month: string,
): Promise<LateDeclarations> {
  if (!flatIds.length) return new LateDeclarations([]);
  const { rows } = await db.query<{ flat_id: number; type_id: number; month: string }>(
    `SELECT d.location_id AS flat_id, d.device_type_id AS type_id, to_char(me.reading_ts, 'YYYY-MM') AS month
       FROM device d JOIN month_end me ON me.device_id = d.id
      WHERE d.location_id = ANY ($1::int[]) AND me.month = $2::date AND me.source = 'declared'
        AND me.reading_ts < $2::date::timestamp::timestamptz`,
    [flatIds, `${month}-01`],
  );
  return new LateDeclarations(rows);
}
