// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { testTable as table } from './test-table';
import { buildXlsx, escapeXml, sheetNameOf, XlsxWriter } from './xlsx';

async function read(bytes: Uint8Array) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes.slice().buffer as ArrayBuffer);
  return workbook;
}

describe('escapeXml and sheetNameOf', () => {
  it('escapes markup and drops characters XML 1.0 cannot hold', () => {
    expect(escapeXml('a&b<c>"d"\u0000\u0008\tž\uD800😀')).toBe('a&amp;b&lt;c&gt;&quot;d&quot;\tž😀');
  });
  it("keeps to Excel's sheet name rules", () => {
    expect(sheetNameOf('Įrenginių duomenys')).toBe('Įrenginių duomenys');
    expect(sheetNameOf("'a[b]:c*d?e/f\\g'")).toBe('a b  c d e f g');
    expect(sheetNameOf('x'.repeat(40))).toHaveLength(31);
    expect(sheetNameOf(' ?* ')).toBe('Sheet1');
  });
});

describe('buildXlsx', () => {
  it('writes a file ExcelJS reads back with typed cells, formats, a bold frozen filtered header', async () => {
    const workbook = await read(buildXlsx(table));
    const sheet = workbook.getWorksheet('Įrenginiai')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Kodas', 'Vertė', 'Diena', 'Laikas', 'Pastabos']);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toBe('A-1, "x"; <&> ąčęėįšųūž');
    expect(row.getCell(2).value).toBe(12.3456);
    expect(row.getCell(2).numFmt).toBe('0.000');
    expect(row.getCell(3).value).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(row.getCell(3).numFmt).toBe('yyyy-mm-dd');
    expect(row.getCell(4).value).toEqual(new Date('2026-03-29T04:05:00Z'));
    expect(row.getCell(4).numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(row.getCell(5).value).toBe('badchar');
    expect(sheet.getRow(3).getCell(1).value).toBe('B-2');
    expect(sheet.getRow(3).getCell(2).value).toBeNull();
    expect(sheet.getRow(3).getCell(5).value).toBeNull();
    expect(sheet.getRow(4).getCell(2).value).toBe(0);
    expect(sheet.getRow(4).getCell(3).value).toBeNull();
    expect(sheet.getRow(4).getCell(4).value).toEqual(new Date('2026-10-25T03:30:00Z'));
    expect(sheet.getRow(4).getCell(5).value).toBe(' padded ');
    expect(sheet.rowCount).toBe(4);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe('A1:E1');
    expect(sheet.getColumn(5).width).toBe(30);
  });

  it('shares repeated text and stores numbers and dates as numeric cells', () => {
    const files = unzipSync(buildXlsx(table));
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!);
    expect(sheet).toContain('<c r="B2" s="2"><v>12.3456</v></c>');
    expect(sheet).toContain('<c r="C2" s="3"><v>46082</v></c>');
    const strings = strFromU8(files['xl/sharedStrings.xml']!);
    expect(strings.match(/<si>/g)).toHaveLength(9);
    expect(strings).toContain('count="10" uniqueCount="9"');
  });

  it('written slice by slice (as the worker does) it holds the same cells as written at once', async () => {
    const writer = new XlsxWriter(table.sheetName, table.columns);
    writer.addRows(table.rows.slice(0, 1));
    writer.addRows([]);
    writer.addRows(table.rows.slice(1));
    const values = (sheet: ExcelJS.Worksheet) => [1, 2, 3, 4].map((r) => sheet.getRow(r).values);
    const sliced = (await read(writer.finish())).worksheets[0]!;
    const whole = (await read(buildXlsx(table))).worksheets[0]!;
    expect(sliced.rowCount).toBe(4);
    expect(values(sliced)).toEqual(values(whole));
  });

  it('an empty table is still a valid workbook with its header', async () => {
    const sheet = (await read(buildXlsx({ ...table, rows: [] }))).worksheets[0]!;
    expect(sheet.rowCount).toBe(1);
  });
});

/**
 * LibreOffice (apt-get install libreoffice-calc-nogui) as a second independent reader. Left out
 * on a machine without it, except in CI (`.ci/run` installs it), where its absence fails.
 */
const SOFFICE = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find((p) => existsSync(p));

describe.runIf(SOFFICE || process.env.CI === 'true')('buildXlsx in LibreOffice', () => {
  it('opens the file and converts it to the same values', () => {
    expect(SOFFICE, 'LibreOffice (/usr/bin/soffice) is required in CI').toBeDefined();
    const dir = mkdtempSync(path.join(tmpdir(), 'xlsx-'));
    try {
      writeFileSync(path.join(dir, 'test.xlsx'), buildXlsx(table));
      execFileSync(
        SOFFICE!,
        [
          `-env:UserInstallation=file://${dir}/profile`,
          '--headless',
          '--convert-to',
          'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true',
          '--outdir',
          dir,
          path.join(dir, 'test.xlsx'),
        ],
        { timeout: 60_000, stdio: 'pipe' },
      );
      const lines = readFileSync(path.join(dir, 'test.csv'), 'utf8')
        .replace(/\r?\n$/, '')
        .split(/\r?\n/);
      expect(lines).toEqual([
        'Kodas,Vertė,Diena,Laikas,Pastabos',
        '"A-1, ""x""; <&> ąčęėįšųūž",12.346,2026-03-01,2026-03-29 04:05,badchar',
        'B-2,,,,',
        'B-2,0.000,,2026-10-25 03:30, padded ',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
