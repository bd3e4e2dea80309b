import type { StatementKind, StatementKindFigures, StatementRow } from '@rodmenys/contract';
import type { TFunction } from 'i18next';
import type { ExportColumn, ExportInput } from '../../components/export/types';
import { addressOf, kindOf, markerDetail } from './statement-format';
import type { StatementTableRow } from './statement-rows';

/** The Excel/CSV columns of the Statements table: one column per figure, units spelled out. */
export function exportColumns(kinds: readonly StatementKind[], t: TFunction): ExportColumn[] {
  return [
    { key: 'address', title: t('statements.address'), type: 'text' },
    { key: 'flat', title: t('statements.flat'), type: 'text' },
    { key: 'account', title: t('occupancies.clientCode'), type: 'text' },
    { key: 'occupant', title: t('occupancies.statements.column'), type: 'text' },
    { key: 'from', title: t('occupancies.statements.from'), type: 'text' },
    { key: 'till', title: t('occupancies.statements.till'), type: 'text' },
    { key: 'area', title: t('statements.areaM2'), type: 'number', numFmt: '0.00' },
    ...kinds.flatMap((kind): ExportColumn[] => {
      const name = t(`statements.kinds.${kind}`);
      return [
        { key: `${kind}.unit`, title: `${name}: ${t('statements.unit')}`, type: 'text' },
        { key: `${kind}.Current`, title: `${name}: ${t('statements.current')}`, type: 'number', numFmt: '0.000' },
        { key: `${kind}.Previous`, title: `${name}: ${t('statements.previous')}`, type: 'number', numFmt: '0.000' },
        { key: `${kind}.LastYear`, title: `${name}: ${t('statements.lastYear')}`, type: 'number', numFmt: '0.000' },
        { key: `${kind}.average`, title: `${name}: ${t('statements.average')}`, type: 'number', numFmt: '0.000' },
        { key: `${kind}.partial`, title: `${name}: ${t('statements.marker.estimated')}`, type: 'text' },
      ];
    }),
    { key: 'markers', title: t('statements.markers'), type: 'text' },
    { key: 'state', title: t('statements.state'), type: 'text' },
  ];
}

/**
 * One cell of the export: the value of column `c` for row `r` (a flat, or an occupant of a flat with a
 * move: their account, name and days); an occupant's comparison that was another occupant's is empty.
 */
export function exportValue(r: StatementRow | StatementTableRow, c: ExportColumn, t: TFunction): unknown {
  const occupant = 'Occupant' in r ? r.Occupant : null;
  if (c.key === 'address') return addressOf(r);
  if (c.key === 'flat') return r.Flat;
  if (c.key === 'account') return r.ClientCode;
  if (c.key === 'occupant') return occupant?.Name ?? null;
  if (c.key === 'from') return occupant?.From ?? null;
  if (c.key === 'till') return occupant?.Till ?? null;
  if (c.key === 'area') return r.AreaM2;
  if (c.key === 'markers')
    return r.Kinds.flatMap((k) =>
      k.Markers.map((m) => `${t(`statements.kinds.${k.Kind}`)}: ${t(`statements.marker.${m}`)}${markerDetail(k, m)}`),
    ).join('; ');
  if (c.key === 'state')
    return r.Published
      ? t('statements.publishedVersion', { version: r.Published.Version })
      : t('statements.preliminary');
  const [kind, field] = c.key.split('.') as [StatementKind, string];
  const k: StatementKindFigures | undefined = kindOf(r, kind);
  if (!k) return null;
  if (field === 'unit') return t(`statements.units.${k.Unit}`);
  if (field === 'average') return k.BuildingAverage;
  if (field === 'partial') return k.Current.Partial ? t('common.yes') : '';
  return k[field as 'Current' | 'Previous' | 'LastYear'].Value;
}

/** What the export button writes: the month's sheet of the shown rows (flats, and occupants of flats with a move). */
export const exportInput = (
  month: string,
  kinds: readonly StatementKind[],
  rows: StatementTableRow[],
  t: TFunction,
): ExportInput<StatementTableRow> => ({
  sheetName: month,
  columns: exportColumns(kinds, t),
  rows,
  value: (r, c) => exportValue(r, c, t),
});
