import type { BillingDelivery } from '@rodmenys/contract';
import { Card, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useBillingDeliveries } from '../../api/integrations';
import { LoadError } from '../../components/load-error';
import { formatDateTime } from '../../format';

export function Deliveries() {
  const { t } = useTranslation();
  const deliveries = useBillingDeliveries(true);
  return (
    <Card title={t('integrations.deliveriesTitle')}>
      {deliveries.error ? (
        <LoadError error={deliveries.error} onRetry={() => deliveries.refetch()} />
      ) : (
        <Table<BillingDelivery>
          rowKey="Id"
          size="small"
          loading={deliveries.isLoading}
          dataSource={deliveries.data?.Deliveries}
          pagination={{ pageSize: 20 }}
          scroll={{ x: true }}
          locale={{ emptyText: t('integrations.noDeliveries') }}
          expandable={{
            expandedRowRender: (d) => (
              <Table
                rowKey="At"
                size="small"
                pagination={false}
                dataSource={d.Attempts}
                columns={[
                  { title: t('integrations.attemptAt'), dataIndex: 'At', render: formatDateTime },
                  { title: t('integrations.status'), dataIndex: 'Status' },
                  {
                    title: t('integrations.answer'),
                    key: 'answer',
                    // The reason in the reader's language, then the receiver's own short reason phrase.
                    render: (_, a) =>
                      [t(`integrations.reason.${a.Reason}`, { status: a.Status ?? '' }), a.Response]
                        .filter(Boolean)
                        .join(' · '),
                  },
                  { title: t('integrations.durationMs'), dataIndex: 'DurationMs', align: 'right' },
                ]}
              />
            ),
          }}
          columns={[
            { title: t('integrations.createdAt'), dataIndex: 'CreatedAt', render: formatDateTime },
            { title: t('integrations.receiver'), dataIndex: 'ReceiverName' },
            { title: t('integrations.month'), dataIndex: 'Month' },
            { title: t('integrations.version'), dataIndex: 'Version', align: 'right' },
            {
              title: t('integrations.buildings'),
              dataIndex: 'BuildingIds',
              align: 'right',
              render: (ids: number[]) => ids.length,
            },
            {
              title: t('integrations.state'),
              dataIndex: 'State',
              render: (s: BillingDelivery['State']) => (
                <Tag color={s === 'delivered' ? 'success' : s === 'failed' ? 'error' : 'processing'}>
                  {t(`integrations.deliveryState.${s}`)}
                </Tag>
              ),
            },
            { title: t('integrations.attempts'), key: 'attempts', render: (_, d) => d.Attempts.length },
          ]}
        />
      )}
    </Card>
  );
}
