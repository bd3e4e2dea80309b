import type { Queryable } from '../../db/db.js';
import { insertRows } from '../../db/insert-rows.js';
import type { PublicationContext, PublishedBuilding, UnchangedBuilding } from '../statements/followers.js';
import { accountsAt } from './account.js';
import { deviceLinesDigests } from './device-lines.js';
import { billingChanges, parseSnapshotRows } from './export.js';
import { exportInputsDigest, sameAsFrozen } from './export-inputs.js';
import { assembleRows, frozenRowsText, loadRowsInputs } from './rows.js';

/**
 * Freezes the buildings' billing export at their publication, in the publishing transaction: the rows as they
 * are now, stamped with the version and its time, kept as JSON text without their null members (billing_snapshot,
 * frozenRowsText), so that the version exports the same rows every time; beside them the digest of what the version's snapshots do not
 * hold (export-inputs.ts). `flats` are the statements' rows being published.
 */
export async function freezeBillingExport(
  tx: Queryable,
  published: readonly PublishedBuilding[],
  context: PublicationContext,
): Promise<void> {
  if (!published.length) return;
  const month = published[0]!.month;
  const inputs = await loadRowsInputs(
    tx,
    month,
    published.map((p) => ({ buildingId: p.buildingId, flats: p.flats })),
    context.splits,
    true,
  );
  const digestInputs = { deviceDigests: inputs.deviceDigests!, accounts: inputs.accounts };
  await insertRows(
    tx,
    'INSERT INTO billing_snapshot (publication_id, rows, row_count, inputs) VALUES',
    '(?::int, ?::text, ?::int, ?::text)',
    published.map((p) => {
      const { text, count } = frozenRowsText(
        month,
        {
          buildingId: p.buildingId,
          flats: p.flats,
          stamp: { Status: 'published', Version: p.version, PublishedAt: p.publishedAt },
        },
        inputs,
      );
      return [p.publicationId, text, count, exportInputsDigest(month, p.buildingId, p.flats, digestInputs)];
    }),
  );
}

/**
 * The buildings whose export, frozen with their previous version, would differ if frozen now (a device's
 * month-end value or time moved without changing a statement figure): publishing then makes a new version.
 * A building whose statements' rows and splits are those of its previous version's snapshots (`context.previous`)
 * and whose other inputs have the digest kept with its export is made of the same inputs: the same rows. Any
 * other has its rows computed now, stamped as the frozen ones were, so the same rows are the same text and need
 * not be parsed; any other text is compared row by row (billingChanges). A version frozen before the export
 * existed has nothing to compare with: it does not differ.
 */
export async function billingExportDiffers(
  tx: Queryable,
  buildings: readonly UnchangedBuilding[],
  context: PublicationContext,
): Promise<ReadonlySet<number>> {
  const out = new Set<number>();
  if (!buildings.length) return out;
  const month = buildings[0]!.month;
  const { rows: frozen } = await tx.query<{ id: number; version: number; at: string; inputs: string | null }>(
    `SELECT p.id, p.version, iso(p.published_at) AS at, s.inputs FROM statement_publication p
       JOIN billing_snapshot s ON s.publication_id = p.id WHERE p.id = ANY ($1::int[])`,
    [buildings.map((b) => b.previousPublicationId)],
  );
  const byPublication = new Map(frozen.map((f) => [f.id, f]));
  const compared = buildings.filter((b) => byPublication.has(b.previousPublicationId));
  if (!compared.length) return out;
  // The digests' inputs first, without the device lines themselves (PostgreSQL digests them).
  const digestInputs = {
    deviceDigests: await deviceLinesDigests(
      tx,
      month,
      compared.map((b) => b.buildingId),
    ),
    accounts: await accountsAt(
      tx,
      compared.flatMap((b) => b.flats.map((f) => f.FlatId)),
      month,
    ),
  };
  const rowsNeeded = compared.filter((b) => {
    const f = byPublication.get(b.previousPublicationId)!;
    const snapshots = context.previous?.get(b.previousPublicationId);
    return !(
      f.inputs !== null &&
      snapshots &&
      f.inputs === exportInputsDigest(month, b.buildingId, b.flats, digestInputs) &&
      sameAsFrozen(b.flats, context.splits, snapshots)
    );
  });
  if (!rowsNeeded.length) return out;
  // Only the buildings whose inputs moved: their rows computed and compared as frozen.
  const inputs = await loadRowsInputs(
    tx,
    month,
    rowsNeeded.map((b) => ({ buildingId: b.buildingId, flats: b.flats })),
    context.splits,
  );
  const { rows: texts } = await tx.query<{ publication_id: number; rows: string }>(
    'SELECT publication_id, rows FROM billing_snapshot WHERE publication_id = ANY ($1::int[])',
    [rowsNeeded.map((b) => b.previousPublicationId)],
  );
  const textOf = new Map(texts.map((t) => [t.publication_id, t.rows]));
  for (const b of rowsNeeded) {
    const f = byPublication.get(b.previousPublicationId)!;
    const building = {
      buildingId: b.buildingId,
      flats: b.flats,
      stamp: { Status: 'published' as const, Version: f.version, PublishedAt: f.at },
    };
    const text = textOf.get(b.previousPublicationId)!;
    if (frozenRowsText(month, building, inputs).text === text) continue;
    // Another text (other rows, or rows frozen whole before their null members were left out): row by row.
    if (billingChanges(parseSnapshotRows(text), assembleRows(month, building, inputs)).length > 0)
      out.add(b.buildingId);
  }
  return out;
}
