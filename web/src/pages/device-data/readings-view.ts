import { READING_DECIMALS, type ReadingColumn, type ReadingFlag, type ReadingRow } from '@rodmenys/contract';
import type { ExportColumn } from '../../components/export';
import { formatDateTime } from '../../format';

/** A cell as the table shows it: numbers with 3 decimals, times as YYYY-MM-DD HH:mm. */
export function formatCell(column: ReadingColumn, row: ReadingRow): string {
  const value = row[column.key];
  if (value === null || value === undefined) return '';
  if (column.kind === 'number') return (value as number).toFixed(READING_DECIMALS);
  if (column.kind === 'datetime') return formatDateTime(value as string);
  if (column.kind === 'tags') return (value as string[]).join(', ');
  return String(value);
}

export type SortOrder = 'ascend' | 'descend';
export interface SortState {
  key: ReadingColumn['key'];
  order: SortOrder;
}

/**
 * The rows with a column's cells formatted once (lower-cased for filtering) the first
 * time that column is filtered, so that a keystroke is one pass of substring tests.
 */
export interface IndexedRows {
  rows: readonly ReadingRow[];
  columns: readonly ReadingColumn[];
  /** The shown text of every row in one column. */
  text: (column: ReadingColumn) => string[];
}

export function indexRows(
  rows: readonly ReadingRow[],
  columns: readonly ReadingColumn[],
  /** A cell's shown text (the meter status is spelled out by the page). */
  cellText: (column: ReadingColumn, row: ReadingRow) => string = formatCell,
): IndexedRows {
  const cache = new Map<ReadingColumn['key'], string[]>();
  const text = (column: ReadingColumn) => {
    let cells = cache.get(column.key);
    if (!cells) {
      cells = rows.map((row) => cellText(column, row).toLowerCase());
      cache.set(column.key, cells);
    }
    return cells;
  };
  return { rows, columns, text };
}

const collator = new Intl.Collator('lt', { numeric: true, sensitivity: 'base' });

function compare(kind: ReadingColumn['kind'], a: unknown, b: unknown): number {
  // Empty cells go last whatever the direction: applied after the direction below.
  if (kind === 'number') return (a as number) - (b as number);
  if (kind === 'datetime') return Date.parse(a as string) - Date.parse(b as string);
  return collator.compare(String(a), String(b));
}

/**
 * The rows of the detail table: only the rows passing every filter (a
 * case-insensitive substring of the shown text of that column), sorted by one
 * column with empty cells last. Filtering and sorting are local (docs/domain.md §10).
 */
export function viewRows(
  index: IndexedRows,
  filters: Partial<Record<ReadingColumn['key'], string>>,
  sort: SortState | null,
): ReadingRow[] {
  const active = index.columns
    .map((c) => [c, (filters[c.key] ?? '').trim().toLowerCase()] as const)
    .filter(([, needle]) => needle !== '')
    .map(([c, needle]) => [index.text(c), needle] as const);
  const out: ReadingRow[] = [];
  for (let r = 0; r < index.rows.length; r++) {
    if (active.every(([cells, needle]) => cells[r]!.includes(needle))) out.push(index.rows[r]!);
  }
  if (sort) {
    const column = index.columns.find((c) => c.key === sort.key);
    if (column) {
      const sign = sort.order === 'ascend' ? 1 : -1;
      out.sort((x, y) => {
        const a = x[column.key];
        const b = y[column.key];
        const aEmpty = a === null || a === undefined;
        const bEmpty = b === null || b === undefined;
        if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
        return sign * compare(column.kind, a, b);
      });
    }
  }
  return out;
}

/** The export's extra column: why a row is flagged, in the UI language (empty when it is not). */
export const FLAGS_KEY = 'Flags';

/** The visible columns as export columns: numbers stay numeric with a 0.000 format, times become date cells. */
export function exportColumns(
  columns: readonly ReadingColumn[],
  title: (column: ReadingColumn) => string,
  flagsTitle: string,
): ExportColumn[] {
  return [
    ...columns.map(
      (c): ExportColumn => ({
        key: c.key,
        title: title(c),
        type: c.kind === 'tags' ? 'text' : c.kind,
        ...(c.kind === 'number' ? { numFmt: `0.${'0'.repeat(READING_DECIMALS)}` } : {}),
      }),
    ),
    { key: FLAGS_KEY, title: flagsTitle, type: 'text', width: 30 },
  ];
}

/**
 * An export cell: the API value as it is, the meter status and the flags spelled out. The
 * export reads it row by row while posting the rows to its worker (exportFile).
 */
export function exportValue(
  flagText: (flag: ReadingFlag) => string,
  statusText: (row: ReadingRow) => string,
): (row: ReadingRow, column: ExportColumn) => unknown {
  return (row, column) => {
    if (column.key === FLAGS_KEY) return row.Flags.map(flagText).join('; ');
    // The meter status as the table shows it (never "OK" for a silent device).
    if (column.key === 'StatusFlags') return statusText(row);
    const value = row[column.key as ReadingColumn['key']];
    return Array.isArray(value) ? value.join(', ') : value;
  };
}
