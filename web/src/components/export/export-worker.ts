/// <reference lib="webworker" />
// Builds export files off the main thread so that the page stays responsive on 50,000 rows.
// The rows arrive in slices (the page reads and posts them a slice at a time), then `end`:
// an xlsx is written slice by slice as they come, a CSV at the end.
import { buildCsv } from './build-file';
import type { CsvOptions, ExportColumn, ExportFormat } from './types';
import { XlsxWriter } from './xlsx';

export type ExportRequest =
  | { kind: 'start'; format: ExportFormat; sheetName: string; columns: ExportColumn[]; csv: CsvOptions }
  /** Cell values row after row, each row as many as there are columns. */
  | { kind: 'cells'; cells: unknown[] }
  | { kind: 'end' };
export type ExportResponse = { ok: true; data: ArrayBuffer | string } | { ok: false; error: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;
let start: Extract<ExportRequest, { kind: 'start' }> | null = null;
let xlsx: XlsxWriter | null = null;
const rows: unknown[][] = [];

function handle(message: ExportRequest): void {
  if (message.kind === 'start') {
    start = message;
    if (message.format === 'xlsx') xlsx = new XlsxWriter(message.sheetName, message.columns);
    return;
  }
  if (!start) throw new Error('export: no start message');
  if (message.kind === 'cells') {
    const width = start.columns.length;
    const slice: unknown[][] = [];
    for (let i = 0; i < message.cells.length; i += width) slice.push(message.cells.slice(i, i + width));
    if (xlsx) xlsx.addRows(slice);
    else for (const row of slice) rows.push(row);
  } else if (xlsx) {
    const bytes = xlsx.finish();
    const data = (bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer;
    scope.postMessage({ ok: true, data } satisfies ExportResponse, [data]);
  } else {
    const table = { sheetName: start.sheetName, columns: start.columns, rows };
    scope.postMessage({ ok: true, data: buildCsv(table, start.csv) } satisfies ExportResponse);
  }
}

scope.onmessage = (event: MessageEvent<ExportRequest>) => {
  try {
    handle(event.data);
  } catch (error) {
    scope.postMessage({
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    } satisfies ExportResponse);
  }
};
