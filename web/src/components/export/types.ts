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

/** What a screen exports: its rows as they are, read cell by cell while they travel to the worker. */
export interface ExportInput<R = Record<string, unknown>> {
  sheetName: string;
  columns: ExportColumn[];
  rows: readonly R[];
  /** A cell's value; by default the row's field named by the column key. */
  value?: (row: R, column: ExportColumn) => unknown;
}

/** CSV flavour: Lithuanian Excel expects `;` between fields and a decimal comma. */
export interface CsvOptions {
  separator: ',' | ';';
  decimalComma: boolean;
}

/** The file's content as the worker gets it: one array of cell values per row, in column order. */
export interface ExportTable {
  sheetName: string;
  columns: ExportColumn[];
  rows: readonly (readonly unknown[])[];
}

export const MIME: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv;charset=utf-8',
};
