import { hasMonthEndValue, type ReadingRow } from '@rodmenys/contract';
import { Empty, Modal, Spin, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useMonthEnds } from '../../api/data-quality';
import { useDeviceHistory } from '../../api/device-data';
import { LoadError } from '../../components/load-error';
import type { Period } from './period';
import { periodQuery } from './period';

// The chart library is loaded only when a chart is opened.
const HistoryChart = lazy(() => import('./history-chart'));

/**
 * The months whose end (the first instant of the next month) falls inside the period, from its first
 * instant to the end of its last day; null when none does.
 */
export function monthEndsIn(period: Period): { from: string; till: string } | null {
  const from = period[0].subtract(1, 'day').format('YYYY-MM');
  const till = period[1].add(1, 'day').subtract(1, 'month').format('YYYY-MM');
  return from <= till ? { from, till } : null;
}

function HistoryBody({ row, period }: { row: ReadingRow; period: Period }) {
  const { t } = useTranslation();
  const history = useDeviceHistory(row.DeviceId, periodQuery(period));
  const months = monthEndsIn(period);
  // Month-end values are a marking on the chart: if they cannot be loaded the chart still shows.
  const monthEnds = useMonthEnds(row.DeviceId, months ?? { from: '2000-01', till: '2000-01' }, months !== null);
  if (history.error) return <LoadError error={history.error} onRetry={() => void history.refetch()} />;
  if (!history.data) return <Spin description={t('common.loading')}>{<div style={{ height: 360 }} />}</Spin>;
  if (history.data.Points.length === 0) return <Empty description={t('deviceData.history.empty')} />;
  return (
    <>
      <Typography.Paragraph type="secondary">
        {t(`deviceData.history.bucket.${history.data.Bucket}`)}
      </Typography.Paragraph>
      <Suspense fallback={<Spin>{<div style={{ height: 360 }} />}</Spin>}>
        <HistoryChart history={history.data} monthEnds={(monthEnds.data ?? []).filter(hasMonthEndValue)} />
      </Suspense>
    </>
  );
}

/** A device's readings over the period as a chart, opened from a readings row. */
export function HistoryModal({
  row,
  period,
  onClose,
}: {
  row: ReadingRow | null;
  period: Period;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={row !== null}
      onCancel={onClose}
      footer={null}
      width={900}
      destroyOnHidden
      title={
        row
          ? t('deviceData.history.title', {
              code: row.DeviceCode,
              from: period[0].format('YYYY-MM-DD'),
              till: period[1].format('YYYY-MM-DD'),
            })
          : ''
      }
    >
      {row && <HistoryBody row={row} period={period} />}
    </Modal>
  );
}
