import type { StatementRow } from '@rodmenys/contract';
import type { TFunction } from 'i18next';
import { buildingOf } from './statement-format';

/** Characters no file system takes in a name, and runs of spaces. */
const safe = (name: string) =>
  name
    .replace(/[\\/:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** One flat's statement: "Ataskaita 2026-10, Architektų g. 3, butas 1" (no extension). */
export const flatFileName = (t: TFunction, month: string, row: StatementRow) =>
  safe(t('statements.files.flat', { month, building: buildingOf(row), flat: row.Flat }));

/**
 * The statements of the shown flats, named for what they hold: the month, the building (or how
 * many buildings), and "marked flats" when a marker filter narrowed them (no extension).
 */
export function selectionFileName(t: TFunction, month: string, rows: readonly StatementRow[], marked: boolean) {
  const buildings = [...new Map(rows.map((r) => [r.BuildingId, r])).values()];
  const where =
    buildings.length === 1 && buildings[0]
      ? buildingOf(buildings[0])
      : t('statements.files.buildings', { count: buildings.length });
  const name = t('statements.files.selection', { month, where });
  return safe(
    marked ? `${name}, ${t('statements.files.marked', { count: new Set(rows.map((r) => r.FlatId)).size })}` : name,
  );
}

/** The extension of a downloaded file by its content type: several buildings' PDFs come as a zip. */
export const extensionOf = (blob: Blob) => (blob.type.includes('zip') ? 'zip' : 'pdf');
