import { FilePdfOutlined, PrinterOutlined } from '@ant-design/icons';
import { type FlatStatement, getStatementsPdf, type StatementKindFigures } from '@rodmenys/contract';
import { App, Button, Drawer, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Text, Tooltip, XAxis, YAxis } from 'recharts';
import { downloadFile } from '../../api/call';
import { useFlatStatement } from '../../api/statements';
import { LoadError, useErrorText } from '../../components/load-error';
import { formatDecimal } from '../../format';
import { useLanguage } from '../../i18n';
import { HeatNotes } from './heat-notes';
import { OccupantStatements } from './occupant-statements';
import { flatFileName } from './statement-files';
import { DIGITS, formatFigure, KIND_COLORS, overdueDevicesText } from './statement-format';
import './statements.css';
import { ChartLegend } from '../../components/chart-legend';

const num = (v: number | null | undefined, language: string, digits = 3) =>
  v === null || v === undefined
    ? ''
    : v.toLocaleString(language, { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Room above the plot for the unit. */
const CHART_MARGIN = { top: 26, right: 5, bottom: 5, left: 5 };

/**
 * A category tick wrapped onto lines within its share of the axis: the comparison charts' two long
 * labels ("Tas pats mėnuo pernai", "Šis mėnuo") side by side in a third of a tablet's drawer.
 */
function WrappedTick(props: {
  x?: number;
  y?: number;
  width?: number;
  visibleTicksCount?: number;
  fill?: string;
  payload?: { value: string };
}) {
  const { x, y, width = 0, visibleTicksCount = 1, fill, payload } = props;
  return (
    <Text
      x={x}
      y={y}
      width={Math.max(40, width / visibleTicksCount - 4)}
      textAnchor="middle"
      verticalAnchor="start"
      fontSize={11}
      fill={fill}
    >
      {payload?.value ?? ''}
    </Text>
  );
}

/**
 * A chart's value axis: ticks in the UI language and the unit written above it (unrotated, clear
 * of the top tick, so a printed page keeps every text box apart).
 */
const valueAxis = (unit: string, language: string, width: number) => (
  <YAxis
    width={width}
    tickFormatter={(v: number) => formatDecimal(v, language)}
    label={{ value: unit, position: 'top', offset: 14, fontSize: 11 }}
  />
);

/** One flat's statement for the month: figures, notes and charts; printable and as PDF. */
export function FlatStatementDrawer({
  flatId,
  month,
  onClose,
}: {
  flatId: number | null;
  month: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const statement = useFlatStatement(flatId, month);
  const [busy, setBusy] = useState(false);
  const pdf = async () => {
    if (!flatId || !statement.data) return;
    setBusy(true);
    try {
      await downloadFile(
        getStatementsPdf,
        { query: { month, locationParentId: String(flatId), lang: language } },
        `${flatFileName(t, month, statement.data.Row)}.pdf`,
      );
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Drawer
      open={flatId !== null}
      onClose={onClose}
      width={860}
      title={t('statements.statementTitle')}
      rootClassName="statement-print"
      extra={
        <Space className="no-print">
          <Button icon={<PrinterOutlined aria-hidden />} onClick={() => window.print()} disabled={!statement.data}>
            {t('statements.print')}
          </Button>
          <Button
            icon={<FilePdfOutlined aria-hidden />}
            loading={busy}
            onClick={() => void pdf()}
            disabled={!statement.data}
          >
            {t('statements.pdf')}
          </Button>
        </Space>
      }
    >
      {statement.error && <LoadError error={statement.error} onRetry={() => void statement.refetch()} />}
      {statement.data && <StatementView statement={statement.data} />}
      {statement.data && flatId !== null && <OccupantStatements flatId={flatId} month={month} />}
    </Drawer>
  );
}

/**
 * How allocators' kWh were found: the building line (the building meter's energy, what was
 * subtracted for the flats with their own heat meter, E) and the method.
 */
function KwhNotes({ k }: { k: StatementKindFigures }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const kwh = (v: number | null) => (v === null ? t('statements.missing') : num(v, language));
  const line = k.BuildingLine;
  const flats = line?.Subtracted.map((f) => t('statements.subtractedFlat', { flat: f.Flat, kwh: kwh(f.Kwh) })).join(
    ', ',
  );
  return (
    <>
      {line && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
          {line.Subtracted.length
            ? t('statements.buildingLine', {
                meter: kwh(line.MeterKwh),
                subtracted: kwh(line.SubtractedKwh),
                flats,
                e: kwh(line.AllocatorKwh),
              })
            : t('statements.buildingLineNoFlats', { meter: kwh(line.MeterKwh) })}
        </Typography.Paragraph>
      )}
      <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
        {t(`statements.method.${k.KwhMethod}`, { kwh: kwh(line?.AllocatorKwh ?? null) })}
      </Typography.Paragraph>
    </>
  );
}

function StatementView({ statement }: { statement: FlatStatement }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const r = statement.Row;
  const address = [r.City, [r.Street, r.Building].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const monthLabel = new Date(`${statement.Month}-15T12:00:00Z`).toLocaleDateString(language, {
    year: 'numeric',
    month: 'long',
  });
  type Line = { key: string; label: string; value: (k: StatementKindFigures) => string };
  const lines: Line[] = [
    {
      key: 'current',
      label: t('statements.current'),
      value: (k) => formatFigure(k.Current, language, t, DIGITS[k.Unit]),
    },
    {
      key: 'previous',
      label: t('statements.previous'),
      value: (k) => formatFigure(k.Previous, language, t, DIGITS[k.Unit]),
    },
    {
      key: 'lastYear',
      label: t('statements.lastYear'),
      value: (k) => formatFigure(k.LastYear, language, t, DIGITS[k.Unit]),
    },
  ];
  if (r.Kinds.some((k) => k.LastYearCorrected !== null))
    lines.push({
      key: 'corrected',
      label: t('statements.corrected'),
      value: (k) => num(k.LastYearCorrected, language, DIGITS[k.Unit]),
    });
  lines.push({
    key: 'average',
    label: t('statements.averageFlat'),
    value: (k) => num(k.BuildingAverage, language, DIGITS[k.Unit]),
  });
  if (r.Kinds.some((k) => k.BuildingAveragePerM2 !== null))
    lines.push({
      key: 'averageM2',
      label: t('statements.averageM2'),
      value: (k) => num(k.BuildingAveragePerM2, language, 4),
    });
  if (r.Kinds.some((k) => k.Units !== null)) {
    lines.push({
      key: 'units',
      label: t('statements.units.units'),
      value: (k) => num(k.Units, language, DIGITS.units),
    });
    lines.push({ key: 'qrad', label: t('statements.units.Qrad'), value: (k) => num(k.Qrad, language, DIGITS.Qrad) });
  }
  return (
    <div>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        {address}, {t('statements.flat').toLowerCase()} {r.Flat}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 12 }}>
        <Typography.Text strong>{monthLabel}</Typography.Text>
        {r.AreaM2 !== null && (
          <Typography.Text>
            {t('statements.area')}: {num(r.AreaM2, language, 2)} m²
          </Typography.Text>
        )}
        {r.ClientCode && (
          <Typography.Text>
            {t('statements.client')}: {r.ClientCode}
          </Typography.Text>
        )}
        {r.Published ? (
          <Tag color="green">{t('statements.publishedVersion', { version: r.Published.Version })}</Tag>
        ) : (
          <Tag>{t('statements.preliminary')}</Tag>
        )}
      </Space>
      {r.Kinds.length === 0 ? (
        <Typography.Paragraph>{t('statements.noDevices')}</Typography.Paragraph>
      ) : (
        <>
          <Table<Line>
            size="small"
            rowKey="key"
            pagination={false}
            dataSource={lines}
            columns={[
              { key: 'label', title: t('statements.figure'), render: (_: unknown, l) => l.label },
              ...r.Kinds.map((k) => ({
                key: k.Kind,
                title: `${t(`statements.kinds.${k.Kind}`)}, ${t(`statements.units.${k.Unit}`)}`,
                align: 'right' as const,
                render: (_: unknown, l: Line) => l.value(k),
              })),
            ]}
          />
          <div style={{ marginTop: 8 }}>
            {r.Kinds.map((k) =>
              k.HeatBalance ? <HeatNotes key={k.Kind} k={k} /> : k.KwhMethod ? <KwhNotes key={k.Kind} k={k} /> : null,
            )}
            {statement.DegreeDays && r.Kinds.some((k) => k.LastYearCorrected !== null) && (
              <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
                {t('statements.degreeDays', {
                  current: statement.DegreeDays.Current.toLocaleString(language),
                  lastYear: statement.DegreeDays.LastYear.toLocaleString(language),
                })}
              </Typography.Paragraph>
            )}
            {r.Kinds.some((k) => k.Overdue.length) && (
              <Typography.Paragraph type="warning" style={{ marginBottom: 4 }}>
                {t('statements.overdueNote', {
                  devices: r.Kinds.filter((k) => k.Overdue.length)
                    .map((k) => `${t(`statements.kinds.${k.Kind}`)} – ${overdueDevicesText(k, t)}`)
                    .join('; '),
                })}
              </Typography.Paragraph>
            )}
            {r.Kinds.some((k) => k.LateDeclarations.length) && (
              <Typography.Paragraph type="warning" style={{ marginBottom: 4 }}>
                {t('statements.lateNote', {
                  months: r.Kinds.filter((k) => k.LateDeclarations.length)
                    .map((k) => `${t(`statements.kinds.${k.Kind}`)} – ${k.LateDeclarations.join(', ')}`)
                    .join('; '),
                })}
              </Typography.Paragraph>
            )}
            {r.Kinds.some((k) => k.Current.Partial || k.Previous.Partial || k.LastYear.Partial) && (
              <Typography.Paragraph type="secondary">{t('statements.partialNote')}</Typography.Paragraph>
            )}
          </div>
          <Typography.Title level={3}>{t('statements.chartYear')}</Typography.Title>
          {/* A grid sized by the drawer, not by the window: printing keeps the charts where they are. */}
          <div className="statement-charts">
            {r.Kinds.map((k) => (
              <div key={k.Kind}>
                <figure
                  aria-label={`${t('statements.chartYear')}: ${t(`statements.kinds.${k.Kind}`)}`}
                  style={{ margin: 0, height: 220 }}
                >
                  <ResponsiveContainer width="100%" height="100%">
                    <BarChart
                      margin={CHART_MARGIN}
                      data={[
                        { name: t('statements.lastYear'), value: k.LastYearCorrected ?? k.LastYear.Value },
                        { name: t('statements.current'), value: k.Current.Value },
                      ]}
                    >
                      <CartesianGrid strokeDasharray="3 3" />
                      <XAxis dataKey="name" interval={0} height={40} tick={(p: object) => <WrappedTick {...p} />} />
                      {valueAxis(t(`statements.units.${k.Unit}`), language, 64)}
                      <Tooltip formatter={(v) => num(typeof v === 'number' ? v : null, language)} />
                      <Bar
                        dataKey="value"
                        name={`${t(`statements.kinds.${k.Kind}`)} (${t(`statements.units.${k.Unit}`)})`}
                        fill={KIND_COLORS[k.Kind]}
                        isAnimationActive={false}
                      />
                      <Legend content={(p) => <ChartLegend payload={p.payload} />} />
                    </BarChart>
                  </ResponsiveContainer>
                </figure>
              </div>
            ))}
          </div>
          <Typography.Title level={3}>{t('statements.chartHistory')}</Typography.Title>
          {statement.History.map((h) => (
            <figure
              key={h.Kind}
              aria-label={`${t('statements.chartHistory')}: ${t(`statements.kinds.${h.Kind}`)}`}
              style={{ margin: '0 0 12px', height: 180 }}
            >
              <ResponsiveContainer width="100%" height="100%">
                <BarChart margin={CHART_MARGIN} data={h.Months.map((m) => ({ month: m.Month, value: m.Value }))}>
                  <CartesianGrid strokeDasharray="3 3" />
                  {/* Months that do not fit side by side are thinned out (a tablet); printed, all fit. */}
                  <XAxis dataKey="month" interval="preserveStartEnd" minTickGap={2} tick={{ fontSize: 11 }} />
                  {valueAxis(t(`statements.units.${h.Unit}`), language, 80)}
                  <Tooltip formatter={(v) => num(typeof v === 'number' ? v : null, language)} />
                  <Bar
                    dataKey="value"
                    name={`${t(`statements.kinds.${h.Kind}`)} (${t(`statements.units.${h.Unit}`)})`}
                    fill={KIND_COLORS[h.Kind]}
                    isAnimationActive={false}
                  />
                  <Legend content={(p) => <ChartLegend payload={p.payload} />} />
                </BarChart>
              </ResponsiveContainer>
            </figure>
          ))}
        </>
      )}
    </div>
  );
}
