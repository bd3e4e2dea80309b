import { Alert, Card, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useStatementDeliveries } from '../../api/statements';
import { LoadError } from '../../components/load-error';
import { formatDateTime } from '../../format';

/** The publication e-mails of the month: to whom, when, accepted or the error (group 1). */
export function DeliveriesCard({ month }: { month: string }) {
  const { t } = useTranslation();
  const deliveries = useStatementDeliveries(month, true);
  return (
    <Card size="small" style={{ marginTop: 16 }} title={t('statements.deliveries.title')}>
      {deliveries.error && <LoadError error={deliveries.error} onRetry={() => void deliveries.refetch()} />}
      {deliveries.data && !deliveries.data.MailConfigured && (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t('digest.noMail')} />
      )}
      <Table
        size="small"
        rowKey="Id"
        loading={deliveries.isLoading}
        dataSource={deliveries.data?.Deliveries ?? []}
        pagination={{ pageSize: 10 }}
        locale={{ emptyText: t('statements.deliveries.none') }}
        columns={[
          { title: t('statements.deliveries.sentAt'), dataIndex: 'SentAt', render: formatDateTime },
          { title: t('statements.deliveries.user'), dataIndex: 'UserName' },
          { title: t('statements.deliveries.email'), dataIndex: 'Email' },
          {
            title: t('statements.deliveries.result'),
            render: (_: unknown, d: { Accepted: boolean; Error: string | null }) =>
              d.Accepted ? (
                <Tag color="green">{t('statements.deliveries.accepted')}</Tag>
              ) : (
                <Typography.Text type="danger">
                  {t('statements.deliveries.failed')}: <code>{d.Error}</code>
                </Typography.Text>
              ),
          },
        ]}
      />
    </Card>
  );
}
