import type { DeviceRow, DeviceType } from '@rodmenys/contract';
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import type { ExportColumn } from '../../components/export';
import { formatDateTime } from '../../format';

type DeviceField = keyof DeviceRow | 'DeviceType';

interface DeviceColumn {
  key: DeviceField;
  type: ExportColumn['type'];
  numFmt?: string;
}

/** The device list's columns, once: the table and the export both come from here. */
const DEVICE_COLUMNS: DeviceColumn[] = [
  { key: 'Flat', type: 'text' },
  { key: 'DeviceCode', type: 'text' },
  { key: 'CounterCode', type: 'text' },
  { key: 'DeviceType', type: 'text' },
  { key: 'DeviceDescription', type: 'text' },
  { key: 'ObjectCode', type: 'text' },
  { key: 'ClientCode', type: 'text' },
  { key: 'RatingFactor', type: 'number', numFmt: '0.000' },
  { key: 'InstalledAt', type: 'datetime' },
  { key: 'RemovedAt', type: 'datetime' },
  // When the device last reported (a reading or a telegram).
  { key: 'LastSeen', type: 'datetime' },
];

export type DeviceListRow = DeviceRow & { DeviceType: string };

/** Device rows with the type's name in the UI language. */
export function withTypeNames(rows: DeviceRow[], types: DeviceType[] | undefined, language: string): DeviceListRow[] {
  const names = new Map(types?.map((t) => [t.Id, language === 'en' ? t.DeviceTypeNameEn : t.DeviceTypeName]));
  return rows.map((row) => ({ ...row, DeviceType: names.get(row.DeviceTypeId) ?? String(row.DeviceTypeId) }));
}

export function deviceTableColumns(t: TFunction): TableColumnsType<DeviceListRow> {
  return DEVICE_COLUMNS.map((c) => ({
    key: c.key,
    dataIndex: c.key,
    title: t(`devices.${c.key}`),
    align: c.type === 'number' ? ('right' as const) : undefined,
    render:
      c.type === 'datetime'
        ? (v: string | null) => formatDateTime(v)
        : c.type === 'number'
          ? (v: number | null) => (v === null ? '' : v.toFixed(3))
          : undefined,
  }));
}

export function deviceExportColumns(t: TFunction): ExportColumn[] {
  return DEVICE_COLUMNS.map((c) => ({ key: c.key, title: t(`devices.${c.key}`), type: c.type, numFmt: c.numFmt }));
}
