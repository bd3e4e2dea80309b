import type { ExportRequest, ExportResponse } from './export-worker';
import { type CsvOptions, type ExportFormat, type ExportInput, MIME } from './types';

/** Main-thread time spent reading rows before the page gets a turn again (ms). */
const SLICE_MS = 4;

const nextTurn = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

/**
 * Builds an export file in a Web Worker. The rows are read into cell values (row after row, in
 * column order) and posted a slice at a time, yielding between slices, so that neither reading
 * 50,000 rows nor copying them into the worker holds the page for long; the worker writes each
 * slice as it comes.
 */
export function exportFile<R>(input: ExportInput<R>, format: ExportFormat, csv: CsvOptions): Promise<Blob> {
  const worker = new Worker(new URL('./export-worker.ts', import.meta.url), { type: 'module' });
  const post = (message: ExportRequest) => worker.postMessage(message);
  const done = new Promise<Blob>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<ExportResponse>) => {
      worker.terminate();
      if (event.data.ok) resolve(new Blob([event.data.data], { type: MIME[format] }));
      else reject(new Error(event.data.error));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'export failed'));
    };
  });
  const { columns, rows } = input;
  const value = input.value ?? ((row: R, column) => (row as Record<string, unknown>)[column.key]);
  const send = async () => {
    post({ kind: 'start', format, sheetName: input.sheetName, columns, csv });
    let r = 0;
    while (r < rows.length) {
      const sliceStart = performance.now();
      // One flat array of cells per slice: few objects to allocate, collect and copy.
      const cells: unknown[] = [];
      do {
        const end = Math.min(r + 128, rows.length);
        for (; r < end; r++) for (const c of columns) cells.push(value(rows[r]!, c));
      } while (r < rows.length && performance.now() - sliceStart < SLICE_MS);
      post({ kind: 'cells', cells });
      if (r < rows.length) await nextTurn();
    }
    post({ kind: 'end' });
  };
  const sent = send().catch((error: unknown) => {
    worker.terminate();
    throw error;
  });
  return Promise.all([done, sent]).then(([blob]) => blob);
}

/** Saves a file through the browser's download. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
