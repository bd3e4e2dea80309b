import type { Anomaly, AnomalyState, RuleCode } from '@rodmenys/contract';
import { Button, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';
import { ruleNameOf, STATE_COLOR } from './anomaly-format';

export type AnomalyAction = 'acknowledge' | 'resolve';

/** The anomalies themselves: rule, state, where, which device, with details, acknowledge and resolve per row. */
export function AnomalyList({
  rows,
  loading,
  typeName,
  onOpen,
  onAction,
}: {
  rows: Anomaly[];
  loading: boolean;
  typeName: (deviceTypeId: number | null) => string;
  onOpen: (anomaly: Anomaly) => void;
  onAction: (action: AnomalyAction, anomaly: Anomaly) => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Table<Anomaly>
      size="small"
      rowKey="Id"
      aria-label={t('anomalies.list')}
      loading={loading}
      dataSource={rows}
      locale={{ emptyText: t('anomalies.none') }}
      scroll={{ x: true }}
      pagination={{ pageSize: 20, showSizeChanger: false }}
      columns={[
        { title: t('anomalies.rule'), dataIndex: 'Rule', render: (c: RuleCode) => ruleNameOf(c, language) },
        {
          title: t('anomalies.state'),
          dataIndex: 'State',
          render: (s: AnomalyState) => <Tag color={STATE_COLOR[s]}>{t(`anomalies.states.${s}`)}</Tag>,
        },
        { title: t('anomalies.building'), dataIndex: 'Address' },
        { title: t('anomalies.flat'), dataIndex: 'Flat' },
        {
          title: t('anomalies.device'),
          render: (_, a) => (a.DeviceCode ? `${a.DeviceCode} (${typeName(a.DeviceTypeId)})` : ''),
        },
        { title: t('anomalies.month'), dataIndex: 'Month' },
        { title: t('anomalies.openedAt'), dataIndex: 'OpenedAt', render: formatDateTime },
        { title: t('anomalies.comment'), dataIndex: 'Comment' },
        {
          title: t('common.actions'),
          key: 'actions',
          // In view at any width: the other columns scroll under it.
          fixed: 'right',
          render: (_, a) => (
            <Space size={4} wrap>
              <Button size="small" onClick={() => onOpen(a)}>
                {t('anomalies.details')}
              </Button>
              {a.State === 'open' && (
                <Button size="small" onClick={() => onAction('acknowledge', a)}>
                  {t('anomalies.acknowledge')}
                </Button>
              )}
              {a.State !== 'resolved' && (
                <Button size="small" onClick={() => onAction('resolve', a)}>
                  {t('anomalies.resolve')}
                </Button>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}
