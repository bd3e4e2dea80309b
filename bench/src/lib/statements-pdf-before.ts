// A building's statements PDF as drawn before the occupants' parts were batched (docs/statements.md
// "PDF"): the flats with a move in the month looked up, then each one's per-occupant statements, flat
// by flat (a check of the flat, its snapshot, its figures and its split: several queries per moved
// flat). Kept only so `npm run bench:statements-pdf -w bench` can show before and after side by side
// and check that both draw the same text. Not used by the server.
import type { Readable } from 'node:stream';
import type { OccupancyStatement } from '@rodmenys/contract';
import type { Queryable } from '@rodmenys/server/db/db.js';
import { occupancyStatements } from '@rodmenys/server/services/statements/occupancy-figures.js';
import { renderBuildingPdf } from '@rodmenys/server/services/statements/pdf.js';
import type { Lang } from '@rodmenys/server/services/statements/pdf-texts.js';
import { buildingFlatIds } from '@rodmenys/server/services/statements/selection.js';
import { loadStatements } from '@rodmenys/server/services/statements/snapshots.js';

/** One building's PDF of month M (every flat of it, no scope), the occupants looked up flat by flat. */
export async function buildingPdfBefore(db: Queryable, month: string, building: number, lang: Lang): Promise<Readable> {
  const flatIds = await buildingFlatIds(db, building, null, [building]);
  const statements = await loadStatements(db, month, { scope: null, flatIds });
  const { rows } = await db.query<{ id: number }>(
    `SELECT DISTINCT location_id AS id FROM occupancy WHERE location_id = ANY ($1::int[])
        AND move_in > $2::date AND move_in < ($2::date + interval '1 month')::date`,
    [flatIds, `${month}-01`],
  );
  const occupants = new Map<number, OccupancyStatement[]>();
  for (const r of rows) occupants.set(r.id, (await occupancyStatements(db, month, r.id, null)).Occupancies);
  return renderBuildingPdf(statements, lang, occupants);
}
