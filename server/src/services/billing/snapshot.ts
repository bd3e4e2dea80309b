import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/db.js';
import { insertRows } from '../../db/insert-rows.js';
import type { PublicationContext, PublishedBuilding, UnchangedBuilding } from '../statements/followers.js';
import { billingChanges, parseSnapshotRows } from './export.js';
import { buildingsRows } from './rows.js';

/**
 * Freezes the buildings' billing export at their publication, in the publishing transaction: the rows as they
 * are now, stamped with the version and its time, kept as the exact JSON text (billing_snapshot), so that the
 * version exports the same bytes every time. `flats` are the statements' rows being published.
 */
export async function freezeBillingExport(
  tx: Queryable,
  published: readonly PublishedBuilding[],
  context: PublicationContext,
): Promise<void> {
  if (!published.length) return;
  const rows = await buildingsRows(
    tx,
    published[0]!.month,
    published.map((p) => ({
      buildingId: p.buildingId,
      flats: p.flats,
      stamp: { Status: 'published', Version: p.version, PublishedAt: p.publishedAt },
    })),
    context.splits,
  );
  const frozen = published.map((p) => rows.get(p.buildingId) ?? []);
  await insertRows(
    tx,
    'INSERT INTO billing_snapshot (publication_id, rows, row_count) VALUES',
    '(?::int, ?::text, ?::int)',
    published.map((p, i) => [p.publicationId, JSON.stringify(frozen[i]), frozen[i]!.length]),
  );
}

/**
 * The buildings whose export, frozen with their previous version, would differ if frozen now (a device's
 * month-end value or time moved without changing a statement figure): publishing then makes a new version.
 * The rows now are stamped as the frozen ones were, so the same rows are the same text: their SHA-256 is
 * compared with the frozen text's (kept by billing_snapshot's trigger), and the frozen text is read back only
 * for the buildings whose digests differ, then compared row by row (billingChanges). A version frozen before
 * the export existed has nothing to compare with: it does not differ.
 */
export async function billingExportDiffers(
  tx: Queryable,
  buildings: readonly UnchangedBuilding[],
  context: PublicationContext,
): Promise<ReadonlySet<number>> {
  const out = new Set<number>();
  if (!buildings.length) return out;
  const { rows: frozen } = await tx.query<{ id: number; version: number; at: string; digest: string | null }>(
    `SELECT p.id, p.version, iso(p.published_at) AS at, encode(s.rows_sha256, 'hex') AS digest FROM statement_publication p
       JOIN billing_snapshot s ON s.publication_id = p.id WHERE p.id = ANY ($1::int[])`,
    [buildings.map((b) => b.previousPublicationId)],
  );
  const byPublication = new Map(frozen.map((f) => [f.id, f]));
  const compared = buildings.filter((b) => byPublication.has(b.previousPublicationId));
  const now = await buildingsRows(
    tx,
    buildings[0]!.month,
    compared.map((b) => {
      const f = byPublication.get(b.previousPublicationId)!;
      return {
        buildingId: b.buildingId,
        flats: b.flats,
        stamp: { Status: 'published', Version: f.version, PublishedAt: f.at },
      };
    }),
    context.splits,
  );
  const other = compared.filter((b) => {
    const text = JSON.stringify(now.get(b.buildingId) ?? []);
    return createHash('sha256').update(text).digest('hex') !== byPublication.get(b.previousPublicationId)!.digest;
  });
  if (!other.length) return out;
  const { rows: texts } = await tx.query<{ id: number; rows: string }>(
    'SELECT publication_id AS id, rows FROM billing_snapshot WHERE publication_id = ANY ($1::int[])',
    [other.map((b) => b.previousPublicationId)],
  );
  const textOf = new Map(texts.map((t) => [t.id, t.rows]));
  for (const b of other) {
    const rows = now.get(b.buildingId) ?? [];
    if (billingChanges(parseSnapshotRows(textOf.get(b.previousPublicationId)!), rows).length > 0) out.add(b.buildingId);
  }
  return out;
}
