import type { FlatOccupancyStatement, StatementRow } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { figuresOccupancies, loadSplitInputs, type SplitInputs } from './occupancy-figures.js';
import { statementRows } from './snapshots.js';

/**
 * The Statements page's figures (GetStatementFigures): the selection's rows as shown and their occupants'
 * parts. On the pool the occupancies and devices the parts need are read as soon as the selection's flats
 * are known, side by side with the figures, not after them (docs/statements.md, "Figures of many flats").
 */
export async function statementFigures(
  db: Queryable,
  month: string,
  sel: { scope: number[] | null; parents: number[] | null },
): Promise<{ rows: StatementRow[]; occupancies: FlatOccupancyStatement[] }> {
  let inputs: Promise<SplitInputs> | undefined;
  const rows = await statementRows(db, month, sel, (flatIds) => {
    if (!('transaction' in db)) return;
    inputs = loadSplitInputs(db, month, flatIds, true);
    // Awaited by figuresOccupancies below; a failure of the rows first must not leave it unhandled.
    inputs.catch(() => undefined);
  });
  return { rows, occupancies: await figuresOccupancies(db, month, rows, inputs) };
}
