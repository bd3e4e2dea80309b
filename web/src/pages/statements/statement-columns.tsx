import { CheckCircleOutlined } from '@ant-design/icons';
import type { StatementKind, StatementRow } from '@rodmenys/contract';
import { Button, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../i18n';
import { addressOf, formatFigure, formatNumber, kindOf, MARKER_COLORS } from './statement-format';

/** The one unit every shown flat has for `kind`, else null (then a column names it per flat). */
export function unitOf(rows: readonly StatementRow[], kind: StatementKind): string | null {
  const units = new Set(rows.map((r) => kindOf(r, kind)?.Unit).filter(Boolean));
  return units.size === 1 ? ([...units][0] ?? null) : null;
}

type Column = ColumnsType<StatementRow>[number];

function figureColumn(
  kind: StatementKind,
  field: 'Current' | 'Previous' | 'LastYear',
  title: string,
  language: string,
  t: TFunction,
): Column {
  return {
    key: `${kind}.${field}`,
    title,
    align: 'right',
    sorter: (a, b) => (kindOf(a, kind)?.[field].Value ?? -1) - (kindOf(b, kind)?.[field].Value ?? -1),
    render: (_: unknown, r: StatementRow) => {
      const k = kindOf(r, kind);
      return k ? formatFigure(k[field], language, t) : '';
    },
  };
}

/** The columns of one kind: this month, the month before, last year, the building average (and the unit if it varies). */
function kindColumn(kind: StatementKind, rows: readonly StatementRow[], language: string, t: TFunction): Column {
  const unit = unitOf(rows, kind);
  return {
    key: kind,
    // One unit for every flat: named in the heading; else a column says it per flat.
    title: unit ? `${t(`statements.kinds.${kind}`)}, ${t(`statements.units.${unit}`)}` : t(`statements.kinds.${kind}`),
    children: [
      ...(unit
        ? []
        : [
            {
              key: `${kind}.unit`,
              title: t('statements.unit'),
              render: (_: unknown, r: StatementRow) => {
                const k = kindOf(r, kind);
                return k ? t(`statements.units.${k.Unit}`) : '';
              },
            },
          ]),
      figureColumn(kind, 'Current', t('statements.current'), language, t),
      figureColumn(kind, 'Previous', t('statements.previous'), language, t),
      figureColumn(kind, 'LastYear', t('statements.lastYear'), language, t),
      {
        key: `${kind}.average`,
        title: t('statements.average'),
        align: 'right' as const,
        render: (_: unknown, r: StatementRow) => formatNumber(kindOf(r, kind)?.BuildingAverage, language),
      },
    ],
  };
}

/** The Statements table's columns: address, flat (opens its statement), area, each kind, markers, state. */
export function useStatementColumns(
  rows: readonly StatementRow[],
  kinds: readonly StatementKind[],
  onOpen: (flatId: number) => void,
): ColumnsType<StatementRow> {
  const { t } = useTranslation();
  const language = useLanguage();
  return [
    {
      key: 'address',
      title: t('statements.address'),
      fixed: 'left',
      width: 220,
      sorter: (a, b) => addressOf(a).localeCompare(addressOf(b), language),
      render: (_: unknown, r) => addressOf(r),
    },
    {
      key: 'flat',
      title: t('statements.flat'),
      fixed: 'left',
      width: 90,
      render: (_: unknown, r) => (
        <Button
          type="link"
          size="small"
          style={{ padding: 0 }}
          aria-label={`${r.Flat} ${t('statements.openStatement')}`}
          onClick={() => onOpen(r.FlatId)}
        >
          {r.Flat}
        </Button>
      ),
    },
    {
      key: 'area',
      title: t('statements.area'),
      align: 'right',
      width: 80,
      render: (_: unknown, r) => (r.AreaM2 === null ? '' : r.AreaM2.toLocaleString(language)),
    },
    ...kinds.map((kind) => kindColumn(kind, rows, language, t)),
    {
      key: 'markers',
      title: t('statements.markers'),
      render: (_: unknown, r) => (
        <Space size={4} wrap>
          {r.Kinds.flatMap((k) =>
            k.Markers.map((m) => (
              <Tag key={`${k.Kind}.${m}`} color={MARKER_COLORS[m]}>
                {t(`statements.kinds.${k.Kind}`)}: {t(`statements.marker.${m}`)}
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
          <Tag color="green" icon={<CheckCircleOutlined />}>
            {t('statements.publishedVersion', { version: r.Published.Version })}
          </Tag>
        ) : (
          <Tag>{t('statements.preliminary')}</Tag>
        ),
    },
  ];
}
