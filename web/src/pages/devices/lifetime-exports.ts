import type { DueRow, RemoteBuilding } from '@rodmenys/contract';
import type { TFunction } from 'i18next';
import type { ExportColumn } from '../../components/export/types';

/* The Devices page's exports (docs/device-lifetime.md): the due list's and the register's columns and cells. */

/** The due list's columns, in the UI language. */
export const dueColumns = (t: TFunction): ExportColumn[] => [
  { key: 'Address', title: t('lifetime.address'), type: 'text' },
  { key: 'Flat', title: t('lifetime.flat'), type: 'text' },
  { key: 'Type', title: t('lifetime.type'), type: 'text' },
  { key: 'DeviceCode', title: t('lifetime.serial'), type: 'text' },
  { key: 'DueDate', title: t('lifetime.dueDate'), type: 'text' },
  { key: 'Reason', title: t('lifetime.reason'), type: 'text' },
  { key: 'Bucket', title: t('lifetime.when'), type: 'text' },
];

/** A due row's cell: the type by name, the reason and the bucket in words. */
export const dueCell =
  (t: TFunction, typeName: (id: number) => string) =>
  (r: DueRow, c: ExportColumn): unknown =>
    c.key === 'Type'
      ? typeName(r.DeviceTypeId)
      : c.key === 'Reason'
        ? t(`lifetime.reasons.${r.Reason}`)
        : c.key === 'Bucket'
          ? t(`lifetime.buckets.${r.Bucket}`)
          : (r[c.key as keyof DueRow] ?? '');

/** The remote-reading register's columns, in the UI language. */
export const registerColumns = (t: TFunction): ExportColumn[] => [
  { key: 'Address', title: t('lifetime.address'), type: 'text' },
  { key: 'Devices', title: t('lifetime.devices'), type: 'number' },
  { key: 'Remote', title: t('lifetime.remote'), type: 'number' },
  { key: 'RemotePercent', title: t('lifetime.remotePercent'), type: 'number', numFmt: '0.0' },
  { key: 'Late', title: t('lifetime.lateNotRemote'), type: 'number' },
  { key: 'Exception', title: t('lifetime.exception'), type: 'text' },
];

/** A register building's cell: its late devices counted, its exception note's text. */
export const registerCell = (b: RemoteBuilding, c: ExportColumn): unknown =>
  c.key === 'Late'
    ? b.LateNotRemote.length
    : c.key === 'Exception'
      ? (b.Exception?.Note ?? '')
      : b[c.key as keyof RemoteBuilding];
