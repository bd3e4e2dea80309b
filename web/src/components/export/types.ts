/** Cell types of an export column: numbers stay numeric, dates become date cells. */
export type ExportCellType = 'text' | 'number' | 'date' | 'datetime';

export interface ExportColumn {
  key: string;
  /** Header text, already in the UI language. */
  title: string;
  type: ExportCellType;
  /** Excel number format, e.g. '0.000'; dates default to yyyy-mm-dd (hh:mm). */
  numFmt?: string;
  /** Column width in characters; guessed from the title and type when absent. */
  width?: number;
}

export type ExportFormat = 'xlsx' | 'csv';

export interface ExportInput {
  sheetName: string;
  columns: ExportColumn[];
  rows: readonly Record<string, unknown>[];
}

export const MIME: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv;charset=utf-8',
};
