// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEVICE_TYPE, type DueRow, type RemoteBuilding } from '@rodmenys/contract';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { buildCsv, CSV_COMMA, CSV_SEMICOLON } from '../../components/export/build-file';
import type { CsvOptions, ExportColumn, ExportTable } from '../../components/export/types';
import { buildXlsx } from '../../components/export/xlsx';
import en from '../../i18n/en.json';
import lt from '../../i18n/lt.json';
import { dueCell, dueColumns, registerCell, registerColumns } from './lifetime-exports';

/*
 * The Devices page's exports opened in LibreOffice (docs/device-lifetime.md): the due list as XLSX
 * and CSV, the remote-reading register as XLSX, in both languages: the same rows as the list the
 * server answers, and a serial or an address starting with = + - @ stays text, never a formula.
 */

const SOFFICE = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find((p) => existsSync(p));

/** The UI's `t` over a language's texts (keys with dots, no interpolation needed here). */
const tOf = (dict: unknown) =>
  ((key: string) => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], dict)) as TFunction;

const TYPES: Record<number, string> = {
  [DEVICE_TYPE.allocator]: 'allocator',
  [DEVICE_TYPE.coldWaterMeter]: 'cold water',
};

/** A due list as the server answers it, its texts derived from hostile ones a register import could bring. */
const HOSTILE = ['=HYPERLINK("http://example.com/x";"Click")', '+370-600-00', '-1+2', '@SUM(1;2)'];
const DUE: DueRow[] = HOSTILE.map((text, i) => ({
  DeviceId: 100 + i,
  BuildingId: 7,
  Address: i === 1 ? text : `Kaunas, Ąžuolų g. ${i + 1}`,
  Flat: String(i + 1),
  FlatOrder: i + 1,
  DeviceTypeId: i % 2 ? DEVICE_TYPE.allocator : DEVICE_TYPE.coldWaterMeter,
  DeviceCode: i === 1 ? `SN-${i}` : text,
  Model: null,
  DueDate: `2026-1${i % 3}-0${i + 1}`,
  Reason: i % 2 ? 'battery' : 'verification',
  Bucket: (['overdue', 'thisMonth', 'soon', 'overdue'] as const)[i]!,
}));
const REGISTER = HOSTILE.map(
  (text, i) =>
    ({
      BuildingId: 10 + i,
      Address: i === 3 ? `Vilnius, ${text}` : text,
      Devices: 10 + i,
      Remote: i,
      RemotePercent: Math.round((1000 * i) / (10 + i)) / 10,
      LateNotRemote: Array.from({ length: i }, () => ({})),
      Exception: i === 0 ? null : { Note: text },
    }) as unknown as RemoteBuilding,
);

/** The sheet LibreOffice makes of a file: its formulas and each row's cell texts, read from flat OpenDocument. */
function openInLibreOffice(
  bytes: Uint8Array | string,
  name: string,
  csv?: CsvOptions,
): { formulas: string[]; rows: string[][] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'lifetime-export-'));
  try {
    writeFileSync(path.join(dir, name), bytes);
    execFileSync(
      SOFFICE!,
      [
        `-env:UserInstallation=file://${dir}/profile`,
        '--headless',
        ...(csv ? [`--infilter=CSV:${csv.separator.charCodeAt(0)},34,76,1,,${csv.decimalComma ? 1063 : 1033}`] : []),
        '--convert-to',
        'fods',
        '--outdir',
        dir,
        path.join(dir, name),
      ],
      { timeout: 90_000, stdio: 'pipe' },
    );
    const xml = readFileSync(path.join(dir, name.replace(/\.\w+$/, '.fods')), 'utf8');
    const decode = (s: string) =>
      s
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    const rows = [...xml.matchAll(/<table:table-row[^>]*>(.*?)<\/table:table-row>/gs)]
      .map((r) => [...r[1]!.matchAll(/<text:p>(.*?)<\/text:p>/gs)].map((c) => decode(c[1]!.replace(/<[^>]+>/g, ''))))
      .filter((r) => r.length);
    return { formulas: [...xml.matchAll(/table:formula="([^"]*)"/g)].map((m) => decode(m[1]!)), rows };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The table the page exports: its columns, and every row's cells as the page reads them. */
function tableOf<R>(columns: ExportColumn[], rows: R[], cell: (r: R, c: ExportColumn) => unknown): ExportTable {
  return { sheetName: 'x', columns, rows: rows.map((r) => columns.map((c) => cell(r, c))) };
}

/** A cell as a user sees it: a text LibreOffice shows as typed (the CSV's leading quote that keeps a formula text is not shown). */
const shown = (v: unknown) => (typeof v === 'number' ? v : String(v ?? ''));

describe.runIf(SOFFICE || process.env.CI === 'true')('the Devices page’s exports opened in LibreOffice', () => {
  for (const [lang, dict] of [
    ['lt', lt],
    ['en', en],
  ] as const) {
    const t = tOf(dict);
    it(`the due list as XLSX and CSV (${lang}): its headers, the same rows as the list, no formula`, () => {
      expect(SOFFICE, 'LibreOffice (/usr/bin/soffice) is required in CI').toBeDefined();
      const columns = dueColumns(t);
      const table = tableOf(
        columns,
        DUE,
        dueCell(t, (id) => TYPES[id] ?? ''),
      );
      const expected = [
        columns.map((c) => c.title),
        ...DUE.map((r) => [
          r.Address,
          r.Flat,
          TYPES[r.DeviceTypeId]!,
          r.DeviceCode,
          r.DueDate,
          dict.lifetime.reasons[r.Reason],
          dict.lifetime.buckets[r.Bucket],
        ]),
      ];
      expect(expected[0]).toContain(lang === 'lt' ? dict.lifetime.serial : 'Serial');
      const xlsx = openInLibreOffice(buildXlsx(table), 'due.xlsx');
      expect(xlsx.formulas).toEqual([]);
      expect(xlsx.rows).toEqual(expected.map((r) => r.map(shown)));
      for (const options of [CSV_SEMICOLON, CSV_COMMA]) {
        const csv = openInLibreOffice(buildCsv(table, options), 'due.csv', options);
        expect(csv.formulas).toEqual([]);
        // A text that would start a formula is kept as text behind a quote LibreOffice shows.
        expect(csv.rows).toEqual(
          expected.map((r) => r.map((v) => String(shown(v))).map((v) => (/^[=+\-@]/.test(v) ? `'${v}` : v))),
        );
      }
    }, 240_000);

    it(`the remote-reading register as XLSX (${lang}): its headers, the same rows, numbers stay numbers, no formula`, () => {
      const columns = registerColumns(t);
      const sheet = openInLibreOffice(buildXlsx(tableOf(columns, REGISTER, registerCell)), 'register.xlsx');
      expect(sheet.formulas).toEqual([]);
      expect(sheet.rows[0]).toEqual(columns.map((c) => c.title));
      expect(sheet.rows[0]).toContain(dict.lifetime.lateNotRemote);
      expect(sheet.rows.slice(1).map((r) => [r[0], r[5] ?? ''])).toEqual(
        REGISTER.map((b) => [b.Address, b.Exception?.Note ?? '']),
      );
      expect(sheet.rows.slice(1).map((r) => Number(r[1]))).toEqual(REGISTER.map((b) => b.Devices));
    }, 120_000);
  }
});
