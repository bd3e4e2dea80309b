import type { Queryable } from '@rodmenys/server/db/db.js';
import { insertRows } from '@rodmenys/server/db/insert-rows.js';
import { PUBLICATION_FOLLOWERS } from '@rodmenys/server/publication.js';
import { billingChanges, parseSnapshotRows } from '@rodmenys/server/services/billing/export.js';
import { buildingsRows } from '@rodmenys/server/services/billing/rows.js';
import type {
  PublicationContext,
  PublicationFollower,
  PublishedBuilding,
  UnchangedBuilding,
} from '@rodmenys/server/services/statements/followers.js';

/*
 * bench:publish-profile's third side (docs/benchmarks.md, "Publishing: the export's inputs"): the billing
 * export's follower as it was at commit 30f9f05, before its inputs' digest: frozen without it, and compared
 * again by computing every building's rows and comparing their text. The rest of publishing is today's.
 */
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
 * The rows now are stamped as the frozen ones were, so the same rows are the same text and need not be
 * parsed; any other text is compared row by row (billingChanges). A version frozen before the export existed
 * has nothing to compare with: it does not differ.
 */
export async function billingExportDiffers(
  tx: Queryable,
  buildings: readonly UnchangedBuilding[],
  context: PublicationContext,
): Promise<ReadonlySet<number>> {
  const out = new Set<number>();
  if (!buildings.length) return out;
  const { rows: frozen } = await tx.query<{ id: number; version: number; at: string; rows: string }>(
    `SELECT p.id, p.version, iso(p.published_at) AS at, s.rows FROM statement_publication p
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
  for (const b of compared) {
    const f = byPublication.get(b.previousPublicationId)!;
    const rows = now.get(b.buildingId) ?? [];
    if (JSON.stringify(rows) === f.rows) continue;
    if (billingChanges(parseSnapshotRows(f.rows), rows).length > 0) out.add(b.buildingId);
  }
  return out;
}

/** Today's followers with the billing export's follower of 30f9f05. */
export const FOLLOWERS_30F9F05: readonly PublicationFollower[] = PUBLICATION_FOLLOWERS.map((f) =>
  f.differs ? { ...f, buildings: freezeBillingExport, differs: billingExportDiffers } : f,
);
