import type { ExportTable } from './types';

/** A small table for the export tests: every cell type, Lithuanian letters, markup, control characters, blanks. */
export const testTable: ExportTable = {
  sheetName: 'Įrenginiai',
  columns: [
    { key: 'code', title: 'Kodas', type: 'text' },
    { key: 'value', title: 'Vertė', type: 'number', numFmt: '0.000' },
    { key: 'day', title: 'Diena', type: 'date' },
    { key: 'at', title: 'Laikas', type: 'datetime' },
    { key: 'note', title: 'Pastabos', type: 'text', width: 30 },
  ],
  rows: [
    ['A-1, "x"; <&> ąčęėįšųūž', 12.3456, '2026-03-01', '2026-03-29T04:05:00+03:00', 'bad\u0001char\uFFFE'],
    ['B-2', null, null, null, ''],
    ['B-2', 0, 'not a date', '2026-10-25T03:30:00+02:00', ' padded '],
  ],
};
