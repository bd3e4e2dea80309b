import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** LibreOffice, in CI and on the development machines (docs/operations.md). */
export const SOFFICE = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find((p) => existsSync(p));

/**
 * Opens a CSV file in LibreOffice as a user would (its CSV import, the given separator, UTF-8)
 * and returns the formulas of the resulting sheet (`of:=…`) and its cell texts, read from the
 * flat OpenDocument file it converts to.
 */
export function openCsvInLibreOffice(
  csv: Buffer | string,
  separator: ',' | ';',
): { formulas: string[]; texts: string[] } {
  if (!SOFFICE) throw new Error('LibreOffice (/usr/bin/soffice) is required');
  const dir = mkdtempSync(path.join(tmpdir(), 'csv-'));
  try {
    writeFileSync(path.join(dir, 'file.csv'), csv);
    execFileSync(
      SOFFICE,
      [
        `-env:UserInstallation=file://${dir}/profile`,
        '--headless',
        `--infilter=CSV:${separator.charCodeAt(0)},34,76,1`,
        '--convert-to',
        'fods',
        '--outdir',
        dir,
        path.join(dir, 'file.csv'),
      ],
      { timeout: 90_000, stdio: 'pipe' },
    );
    const xml = readFileSync(path.join(dir, 'file.fods'), 'utf8');
    const decode = (s: string) =>
      s
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    return {
      formulas: [...xml.matchAll(/table:formula="([^"]*)"/g)].map((m) => decode(m[1]!)),
      texts: [...xml.matchAll(/<text:p>([^<]*)<\/text:p>/g)].map((m) => decode(m[1]!)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
