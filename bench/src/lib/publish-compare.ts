import type { Db, Tx } from '@rodmenys/server/db/db.js';
import { parseSnapshotRows } from '@rodmenys/server/services/billing/export.js';

/*
 * bench:statements' publishing compared (docs/benchmarks.md): a publication run inside a transaction that is
 * rolled back, so the path before and the path now start from the same database, and what each wrote read
 * back before the rollback: every version, snapshot (statement and occupants' split), frozen export and audit
 * entry of the month, the publication's time replaced by a mark (the two runs publish at different times).
 */

/** What a publication wrote, as text per row, in a stable order. */
export interface Written {
  answer: string;
  rows: string[];
}

/** A Db over one transaction's connection (publishing opens its own transaction: here it runs inside this one). */
const asDb = (db: Db, tx: Tx): Db => ({ ...db, ...tx, transaction: (fn) => fn(tx) });

/** Runs `publish` (after `prepare`, both rolled back) and answers its answer and what it wrote. */
export async function publishRolledBack(
  db: Db,
  month: string,
  publish: (db: Db) => Promise<unknown>,
  prepare?: (tx: Tx) => Promise<void>,
): Promise<{ ms: number; written: Written }> {
  let out: { ms: number; written: Written } | undefined;
  await db.transaction(
    async (tx) => {
      await prepare?.(tx);
      const { rows: mark } = await tx.query<{ n: number }>('SELECT coalesce(max(id), 0) AS n FROM audit_log');
      const start = performance.now();
      const answer = await publish(asDb(db, tx));
      const ms = performance.now() - start;
      out = { ms, written: await writtenSince(tx, month, mark[0]!.n, answer) };
    },
    { rollback: true },
  );
  return out!;
}

async function writtenSince(tx: Tx, month: string, auditFrom: number, answer: unknown): Promise<Written> {
  const { rows: pubs } = await tx.query<{ id: number; building_id: number; version: number; at: string }>(
    `SELECT id, building_id, version, iso(published_at) AS at FROM statement_publication WHERE month = $1::date`,
    [`${month}-01`],
  );
  const at = new Map(pubs.map((p) => [p.id, p.at]));
  const mark = (text: string, id: number) => text.replaceAll(at.get(id) ?? '\u0000', '<published>');
  const { rows: snaps } = await tx.query<{ id: number; b: number; v: number; f: number; s: string; o: string | null }>(
    `SELECT p.id, p.building_id AS b, p.version AS v, s.flat_id AS f, s.statement::text AS s, s.occupancies::text AS o
       FROM statement_snapshot s JOIN statement_publication p ON p.id = s.publication_id WHERE p.month = $1::date`,
    [`${month}-01`],
  );
  const { rows: exports } = await tx.query<{ id: number; b: number; v: number; rows: string }>(
    `SELECT p.id, p.building_id AS b, p.version AS v, s.rows FROM billing_snapshot s
       JOIN statement_publication p ON p.id = s.publication_id WHERE p.month = $1::date`,
    [`${month}-01`],
  );
  const { rows: audit } = await tx.query<{ e: string; a: string }>(
    `SELECT entity_id AS e, after::text AS a FROM audit_log WHERE id > $1 AND kind = 'statement.publish'`,
    [auditFrom],
  );
  const rows = [
    ...pubs.map((p) => `publication ${p.building_id} v${p.version}`),
    ...snaps.map(
      (s) => `snapshot ${s.b} v${s.v} flat ${s.f}: ${mark(s.s, s.id)} | ${s.o === null ? 'null' : mark(s.o, s.id)}`,
    ),
    // Each frozen row as the export reads it back (parseSnapshotRows: rows frozen without their null members
    // since docs/benchmarks.md "Publishing: fifth pass" get them back), every member compared.
    ...exports.flatMap((x) =>
      parseSnapshotRows(mark(x.rows, x.id)).map((r, i) => `export ${x.b} v${x.v} row ${i}: ${JSON.stringify(r)}`),
    ),
    ...audit.map((a) => `audit ${a.e}: ${a.a}`),
  ].sort();
  return { answer: JSON.stringify(answer), rows };
}

/** The differences between two publications' writings (at most `limit` named), empty when the same. */
export function writtenDifferences(before: Written, after: Written, limit = 5): string[] {
  const out: string[] = [];
  if (before.answer !== after.answer)
    out.push(`answer: ${before.answer.slice(0, 200)} / ${after.answer.slice(0, 200)}`);
  if (before.rows.length !== after.rows.length)
    out.push(`${before.rows.length} rows written before, ${after.rows.length} now`);
  const now = new Set(after.rows);
  for (const r of before.rows) if (!now.has(r) && out.length < limit) out.push(`before only: ${r.slice(0, 300)}`);
  const then = new Set(before.rows);
  for (const r of after.rows) if (!then.has(r) && out.length < limit) out.push(`now only: ${r.slice(0, 300)}`);
  return out;
}
