/// <reference lib="webworker" />
// Builds export files off the main thread so that the page stays responsive on 50,000 rows.
import { buildCsv, buildXlsx } from './build-file';
import type { ExportFormat, ExportInput } from './types';

export interface ExportRequest {
  format: ExportFormat;
  input: ExportInput;
}
export type ExportResponse = { ok: true; data: ArrayBuffer | string } | { ok: false; error: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = async (event: MessageEvent<ExportRequest>) => {
  try {
    const { format, input } = event.data;
    if (format === 'csv') {
      scope.postMessage({ ok: true, data: buildCsv(input) } satisfies ExportResponse);
    } else {
      const excel = (await import('exceljs')).default;
      const data = await buildXlsx(excel, input);
      scope.postMessage({ ok: true, data } satisfies ExportResponse, [data]);
    }
  } catch (error) {
    scope.postMessage({
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    } satisfies ExportResponse);
  }
};
