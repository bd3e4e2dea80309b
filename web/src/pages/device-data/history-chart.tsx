import type { DeviceHistory, HistoryPoint } from '@rodmenys/contract';
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
import { formatDateTime } from '../../format';

/** A bucket's label: the hour, the day, or the month it starts. */
export function bucketLabel(history: Pick<DeviceHistory, 'Bucket'>, time: string): string {
  if (history.Bucket === 'hour') return formatDateTime(time).slice(5);
  if (history.Bucket === 'month') return time.slice(0, 7);
  return time.slice(0, 10);
}

const fixed = (n: number) => n.toFixed(3);

function PointTooltip({ active, payload, history }: TooltipContentProps<number, string> & { history: DeviceHistory }) {
  const { t } = useTranslation();
  const point = payload?.[0]?.payload as HistoryPoint | undefined;
  if (!active || !point) return null;
  const unit = t(`deviceData.units.${history.DataLoadProc}`);
  return (
    <div className="history-tooltip">
      <strong>{bucketLabel(history, point.Time)}</strong>
      <div>
        {t('deviceData.history.value')}: {fixed(point.Value)} {unit}
      </div>
      <div>
        {t('deviceData.history.consumption')}: {fixed(point.Consumption)} {unit}
      </div>
      <div>
        {t('deviceData.history.firstReading')}: {formatDateTime(point.FirstReadingTime)}
      </div>
      <div>
        {t('deviceData.history.lastReading')}: {formatDateTime(point.LastReadingTime)}
      </div>
      <div>{t('deviceData.history.readings', { count: point.Readings })}</div>
    </div>
  );
}

/** The cumulative value (line) and the consumption per bucket (bars) of one device over the period. */
export default function HistoryChart({ history }: { history: DeviceHistory }) {
  const { t } = useTranslation();
  const unit = t(`deviceData.units.${history.DataLoadProc}`);
  return (
    <ResponsiveContainer width="100%" height={360}>
      <ComposedChart data={history.Points} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="Time" tickFormatter={(time: string) => bucketLabel(history, time)} minTickGap={24} />
        <YAxis yAxisId="value" domain={['auto', 'auto']} tickFormatter={fixed} width={90} />
        <YAxis yAxisId="consumption" orientation="right" tickFormatter={fixed} width={80} />
        <Tooltip
          content={(props) => <PointTooltip {...(props as TooltipContentProps<number, string>)} history={history} />}
        />
        <Legend />
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
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
