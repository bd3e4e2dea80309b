import type { Queryable } from './db.js';

/** Rows per INSERT: 4 parameters each stay far below PostgreSQL's 65,535 parameters. */
const CHUNK = 1000;

/**
 * Inserts `rows` with `insert` (`INSERT INTO t (a, b) VALUES`) and one `tuple` per row, its `?`s
 * numbered as parameters (`(?::int, ?::jsonb)`), a thousand rows per statement. Each value is a
 * parameter of its own: large texts (a snapshot's JSON) are neither escaped into an array literal
 * nor parsed out of one, which cost several times the rows' own parsing (docs/statements.md,
 * "Publishing").
 */
export async function insertRows(db: Queryable, insert: string, tuple: string, rows: readonly unknown[][]) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    let n = 0;
    const values = chunk.map(() => tuple.replace(/\?/g, () => `$${++n}`)).join(', ');
    await db.query(`${insert} ${values}`, chunk.flat());
  }
}
