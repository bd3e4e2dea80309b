import { CheckCircleOutlined } from '@ant-design/icons';
import type { StatementKind, StatementRow } from '@rodmenys/contract';
import { Button, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../i18n';
import {
  buildingOf,
  DIGITS,
  formatFigure,
  formatNumber,
  kindOf,
  MARKER_COLORS,
  markerDetail,
} from './statement-format';
import type { StatementTableRow } from './statement-rows';

/** The one unit every shown flat has for `kind`, else null (then each cell names its unit). */
export function unitOf(rows: readonly StatementRow[], kind: StatementKind): string | null {
  const units = new Set(rows.map((r) => kindOf(r, kind)?.Unit).filter(Boolean));
  return units.size === 1 ? ([...units][0] ?? null) : null;
}

type Column = ColumnsType<StatementTableRow>[number];
type Field = 'Current' | 'Previous' | 'LastYear' | 'Average';
const FIELD_TITLE: Record<Field, string> = {
  Current: 'statements.current',
  Previous: 'statements.previous',
  LastYear: 'statements.lastYear',
  Average: 'statements.average',
};

/**
 * One flat's (or occupant's) figure of a kind as shown: the unit's decimals, the unit in the cell only
 * when it varies; an occupant's month before or last year that was another occupant's says so.
 */
function cellOf(
  r: StatementTableRow,
  kind: StatementKind,
  field: Field,
  shared: string | null,
  language: string,
  t: TFunction,
): ReactNode {
  const k = kindOf(r, kind);
  if (!k) return '';
  const missing = field === 'Previous' || field === 'LastYear' ? r.Occupant?.Missing[kind]?.[field] : null;
  if (missing)
    return (
      <Typography.Text type="secondary" title={t(`occupancies.statements.noComparison.${missing}`)}>
        {t('occupancies.statements.otherOccupant')}
      </Typography.Text>
    );
  const text =
    field === 'Average'
      ? formatNumber(k.BuildingAverage, language, DIGITS[k.Unit])
      : formatFigure(k[field], language, t, DIGITS[k.Unit]);
  return shared || !text ? text : `${text} ${t(`statements.units.${k.Unit}`)}`;
}

/**
 * One figure (this month, the month before, …) as a heading over a column per kind, the unit in
 * the kind's heading: this month's columns come first, so every kind's figure of the month is in
 * view without scrolling sideways.
 */
function fieldGroup(
  field: Field,
  kinds: readonly StatementKind[],
  rows: readonly StatementTableRow[],
  language: string,
  t: TFunction,
): Column {
  return {
    key: field,
    title: t(FIELD_TITLE[field]),
    children: kinds.map((kind): Column => {
      const unit = unitOf(rows, kind);
      const value = (r: StatementTableRow) =>
        field === 'Average' ? kindOf(r, kind)?.BuildingAverage : kindOf(r, kind)?.[field].Value;
      return {
        key: `${kind}.${field}`,
        title: unit
          ? `${t(`statements.kinds.${kind}`)}, ${t(`statements.units.${unit}`)}`
          : t(`statements.kinds.${kind}`),
        align: 'right',
        width: 112,
        sorter: (a, b) => (value(a) ?? -1) - (value(b) ?? -1),
        render: (_: unknown, r: StatementTableRow) => cellOf(r, kind, field, unit, language, t),
      };
    }),
  };
}

const HEAT_PARTS = ['HotWater', 'Circulation', 'Total'] as const;

/**
 * Buildings with a heat method shown (docs/heat-method.md): the flat's hot-water heat, circulation and
 * total beside its space heating (this month's heating column).
 */
function heatPartsGroup(rows: readonly StatementTableRow[], language: string, t: TFunction): Column[] {
  if (!rows.some((r) => kindOf(r, 'heating')?.HeatParts)) return [];
  return [
    {
      key: 'heatParts',
      title: t('statements.heatPartsGroup'),
      children: HEAT_PARTS.map(
        (part): Column => ({
          key: `heatParts.${part}`,
          title: t(`statements.heatPartColumns.${part}`),
          align: 'right',
          width: 112,
          render: (_: unknown, r: StatementTableRow) =>
            formatNumber(kindOf(r, 'heating')?.HeatParts?.[part] ?? null, language, 3),
        }),
      ),
    },
  ];
}

/** An occupant's row: the name, then the account and the days of the month; a flat's: its account. */
function occupantCell(r: StatementTableRow, t: TFunction): ReactNode {
  const o = r.Occupant;
  if (!o) return r.ClientCode ?? '';
  return (
    <Space direction="vertical" size={0}>
      <span>{o.Name}</span>
      <Typography.Text type="secondary">
        {t('occupancies.statements.rowDays', { code: r.ClientCode, from: o.From, till: o.Till, days: o.Days })}
      </Typography.Text>
    </Space>
  );
}

/**
 * The Statements table's columns: the flat (opens its statement) and, several buildings shown, its
 * building, both kept in view while the figures scroll; the occupant when a flat shown had a move in
 * the month (one row per occupant), its area when some flat has one, this month per kind, the month
 * before, last year, then the building's average (several shown; one building: a summary row
 * instead), markers and state.
 */
export function useStatementColumns(
  rows: readonly StatementTableRow[],
  kinds: readonly StatementKind[],
  onOpen: (flatId: number) => void,
): ColumnsType<StatementTableRow> {
  const { t } = useTranslation();
  const language = useLanguage();
  const severalBuildings = new Set(rows.map((r) => r.BuildingId)).size > 1;
  const withArea = rows.some((r) => r.AreaM2 !== null);
  const withOccupants = rows.some((r) => r.Occupant);
  return [
    {
      key: 'flat',
      title: t('statements.flat'),
      fixed: 'left',
      width: 72,
      sorter: (a, b) => (a.FlatOrder ?? 0) - (b.FlatOrder ?? 0) || a.Flat.localeCompare(b.Flat, language),
      render: (_: unknown, r) => (
        <Button
          type="link"
          size="small"
          style={{ padding: 0 }}
          data-flat-button={r.FlatId}
          aria-label={`${buildingOf(r)}, ${t('statements.flat').toLocaleLowerCase(language)} ${r.Flat}${
            r.Occupant ? ` (${r.Occupant.Name})` : ''
          }: ${t('statements.openStatement')}`}
          onClick={() => onOpen(r.FlatId)}
        >
          {r.Flat}
        </Button>
      ),
    },
    // Several buildings: which one a flat is in stays beside it while the figures scroll.
    ...(severalBuildings
      ? [
          {
            key: 'building',
            title: t('statements.building'),
            fixed: 'left' as const,
            width: 132,
            ellipsis: { showTitle: true },
            sorter: (a: StatementTableRow, b: StatementTableRow) =>
              buildingOf(a).localeCompare(buildingOf(b), language),
            render: (_: unknown, r: StatementTableRow) => buildingOf(r),
          },
        ]
      : []),
    ...(withOccupants
      ? [
          {
            key: 'occupant',
            title: t('occupancies.statements.column'),
            render: (_: unknown, r: StatementTableRow) => occupantCell(r, t),
          },
        ]
      : []),
    ...(withArea
      ? [
          {
            key: 'area',
            title: t('statements.area'),
            align: 'right' as const,
            width: 80,
            render: (_: unknown, r: StatementTableRow) => formatNumber(r.AreaM2, language, 2),
          },
        ]
      : []),
    fieldGroup('Current', kinds, rows, language, t),
    ...heatPartsGroup(rows, language, t),
    fieldGroup('Previous', kinds, rows, language, t),
    fieldGroup('LastYear', kinds, rows, language, t),
    ...(severalBuildings ? [fieldGroup('Average', kinds, rows, language, t)] : []),
    {
      key: 'markers',
      title: t('statements.markers'),
      render: (_: unknown, r) => (
        <Space size={4} wrap>
          {r.Kinds.flatMap((k) =>
            k.Markers.map((m) => (
              <Tag key={`${k.Kind}.${m}`} color={MARKER_COLORS[m]}>
                {t(`statements.kinds.${k.Kind}`)}: {t(`statements.marker.${m}`)}
                {markerDetail(k, m)}
              </Tag>
            )),
          )}
        </Space>
      ),
    },
    {
      key: 'published',
      title: t('statements.state'),
      render: (_: unknown, r) =>
        r.Published ? (
          <Tag color="green" icon={<CheckCircleOutlined aria-hidden />}>
            {t('statements.publishedVersion', { version: r.Published.Version })}
          </Tag>
        ) : (
          <Tag>{t('statements.preliminary')}</Tag>
        ),
    },
  ];
}

/**
 * One building shown: its average per kind once, in a row under the flats (in the columns of
 * this month), instead of on every row.
 */
export function useAverageSummary(rows: readonly StatementTableRow[], kinds: readonly StatementKind[]) {
  const { t } = useTranslation();
  const language = useLanguage();
  const first = rows[0];
  if (!first || rows.some((r) => r.BuildingId !== first.BuildingId)) return undefined;
  // The columns before this month's: the flat, the occupant (a flat with a move shown), the area.
  const before = 1 + (rows.some((r) => r.Occupant) ? 1 : 0) + (rows.some((r) => r.AreaM2 !== null) ? 1 : 0);
  const average = (kind: StatementKind): ReactNode => {
    const k = rows.map((r) => kindOf(r, kind)).find(Boolean);
    return k ? formatNumber(k.BuildingAverage, language, DIGITS[k.Unit]) : '';
  };
  return () => (
    <Table.Summary.Row>
      <Table.Summary.Cell index={0} colSpan={before}>
        <Typography.Text strong>{t('statements.averageFlat')}</Typography.Text>
      </Table.Summary.Cell>
      {kinds.map((kind, i) => (
        <Table.Summary.Cell key={kind} index={before + i} align="right">
          {average(kind)}
        </Table.Summary.Cell>
      ))}
    </Table.Summary.Row>
  );
}
