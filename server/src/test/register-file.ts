import * as contract from '@rodmenys/contract';
import { type ImportReport, REGISTER_COLUMNS, type RegisterColumn } from '@rodmenys/contract';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { inject } from './app.js';

/* The device register as a file a provider would upload (docs/master-data.md): rows by column key. */

export type RegisterRow = Partial<Record<RegisterColumn, string>>;

const quote = (s: string, sep: string) => (s.includes(sep) || s.includes('"') ? `"${s.replace(/"/g, '""')}"` : s);

/** A CSV with the given language's headers (English by default), `;` separated, with a BOM. */
export function registerCsv(
  rows: RegisterRow[],
  options: { lang?: 'lt' | 'en'; sep?: string; bom?: boolean } = {},
): Buffer {
  const sep = options.sep ?? ';';
  const lines = [REGISTER_COLUMNS.map((c) => c[options.lang ?? 'en']).join(sep)];
  for (const r of rows) lines.push(REGISTER_COLUMNS.map((c) => quote(r[c.key] ?? '', sep)).join(sep));
  return Buffer.from(`${options.bom === false ? '' : '\uFEFF'}${lines.join('\r\n')}\r\n`, 'utf8');
}

/** The same rows as an .xlsx: dates as dates, numbers as numbers, empty cells empty. */
export async function registerXlsx(rows: RegisterRow[], lang: 'lt' | 'en' = 'lt'): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Registras');
  ws.addRow(REGISTER_COLUMNS.map((c) => c[lang]));
  for (const r of rows) {
    ws.addRow(
      REGISTER_COLUMNS.map((c) => {
        const v = r[c.key];
        if (v === undefined || v === '') return null;
        if (c.key === 'InstalledAt') return new Date(`${v}T00:00:00Z`);
        if (c.key === 'FlatOrder') return Number(v);
        if (c.key === 'FlatArea') return Number(v.replace(',', '.'));
        if (c.key === 'RatingFactor') return Number(v.replace(',', '.'));
        return v;
      }),
    );
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Sends a register file to the preview or the apply endpoint as `token`. */
export const sendRegister = (
  app: FastifyInstance,
  token: string,
  mode: 'preview' | 'apply',
  file: Buffer,
  contentType = 'text/csv',
) =>
  inject(app, mode === 'preview' ? contract.previewRegisterImport : contract.applyRegisterImport, {
    token,
    payload: file,
    headers: { 'content-type': contentType },
  });

/** The import's report; fails the test unless the answer is 200. */
export async function registerReport(
  app: FastifyInstance,
  token: string,
  mode: 'preview' | 'apply',
  file: Buffer,
  contentType?: string,
): Promise<ImportReport> {
  const res = await sendRegister(app, token, mode, file, contentType);
  if (res.status !== 200) throw new Error(`register ${mode}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as ImportReport;
}
