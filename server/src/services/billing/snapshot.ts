import type { StatementRow } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { buildingRows } from './rows.js';

/**
 * Freezes a building's billing export at its publication, in the publishing transaction: the rows as they are
 * now, stamped with the version and its time, kept as the exact JSON text (billing_snapshot), so that the
 * version exports the same bytes every time. `flats` are the statements' rows being published.
 */
export async function freezeBillingExport(
  tx: Queryable,
  p: {
    publicationId: number;
    month: string;
    buildingId: number;
    version: number;
    publishedAt: string;
    flats: readonly StatementRow[];
  },
): Promise<void> {
  const rows = await buildingRows(tx, p.month, p.buildingId, p.flats, {
    Status: 'published',
    Version: p.version,
    PublishedAt: p.publishedAt,
  });
  await tx.query('INSERT INTO billing_snapshot (publication_id, rows, row_count) VALUES ($1, $2, $3)', [
    p.publicationId,
    JSON.stringify(rows),
    rows.length,
  ]);
}
