import { ArrowLeftOutlined, FilePdfOutlined } from '@ant-design/icons';
import type { MonthEndSource, OccupancyKindFigures, OccupantStatement, StatementFigure } from '@rodmenys/contract';
import { App, Button, Card, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { downloadOccupantPdf, useOccupantProfile, useOccupantStatement } from '../../api/occupant';
import { ChartLegend } from '../../components/chart-legend';
import { LoadError, useErrorText } from '../../components/load-error';
import { formatDecimal, formatNumber, monthName } from '../../format';
import { useLanguage } from '../../i18n';
import { HeatPartsBar } from '../statements/heat-bars';
import { DIGITS, formatFigure, KIND_COLORS, overdueDevicesText } from '../statements/statement-format';
import { formatDay, occupantAddress } from './occupant-format';
import { usePageTitle } from './page-title';
import { OCCUPANT_MONTHS } from './paths';

/** Sources of a month-end or moving-day value that were not read from the meter (docs/data-quality.md). */
const NOT_READ: readonly MonthEndSource[] = ['interpolated', 'estimated', 'manual'];

/** The figures of the statement that are partly estimated, and how their values were found. */
export function estimatedSources(kinds: readonly OccupancyKindFigures[]): MonthEndSource[] {
  const found = new Set<MonthEndSource>();
  for (const k of kinds)
    for (const f of [k.Current, k.Previous, k.LastYear])
      if (f?.Partial) for (const s of f.Sources) if (NOT_READ.includes(s)) found.add(s);
  return NOT_READ.filter((s) => found.has(s));
}

/**
 * One month's statement for the occupant (docs/occupant-access.md, "The occupant's pages"):
 * each kind's figures with what they mean in plain words, this month against the month before
 * and a year before, the occupancy's own months as a chart, and the PDF.
 */
export default function OccupantStatementPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { month = '' } = useParams();
  const statement = useOccupantStatement(month);
  const profile = useOccupantProfile();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [busy, setBusy] = useState(false);
  const title = t('occupant.statement.title', { month: monthName(month, language) });
  usePageTitle(title);
  const pdf = async () => {
    setBusy(true);
    try {
      await downloadOccupantPdf(
        month,
        language,
        `${t('occupant.statement.file', { month, flat: profile.data?.Flat ?? '' }).replace(/[\\/:*?"<>|]+/g, ' ')}.pdf`,
      );
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Link to={OCCUPANT_MONTHS} className="occupant-back">
        <ArrowLeftOutlined aria-hidden /> {t('occupant.statement.back')}
      </Link>
      <Typography.Title level={1} className="page-title">
        {title}
      </Typography.Title>
      {profile.data && <Typography.Paragraph strong>{occupantAddress(profile.data, t)}</Typography.Paragraph>}
      {statement.error && <LoadError error={statement.error} onRetry={() => void statement.refetch()} />}
      {statement.isPending && <Skeleton active paragraph={{ rows: 6 }} />}
      {statement.data && (
        <>
          <Typography.Paragraph>
            {t('occupant.statement.days', {
              from: formatDay(statement.data.Statement.From, language),
              till: formatDay(statement.data.Statement.Till, language),
              count: statement.data.Statement.Days,
            })}{' '}
            {t('occupant.statement.published', { day: formatDay(statement.data.PublishedAt.slice(0, 10), language) })}
          </Typography.Paragraph>
          <Button icon={<FilePdfOutlined aria-hidden />} loading={busy} onClick={() => void pdf()}>
            {t('occupant.statement.pdf')}
          </Button>
          <StatementBody statement={statement.data} />
        </>
      )}
    </>
  );
}

function StatementBody({ statement }: { statement: OccupantStatement }) {
  const { t } = useTranslation();
  const kinds = statement.Statement.Kinds;
  const sources = estimatedSources(kinds);
  // Readings the occupant declared (docs/declared-readings.md) are named as such.
  const declared = kinds.some((k) => k.Current.Sources.includes('declared'));
  const incomplete = kinds.some((k) =>
    [k.Current, k.Previous, k.LastYear].some((f) => f?.Value === null && f.Incomplete),
  );
  if (kinds.length === 0)
    return <Typography.Paragraph style={{ marginTop: 16 }}>{t('occupant.statement.noKinds')}</Typography.Paragraph>;
  return (
    <>
      {kinds.map((k) => (
        <KindCard key={k.Kind} k={k} history={statement.History} />
      ))}
      <Card
        className="occupant-section"
        title={<h2 className="occupant-card-title">{t('occupant.statement.notes')}</h2>}
        style={{ marginTop: 16 }}
      >
        {sources.length > 0 && (
          <>
            <Typography.Paragraph style={{ marginBottom: 4 }}>{t('occupant.explain.estimated')}</Typography.Paragraph>
            <ul>
              {sources.map((s) => (
                <li key={s}>{t(`occupant.explain.source.${s}`)}</li>
              ))}
            </ul>
          </>
        )}
        {declared && <Typography.Paragraph>{t('occupant.explain.declared')}</Typography.Paragraph>}
        {incomplete && <Typography.Paragraph>{t('occupant.explain.missing')}</Typography.Paragraph>}
        <Typography.Paragraph>{t('occupant.explain.average')}</Typography.Paragraph>
        <Typography.Paragraph style={{ marginBottom: 0 }}>{t('occupant.explain.days')}</Typography.Paragraph>
      </Card>
    </>
  );
}

/** How a kind's figure was measured or shared, in plain words. */
function kindExplanation(k: OccupancyKindFigures, t: ReturnType<typeof useTranslation>['t'], language: string) {
  if (k.Kind === 'heating' && k.Units !== null) {
    const qrad = formatNumber(k.Qrad, language, DIGITS.Qrad);
    return k.Unit === 'kWh'
      ? t('occupant.explain.allocatorsKwh', {
          qrad,
          kwh: k.Current.Value === null ? t('statements.missing') : formatNumber(k.Current.Value, language, DIGITS.kWh),
        })
      : t('occupant.explain.allocatorsQrad', { qrad });
  }
  if (k.Kind === 'heating') return t('occupant.explain.heatMeter');
  return t(`occupant.explain.${k.Kind}`);
}

function KindCard({ k, history }: { k: OccupancyKindFigures; history: OccupantStatement['History'] }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const unit = t(`statements.units.${k.Unit}`);
  const kind = t(`statements.kinds.${k.Kind}`);
  const digits = DIGITS[k.Unit];
  const figure = (f: StatementFigure | null, missing: string | null) =>
    f
      ? f.Value === null && !f.Incomplete
        ? '–'
        : formatFigure(f, language, t, digits)
      : t(`occupant.statement.noComparison.${missing ?? 'none'}`);
  const months = history
    .map((h) => ({ month: h.Month, value: h.Kinds.find((x) => x.Kind === k.Kind)?.Value ?? null }))
    .filter((m) => m.value !== null);
  const comparison = [
    { name: t('occupant.chart.previous'), value: k.Previous?.Value ?? null },
    { name: t('occupant.chart.current'), value: k.Current.Value },
    { name: t('occupant.chart.lastYear'), value: k.LastYear?.Value ?? null },
  ];
  const series = `${kind} (${unit})`;
  return (
    <Card
      className="occupant-section"
      style={{ marginTop: 16 }}
      title={<h2 className="occupant-card-title">{`${kind}, ${unit}`}</h2>}
    >
      <dl className="occupant-figures">
        <dt>{t('occupant.statement.current')}</dt>
        <dd className="occupant-figure-main">{figure(k.Current, null)}</dd>
        <dt>{t('statements.previous')}</dt>
        <dd>{figure(k.Previous, k.PreviousMissing)}</dd>
        <dt>{t('statements.lastYear')}</dt>
        <dd>{figure(k.LastYear, k.LastYearMissing)}</dd>
        {k.BuildingAverage !== null && (
          <>
            <dt>{t('statements.averageFlat')}</dt>
            <dd>{formatNumber(k.BuildingAverage, language, digits)}</dd>
          </>
        )}
        {k.Units !== null && (
          <>
            <dt>{t('statements.units.units')}</dt>
            <dd>{formatNumber(k.Units, language, DIGITS.units)}</dd>
            <dt>{t('statements.units.Qrad')}</dt>
            <dd>{formatNumber(k.Qrad, language, DIGITS.Qrad)}</dd>
          </>
        )}
      </dl>
      <Typography.Paragraph style={{ marginTop: 12 }}>{kindExplanation(k, t, language)}</Typography.Paragraph>
      {k.HeatParts && (
        <>
          <HeatPartsBar
            p={k.HeatParts}
            title={t('occupant.explain.heatBar', { total: formatDecimal(k.HeatParts.Total, language, 3) })}
          />
          <Typography.Paragraph>{t('occupant.explain.heatPartsSplit')}</Typography.Paragraph>
        </>
      )}
      {k.Overdue.length > 0 && (
        <Typography.Paragraph>
          {t('occupant.explain.overdue', { devices: overdueDevicesText(k, t) })}
        </Typography.Paragraph>
      )}
      {k.LateDeclarations.length > 0 && (
        <Typography.Paragraph>
          {t('occupant.explain.lateDeclaration', { months: k.LateDeclarations.join(', ') })}
        </Typography.Paragraph>
      )}
      <figure className="occupant-chart" aria-label={`${t('occupant.chart.compare')}: ${series}`}>
        <figcaption className="occupant-chart-caption">{t('occupant.chart.compare')}</figcaption>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={comparison} margin={{ top: 22, right: 4, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="name" tick={{ fontSize: 11 }} interval={0} />
            <YAxis
              width={48}
              tick={{ fontSize: 11 }}
              tickFormatter={(v: number) => formatDecimal(v, language, 1)}
              label={{ value: unit, position: 'top', offset: 10, fontSize: 11 }}
            />
            <Tooltip formatter={(v) => formatNumber(typeof v === 'number' ? v : null, language, digits)} />
            <Bar dataKey="value" name={series} fill={KIND_COLORS[k.Kind]} isAnimationActive={false} />
            <Legend content={(p) => <ChartLegend payload={p.payload} />} />
          </BarChart>
        </ResponsiveContainer>
      </figure>
      {months.length > 1 && (
        <>
          <figure className="occupant-chart" aria-label={`${t('occupant.chart.history')}: ${series}`}>
            <figcaption className="occupant-chart-caption">{t('occupant.chart.history')}</figcaption>
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={months} margin={{ top: 22, right: 4, bottom: 0, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="month" tick={{ fontSize: 11 }} tickFormatter={(m: string) => shortMonth(m, language)} />
                <YAxis
                  width={48}
                  tick={{ fontSize: 11 }}
                  tickFormatter={(v: number) => formatDecimal(v, language, 1)}
                  label={{ value: unit, position: 'top', offset: 10, fontSize: 11 }}
                />
                <Tooltip
                  labelFormatter={(m) => monthName(String(m), language)}
                  formatter={(v) => formatNumber(typeof v === 'number' ? v : null, language, digits)}
                />
                <Bar dataKey="value" name={series} fill={KIND_COLORS[k.Kind]} isAnimationActive={false} />
                <Legend content={(p) => <ChartLegend payload={p.payload} />} />
              </BarChart>
            </ResponsiveContainer>
          </figure>
          <details className="occupant-history-table">
            <summary>{t('occupant.chart.asTable')}</summary>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('statements.month')}</th>
                  <th scope="col">{unit}</th>
                </tr>
              </thead>
              <tbody>
                {months.map((m) => (
                  <tr key={m.month}>
                    <th scope="row">{monthName(m.month, language)}</th>
                    <td>{formatNumber(m.value, language, digits)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </Card>
  );
}

/** A month on a narrow axis: "Oct 26" (en), "26-10" (lt). */
const shortMonth = (month: string, language: string) =>
  language === 'en'
    ? new Date(`${month}-15T12:00:00Z`).toLocaleDateString('en-GB', {
        month: 'short',
        year: '2-digit',
        timeZone: 'UTC',
      })
    : `${month.slice(2, 4)}-${month.slice(5, 7)}`;
