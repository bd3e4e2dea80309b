import { type Anomaly, hasMonthEndValue, isOperator, type MonthEndListRow } from '@rodmenys/contract';
import { Empty, Table, Tag, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useMonthEnds } from '../../api/data-quality';
import { useDeviceHistory } from '../../api/device-data';
import { useDeviceMoveValues } from '../../api/occupancies';
import { LoadError } from '../../components/load-error';
import { useLanguage } from '../../i18n';
import { useProviderNow, useSession } from '../../session';
import { MonthEndActions } from './operator-panels';

// The chart library is loaded only when a device is opened.
const HistoryChart = lazy(() => import('../device-data/history-chart'));

/**
 * The device behind an anomaly: its readings of the last 90 days as a chart, and its month-end values.
 * A building's anomaly (a silent collector or connection, a building's balance) has none: nothing is asked.
 */
export function DeviceDrillDown({ anomaly }: { anomaly: Anomaly }) {
  return anomaly.DeviceId ? <DeviceOfAnomaly deviceId={anomaly.DeviceId} /> : null;
}

function DeviceOfAnomaly({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const operator = isOperator(useSession()?.GroupId ?? 0);
  const now = useProviderNow();
  const till = now();
  const from = till.subtract(90, 'day');
  const history = useDeviceHistory(deviceId, {
    dateFrom: from.format('YYYY-MM-DD'),
    dateTill: till.format('YYYY-MM-DD'),
  });
  const moveValues = useDeviceMoveValues(deviceId);
  const monthEnds = useMonthEnds(deviceId, {
    from: till.subtract(12, 'month').format('YYYY-MM'),
    till: till.format('YYYY-MM'),
  });
  const unit = history.data ? t(`deviceData.units.${history.data.DataLoadProc}`) : '';
  // One reason for every month without a value is said once, above the table, not on each row.
  const reasons = new Set((monthEnds.data ?? []).map((m) => m.Missing).filter(Boolean));
  const oneReason = reasons.size === 1 ? [...reasons][0] : undefined;
  return (
    <>
      <Typography.Title level={5}>{t('anomalies.history')}</Typography.Title>
      {history.error && <LoadError error={history.error} onRetry={() => void history.refetch()} />}
      {history.data?.Points.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('deviceData.history.empty')} />
      )}
      {history.data && history.data.Points.length > 0 && (
        <Suspense fallback={<div style={{ height: 360 }} />}>
          <HistoryChart
            history={history.data}
            monthEnds={(monthEnds.data ?? [])
              .filter(hasMonthEndValue)
              .filter((m) => Date.parse(m.MonthEnd) >= from.valueOf())}
          />
        </Suspense>
      )}
      <Typography.Title level={5}>{t('anomalies.monthEnds')}</Typography.Title>
      {oneReason && <Typography.Paragraph type="secondary">{t(`anomalies.missing.${oneReason}`)}</Typography.Paragraph>}
      <Table
        size="small"
        rowKey="Month"
        pagination={false}
        dataSource={monthEnds.data ?? []}
        columns={[
          { title: t('anomalies.month'), dataIndex: 'Month' },
          {
            title: unit ? `${t('anomalies.value')}, ${unit}` : t('anomalies.value'),
            dataIndex: 'Value',
            align: 'right' as const,
            render: (v: number | null) => (v === null ? '—' : v.toLocaleString(language)),
          },
          {
            title: t('anomalies.source'),
            dataIndex: 'Source',
            render: (s: string) => (
              <Tag
                color={s === 'measured' ? 'default' : s === 'estimated' ? 'orange' : s === 'missing' ? 'red' : 'blue'}
              >
                {t(`anomalies.sources.${s}`)}
              </Tag>
            ),
          },
          {
            title: t('anomalies.manual.reason'),
            dataIndex: 'Reason',
            // A month end without a value says why (no reading since installation, or not computed yet).
            render: (reason: string | null, row: MonthEndListRow) =>
              row.Missing && row.Missing !== oneReason ? t(`anomalies.missing.${row.Missing}`) : reason,
          },
          ...(operator
            ? [
                {
                  title: t('common.actions'),
                  key: 'actions',
                  render: (_: unknown, row: MonthEndListRow) => <MonthEndActions deviceId={deviceId} row={row} />,
                },
              ]
            : []),
        ]}
      />
      {(moveValues.data?.length ?? 0) > 0 && (
        <>
          <Typography.Title level={5}>{t('occupancies.drillDown')}</Typography.Title>
          <Table
            size="small"
            rowKey="Day"
            pagination={false}
            dataSource={moveValues.data ?? []}
            columns={[
              { title: t('occupancies.day'), dataIndex: 'Day' },
              { title: t('anomalies.value'), dataIndex: 'Value' },
              {
                title: t('anomalies.source'),
                dataIndex: 'Source',
                render: (s: string) => <Tag>{t(`anomalies.sources.${s}`)}</Tag>,
              },
              { title: t('anomalies.manual.reason'), dataIndex: 'Reason' },
            ]}
          />
        </>
      )}
    </>
  );
}
