import { type Language, REGISTER_COLUMNS, type RegisterColumn } from '@rodmenys/contract';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { toCsv } from '../csv.js';

/** A cell as read: text from a CSV, or what an .xlsx cell holds. */
export type Cell = string | number | Date | boolean | null;

export interface RegisterRow {
  /** 1-based line (or sheet row) in the file. */
  line: number;
  cells: Partial<Record<RegisterColumn, Cell>>;
}

export interface RegisterFile {
  /** The columns the file has a header for. */
  columns: Set<RegisterColumn>;
  rows: RegisterRow[];
}

export class RegisterFileError extends Error {}

const normalise = (s: string) =>
  s
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/** Header text (either language, or the key) → column. */
const HEADER_INDEX = new Map<string, RegisterColumn>(
  REGISTER_COLUMNS.flatMap((c) => [c.key, c.en, c.lt].map((h) => [normalise(h), c.key] as const)),
);

/** Reads a register: .xlsx (recognised by its zip signature) or CSV. Throws RegisterFileError when unreadable. */
export async function readRegisterFile(data: Buffer): Promise<RegisterFile> {
  const table = isZip(data) ? await readXlsx(data) : readCsv(data);
  const headerAt = table.findIndex((r) => r.cells.some((c) => c !== null && c !== ''));
  if (headerAt < 0) return { columns: new Set(), rows: [] };
  const header = table[headerAt]!.cells.map((c) =>
    typeof c === 'string' ? HEADER_INDEX.get(normalise(c)) : undefined,
  );
  const columns = new Set(header.filter((c): c is RegisterColumn => c !== undefined));
  const rows: RegisterRow[] = [];
  for (const { line, cells } of table.slice(headerAt + 1)) {
    if (!cells.some((c) => c !== null && c !== '')) continue;
    const row: RegisterRow = { line, cells: {} };
    header.forEach((key, i) => {
      if (key !== undefined && row.cells[key] === undefined) row.cells[key] = cells[i] ?? null;
    });
    rows.push(row);
  }
  return { columns, rows };
}

const isZip = (data: Buffer) => data.length >= 4 && data.readUInt32LE(0) === 0x04034b50;

function readCsv(data: Buffer): { line: number; cells: Cell[] }[] {
  const text = data.toString('utf8').replace(/^\uFEFF/, '');
  if (text.includes('\uFFFD')) throw new RegisterFileError('The CSV file is not UTF-8 text');
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = count(firstLine, ';') >= count(firstLine, ',') ? ';' : ',';
  try {
    const records = parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: false,
      info: true,
    });
    // info.lines is where a record ends; a row is named by the line it starts on (a quoted cell may
    // hold line breaks: Alt+Enter in a spreadsheet), the line after the record before it.
    let end = 0;
    return (records as unknown as { record: string[]; info: { lines: number } }[]).map(({ record, info }) => {
      const line = end + 1;
      end = info.lines;
      return { line, cells: record };
    });
  } catch (err) {
    throw new RegisterFileError(`The CSV file cannot be read: ${(err as Error).message}`);
  }
}

const count = (s: string, c: string) => s.split(c).length - 1;

async function readXlsx(data: Buffer): Promise<{ line: number; cells: Cell[] }[]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch (err) {
    throw new RegisterFileError(`The .xlsx file cannot be read: ${(err as Error).message}`);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const out: { line: number; cells: Cell[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const cells: Cell[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = cellValue(cell.value);
    });
    out.push({ line, cells });
  });
  return out;
}

/** Rich text, formulas and hyperlinks reduced to what they show. */
function cellValue(v: ExcelJS.CellValue): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  if ('richText' in v) return v.richText.map((t) => t.text).join('');
  if ('result' in v) return cellValue((v.result ?? null) as ExcelJS.CellValue);
  if ('text' in v) return cellValue(v.text as ExcelJS.CellValue);
  if ('error' in v) return null;
  return null;
}

/** An empty register with the headers in one language: an .xlsx workbook or a `;` CSV. */
export async function registerTemplate(lang: Language, format: 'xlsx' | 'csv'): Promise<Buffer> {
  const headers = REGISTER_COLUMNS.map((c) => c[lang]);
  if (format === 'csv') return toCsv([headers]);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(lang === 'lt' ? 'Registras' : 'Register');
  sheet.addRow(headers).font = { bold: true };
  sheet.columns.forEach((c) => {
    c.width = 18;
  });
  // Codes stay text (leading zeros), the date column is a date.
  for (const key of ['ObjectCode', 'ClientCode', 'DeviceCode', 'CounterCode'] as const) {
    sheet.getColumn(REGISTER_COLUMNS.findIndex((c) => c.key === key) + 1).numFmt = '@';
  }
  sheet.getColumn(REGISTER_COLUMNS.findIndex((c) => c.key === 'InstalledAt') + 1).numFmt = 'yyyy-mm-dd';
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
