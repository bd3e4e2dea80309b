export { ExportButton } from './export-button';
export { downloadBlob, exportFile } from './export-file';
export type { CsvOptions, ExportCellType, ExportColumn, ExportFormat, ExportInput } from './types';
