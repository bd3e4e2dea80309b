import { type ReadingColumn, type ReadingRow, readingColumns } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { exportColumns, exportValue, formatCell, indexRows, viewRows } from './readings-view';

const columns = readingColumns({ Id: 3, DataLoadProc: 'volume' }, 3);
const col = (key: ReadingColumn['key']) => columns.find((c) => c.key === key)!;
const row = (DeviceCode: string, Difference: number | null, TimeTill: string | null, Flat = '1') =>
  ({
    DeviceCode,
    Flat,
    Difference,
    VolumeFrom: 1,
    VolumeTill: Difference === null ? null : 1 + Difference,
    TimeTill,
    Flags: Difference !== null && Difference < 0 ? ['NEGATIVE'] : [],
  }) as unknown as ReadingRow;

const rows = [
  row('W-10', 2.5, '2026-03-31T10:00:00+03:00', '10'),
  row('W-2', -1, '2026-03-30T09:00:00+03:00', '2'),
  row('X-1', null, null, '1'),
  row('W-1', 0.12345, '2026-03-31T09:00:00+03:00', '1'),
];
const index = indexRows(rows, columns);
const codes = (list: ReadingRow[]) => list.map((r) => r.DeviceCode);

describe('formatCell', () => {
  it('shows numbers with 3 decimals, times to the minute, empty for missing', () => {
    expect(formatCell(col('Difference'), rows[3]!)).toBe('0.123');
    expect(formatCell(col('TimeTill'), rows[0]!)).toBe('2026-03-31 10:00');
    expect(formatCell(col('Difference'), rows[2]!)).toBe('');
  });
});

describe('viewRows', () => {
  it('filters case-insensitively on the shown text of each column, all filters at once', () => {
    expect(codes(viewRows(index, { DeviceCode: 'w-' }, null))).toEqual(['W-10', 'W-2', 'W-1']);
    expect(codes(viewRows(index, { DeviceCode: 'w-', Difference: '-' }, null))).toEqual(['W-2']);
    expect(codes(viewRows(index, { Difference: '0.123' }, null))).toEqual(['W-1']);
    expect(codes(viewRows(index, { TimeTill: '03-31' }, null))).toEqual(['W-10', 'W-1']);
    expect(codes(viewRows(index, { DeviceCode: '  ' }, null))).toHaveLength(4);
  });

  it('sorts numbers, times and text naturally, empty cells last in both directions', () => {
    expect(codes(viewRows(index, {}, { key: 'Difference', order: 'ascend' }))).toEqual(['W-2', 'W-1', 'W-10', 'X-1']);
    expect(codes(viewRows(index, {}, { key: 'Difference', order: 'descend' }))).toEqual(['W-10', 'W-1', 'W-2', 'X-1']);
    expect(codes(viewRows(index, {}, { key: 'Flat', order: 'ascend' }))).toEqual(['X-1', 'W-1', 'W-2', 'W-10']);
    expect(codes(viewRows(index, {}, { key: 'TimeTill', order: 'descend' }))).toEqual(['W-10', 'W-1', 'W-2', 'X-1']);
    expect(codes(viewRows(index, { DeviceCode: 'w' }, { key: 'DeviceCode', order: 'ascend' }))).toEqual([
      'W-1',
      'W-2',
      'W-10',
    ]);
  });
});

describe('export mapping', () => {
  it('keeps numbers numeric with a 3-decimal format, times as dates, and spells out the flags', () => {
    const cols = exportColumns([col('DeviceCode'), col('TimeTill'), col('Difference')], (c) => c.key, 'Note');
    expect(cols).toEqual([
      { key: 'DeviceCode', title: 'DeviceCode', type: 'text' },
      { key: 'TimeTill', title: 'TimeTill', type: 'datetime' },
      { key: 'Difference', title: 'Difference', type: 'number', numFmt: '0.000' },
      { key: 'Flags', title: 'Note', type: 'text', width: 30 },
    ]);
    const value = exportValue(
      (f) => `flag ${f}`,
      (r) => `status of ${r.DeviceCode}`,
    );
    const cell = (r: ReadingRow, key: string) => value(r, cols.find((c) => c.key === key)!);
    expect(cell(rows[1]!, 'Difference')).toBe(-1);
    expect(cell(rows[1]!, 'Flags')).toBe('flag NEGATIVE');
    expect(cell(rows[0]!, 'Flags')).toBe('');
    expect(cell(rows[0]!, 'TimeTill')).toBe('2026-03-31T10:00:00+03:00');
    expect(value(rows[0]!, { key: 'StatusFlags', title: '', type: 'text' })).toBe(`status of ${rows[0]!.DeviceCode}`);
  });
});

describe('indexRows with a page cell text', () => {
  it('filters a column on the text the page shows', () => {
    const shown = indexRows(rows, columns, (c, r) =>
      c.key === 'StatusFlags' ? `status ${r.DeviceCode}` : formatCell(c, r),
    );
    expect(codes(viewRows(shown, { StatusFlags: 'status w-1' }, null))).toEqual(['W-10', 'W-1']);
  });
});
