import {
  type DeviceHistory,
  type HistoryPoint,
  MONTH_END_SOURCES,
  type MonthEndRow,
  type MonthEndSource,
} from '@rodmenys/contract';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  type TooltipContentProps,
  XAxis,
  YAxis,
} from 'recharts';
import { ChartLegend } from '../../components/chart-legend';
import { formatDateTime } from '../../format';

/** A bucket's label: the hour, the day, or the month it starts. */
export function bucketLabel(history: Pick<DeviceHistory, 'Bucket'>, time: string): string {
  if (history.Bucket === 'hour') return formatDateTime(time).slice(5);
  if (history.Bucket === 'month') return time.slice(0, 7);
  return time.slice(0, 10);
}

const fixed = (n: number) => n.toFixed(3);

/** How each source of a month-end value is drawn: measured values plain, the others each their own mark. */
export const MONTH_END_MARKS: Record<
  MonthEndSource,
  { color: string; shape: 'circle' | 'square' | 'triangle' | 'diamond' }
> = {
  measured: { color: '#237804', shape: 'circle' },
  memory: { color: '#006d75', shape: 'square' },
  interpolated: { color: '#ad4e00', shape: 'triangle' },
  estimated: { color: '#cf1322', shape: 'diamond' },
  manual: { color: '#531dab', shape: 'square' },
  declared: { color: '#0050b3', shape: 'circle' },
};

const monthEndKey = (source: MonthEndSource) => `monthEnd_${source}` as const;

/** A bucket of readings, or the instant of a month end, or both (a month end at a bucket's start). */
type Datum = Partial<HistoryPoint> & { Time: string; monthEnd?: MonthEndRow } & Partial<
    Record<ReturnType<typeof monthEndKey>, number>
  >;

/**
 * The buckets with the month-end values laid in by time: a month end at a bucket's start is drawn on
 * that bucket; any other (a silent device's estimate has no bucket) gets a place of its own.
 */
export function withMonthEnds(points: HistoryPoint[], monthEnds: readonly MonthEndRow[]): Datum[] {
  const data: Datum[] = points.map((p) => ({ ...p }));
  for (const m of monthEnds) {
    const at = Date.parse(m.MonthEnd);
    let datum = data.find((d) => Date.parse(d.Time) === at);
    if (!datum) {
      datum = { Time: m.MonthEnd };
      data.push(datum);
    }
    datum.monthEnd = m;
    datum[monthEndKey(m.Source)] = m.Value;
  }
  return data.sort((a, b) => Date.parse(a.Time) - Date.parse(b.Time));
}

function PointTooltip({ active, payload, history }: TooltipContentProps<number, string> & { history: DeviceHistory }) {
  const { t } = useTranslation();
  const point = payload?.[0]?.payload as Datum | undefined;
  if (!active || !point) return null;
  const unit = t(`deviceData.units.${history.DataLoadProc}`);
  const monthEnd = point.monthEnd;
  return (
    <div className="history-tooltip">
      <strong>{bucketLabel(history, point.Time)}</strong>
      {point.Value !== undefined && (
        <div>
          {t('deviceData.history.value')}: {fixed(point.Value)} {unit}
        </div>
      )}
      {point.Consumption !== undefined && (
        <div>
          {t('deviceData.history.consumption')}: {fixed(point.Consumption)} {unit}
        </div>
      )}
      {point.FirstReadingTime && (
        <div>
          {t('deviceData.history.firstReading')}: {formatDateTime(point.FirstReadingTime)}
        </div>
      )}
      {point.LastReadingTime && (
        <div>
          {t('deviceData.history.lastReading')}: {formatDateTime(point.LastReadingTime)}
        </div>
      )}
      {point.Readings !== undefined && <div>{t('deviceData.history.readings', { count: point.Readings })}</div>}
      {monthEnd && (
        <div>
          {t('deviceData.history.monthEndValue', {
            month: monthEnd.Month,
            source: t(`anomalies.sources.${monthEnd.Source}`),
          })}
          : {fixed(monthEnd.Value)} {unit}
        </div>
      )}
    </div>
  );
}

/** A month-end value's mark: its source's colour and shape. */
function MonthEndDot({ cx, cy, source }: { cx?: number; cy?: number; source: MonthEndSource }) {
  if (cx === undefined || cy === undefined || !Number.isFinite(cy)) return null;
  const { color, shape } = MONTH_END_MARKS[source];
  const r = 6;
  const common = { fill: color, stroke: '#fff', strokeWidth: 1.5 };
  if (shape === 'circle') return <circle cx={cx} cy={cy} r={r} {...common} />;
  if (shape === 'square') return <rect x={cx - r} y={cy - r} width={2 * r} height={2 * r} {...common} />;
  if (shape === 'triangle')
    return <polygon points={`${cx},${cy - r - 1} ${cx + r},${cy + r} ${cx - r},${cy + r}`} {...common} />;
  return (
    <polygon points={`${cx},${cy - r - 2} ${cx + r + 1},${cy} ${cx},${cy + r + 2} ${cx - r - 1},${cy}`} {...common} />
  );
}

/**
 * The cumulative value (line) and the consumption per bucket (bars) of one device over the period,
 * with its month-end values marked by source (docs/data-quality.md): an estimate or an interpolation
 * is told apart from a measured value at a glance, and in the legend.
 */
export default function HistoryChart({
  history,
  monthEnds = [],
}: {
  history: DeviceHistory;
  monthEnds?: readonly MonthEndRow[];
}) {
  const { t } = useTranslation();
  const unit = t(`deviceData.units.${history.DataLoadProc}`);
  const data = withMonthEnds(history.Points, monthEnds);
  const sources = MONTH_END_SOURCES.filter((s) => monthEnds.some((m) => m.Source === s));
  return (
    <ResponsiveContainer width="100%" height={360}>
      <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="Time" tickFormatter={(time: string) => bucketLabel(history, time)} minTickGap={24} />
        <YAxis yAxisId="value" domain={['auto', 'auto']} tickFormatter={fixed} width={90} />
        <YAxis yAxisId="consumption" orientation="right" tickFormatter={fixed} width={80} />
        <Tooltip
          content={(props) => <PointTooltip {...(props as TooltipContentProps<number, string>)} history={history} />}
        />
        <Legend content={(p) => <ChartLegend payload={p.payload} />} />
        <Bar
          yAxisId="consumption"
          dataKey="Consumption"
          name={`${t('deviceData.history.consumption')}, ${unit}`}
          fill="#91caff"
          isAnimationActive={false}
        />
        <Line
          yAxisId="value"
          dataKey="Value"
          name={`${t('deviceData.history.value')}, ${unit}`}
          stroke="#1677ff"
          dot={history.Points.length < 60}
          connectNulls
          isAnimationActive={false}
        />
        {sources.map((source) => (
          <Line
            key={source}
            yAxisId="value"
            dataKey={monthEndKey(source)}
            name={t('deviceData.history.monthEnd', { source: t(`anomalies.sources.${source}`) })}
            // No line between the marks; the colour is for the legend's icon.
            stroke={MONTH_END_MARKS[source].color}
            strokeWidth={0}
            legendType={MONTH_END_MARKS[source].shape === 'triangle' ? 'triangle' : MONTH_END_MARKS[source].shape}
            color={MONTH_END_MARKS[source].color}
            fill={MONTH_END_MARKS[source].color}
            dot={(props) => (
              <MonthEndDot key={`${source}-${props.index}`} cx={props.cx} cy={props.cy} source={source} />
            )}
            activeDot={false}
            isAnimationActive={false}
          />
        ))}
      </ComposedChart>
    </ResponsiveContainer>
  );
}
