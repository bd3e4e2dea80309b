import type { ExportRequest, ExportResponse } from './export-worker';
import { type ExportFormat, type ExportInput, MIME } from './types';

/** Builds an export file in a Web Worker (exceljs is loaded there, only when needed). */
export function exportFile(input: ExportInput, format: ExportFormat): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./export-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<ExportResponse>) => {
      worker.terminate();
      if (event.data.ok) resolve(new Blob([event.data.data], { type: MIME[format] }));
      else reject(new Error(event.data.error));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'export failed'));
    };
    worker.postMessage({ format, input } satisfies ExportRequest);
  });
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
