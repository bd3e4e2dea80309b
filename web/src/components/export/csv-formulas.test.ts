// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEVICE_TYPE, GROUP, readingColumns } from '@rodmenys/contract';
import { strFromU8, unzipSync } from 'fflate';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { exportColumns } from '../../pages/device-data/readings-view';
import { deviceExportColumns } from '../../pages/location-data/device-columns';
import { buildCsv, CSV_COMMA, CSV_SEMICOLON } from './build-file';
import type { CsvOptions, ExportColumn, ExportTable } from './types';
import { buildXlsx } from './xlsx';

/** LibreOffice, as in xlsx.test.ts: required in CI, where `.ci/run` installs it. */
const SOFFICE = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find((p) => existsSync(p));

/** What LibreOffice makes of a CSV file opened with its CSV import: the sheet as flat OpenDocument XML. */
function openInLibreOffice(csv: string, options: CsvOptions): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'csv-'));
  try {
    writeFileSync(path.join(dir, 'file.csv'), csv);
    execFileSync(
      SOFFICE!,
      [
        `-env:UserInstallation=file://${dir}/profile`,
        '--headless',
        // The language of each flavour (1063 Lithuanian: decimal comma; 1033 English), as a user's spreadsheet has it.
        `--infilter=CSV:${options.separator.charCodeAt(0)},34,76,1,,${options.decimalComma ? 1063 : 1033}`,
        '--convert-to',
        'fods',
        '--outdir',
        dir,
        path.join(dir, 'file.csv'),
      ],
      { timeout: 90_000, stdio: 'pipe' },
    );
    return readFileSync(path.join(dir, 'file.fods'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const formulas = (xml: string) => [...xml.matchAll(/table:formula="([^"]*)"/g)].map((m) => m[1]);

/** Text a user controls (a device description, a client code, a city) as an attacker would write it. */
const HOSTILE = ['=HYPERLINK("http://example.com/x";"Click")', '+1+2', '-3+4', '@SUM(1;2)', '\t=5+5', '\r=6+6'];

/** Every text cell of every row hostile, every number cell a negative number, no dates. */
function hostileTable(columns: ExportColumn[]): ExportTable {
  return {
    sheetName: 'x',
    columns,
    rows: HOSTILE.map((text) => columns.map((c) => (c.type === 'text' ? text : c.type === 'number' ? -12.5 : null))),
  };
}

const t = ((key: string) => key) as unknown as TFunction;

/** The web app's CSV exports, with the columns each screen gives. */
const EXPORTS: [string, ExportColumn[]][] = [
  [
    'readings (device data)',
    exportColumns(
      readingColumns({ Id: DEVICE_TYPE.heatMeter, DataLoadProc: 'energy' }, GROUP.operator),
      (c) => c.key,
      'Flags',
    ),
  ],
  ['location devices', deviceExportColumns(t)],
  [
    // The statements screen's columns (pages/statements/statements-page.tsx): text and numbers.
    'statements',
    [
      { key: 'address', title: 'address', type: 'text' },
      { key: 'flat', title: 'flat', type: 'text' },
      { key: 'area', title: 'area', type: 'number', numFmt: '0.00' },
      { key: 'heat.unit', title: 'unit', type: 'text' },
      { key: 'heat.Current', title: 'current', type: 'number', numFmt: '0.000' },
      { key: 'markers', title: 'markers', type: 'text' },
      { key: 'state', title: 'state', type: 'text' },
    ],
  ],
];

describe('xlsx exports', () => {
  it('keep formula text as text cells: no formula element, the text among the shared strings', () => {
    for (const [, columns] of EXPORTS) {
      const files = unzipSync(buildXlsx(hostileTable(columns)));
      expect(strFromU8(files['xl/worksheets/sheet1.xml']!)).not.toContain('<f>');
      expect(strFromU8(files['xl/sharedStrings.xml']!)).toContain('=HYPERLINK(');
    }
  });
});

describe.runIf(SOFFICE || process.env.CI === 'true')('CSV exports opened in LibreOffice', () => {
  for (const [name, columns] of EXPORTS) {
    it(`${name}: no formula in either flavour, numbers stay numbers`, () => {
      expect(SOFFICE, 'LibreOffice (/usr/bin/soffice) is required in CI').toBeDefined();
      expect(columns.some((c) => c.type === 'text')).toBe(true);
      for (const options of [CSV_SEMICOLON, CSV_COMMA]) {
        const xml = openInLibreOffice(buildCsv(hostileTable(columns), options), options);
        expect(formulas(xml)).toEqual([]);
        expect(xml).toContain('&apos;=HYPERLINK(');
        if (columns.some((c) => c.type === 'number')) expect(xml).toContain('office:value="-12.5"');
      }
    }, 120_000);
  }

  it('the check can fail: the hostile text written as it is opens as formulas', () => {
    const raw = `a;b\r\n"${HOSTILE[0]!.replaceAll('"', '""')}";=1+1\r\n`;
    expect(formulas(openInLibreOffice(raw, CSV_SEMICOLON)).length).toBe(2);
  }, 120_000);
});
