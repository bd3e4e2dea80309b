/// <reference lib="webworker" />
// Builds export files off the main thread so that the page stays responsive on 50,000 rows.
// The rows arrive in chunks (the page maps and posts them a slice at a time), then `end`.
import { buildCsv } from './build-file';
import type { CsvOptions, ExportColumn, ExportFormat } from './types';
import { buildXlsx } from './xlsx';

export type ExportRequest =
  | { kind: 'start'; format: ExportFormat; sheetName: string; columns: ExportColumn[]; csv: CsvOptions }
  | { kind: 'rows'; rows: unknown[][] }
  | { kind: 'end' };
export type ExportResponse = { ok: true; data: ArrayBuffer | string } | { ok: false; error: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;
let start: Extract<ExportRequest, { kind: 'start' }> | null = null;
const rows: unknown[][] = [];

scope.onmessage = (event: MessageEvent<ExportRequest>) => {
  const message = event.data;
  if (message.kind === 'start') start = message;
  else if (message.kind === 'rows') for (const row of message.rows) rows.push(row);
  else {
    try {
      if (!start) throw new Error('export: no start message');
      const table = { sheetName: start.sheetName, columns: start.columns, rows };
      if (start.format === 'csv') {
        scope.postMessage({ ok: true, data: buildCsv(table, start.csv) } satisfies ExportResponse);
      } else {
        const bytes = buildXlsx(table);
        const data = bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
        scope.postMessage({ ok: true, data: data as ArrayBuffer } satisfies ExportResponse, [data as ArrayBuffer]);
      }
    } catch (error) {
      scope.postMessage({
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      } satisfies ExportResponse);
    }
  }
};
