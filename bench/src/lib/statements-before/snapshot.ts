// Frozen copy of server/src/services/billing/snapshot.ts at commit 56f68cb, for bench:statements only.
import type { StatementRow } from '@rodmenys/contract';
import type { Queryable } from '@rodmenys/server/db/db.js';
import { billingChanges, snapshotRows } from '@rodmenys/server/services/billing/export.js';
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

/**
 * Whether the building's export, frozen with its previous version, would differ if frozen now (a device's
 * month-end value or time moved without changing a statement figure): publishing then makes a new version.
 * A version frozen before the export existed has nothing to compare with: it does not differ.
 */
export async function billingExportDiffers(
  tx: Queryable,
  p: { previousPublicationId: number; month: string; buildingId: number; flats: readonly StatementRow[] },
): Promise<boolean> {
  const frozen = await snapshotRows(tx, p.previousPublicationId);
  if (!frozen) return false;
  const now = await buildingRows(tx, p.month, p.buildingId, p.flats, { Status: 'live' });
  return billingChanges(frozen, now).length > 0;
}
