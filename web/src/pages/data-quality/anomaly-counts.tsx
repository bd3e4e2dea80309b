import type { AnomalyCount, RuleCode } from '@rodmenys/contract';
import { Card, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { useAnomalyCounts } from '../../api/data-quality';
import { LoadError } from '../../components/load-error';
import { useLanguage } from '../../i18n';
import { ruleNameOf } from './anomaly-format';

/** Counts per building and rule; choosing a row filters the list to that building and rule (again: all buildings). */
export function AnomalyCounts({
  counts,
  buildingId,
  rule,
  onPick,
}: {
  counts: ReturnType<typeof useAnomalyCounts>;
  buildingId: number | undefined;
  rule: RuleCode | undefined;
  onPick: (row: AnomalyCount) => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Card title={t('anomalies.counts')} size="small" style={{ marginBottom: 16 }}>
      {counts.error && <LoadError error={counts.error} onRetry={() => void counts.refetch()} />}
      <Table<AnomalyCount>
        size="small"
        rowKey={(r) => `${r.BuildingId}-${r.Rule}`}
        loading={counts.isFetching}
        dataSource={counts.data ?? []}
        locale={{ emptyText: t('anomalies.none') }}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        rowClassName={(r) => (r.BuildingId === buildingId && r.Rule === rule ? 'ant-table-row-selected' : '')}
        onRow={(r) => ({ onClick: () => onPick(r), style: { cursor: 'pointer' } })}
        columns={[
          { title: t('anomalies.building'), dataIndex: 'Address' },
          { title: t('anomalies.rule'), dataIndex: 'Rule', render: (c: RuleCode) => ruleNameOf(c, language) },
          { title: t('anomalies.open'), dataIndex: 'Open', align: 'right' },
          { title: t('anomalies.acknowledged'), dataIndex: 'Acknowledged', align: 'right' },
          { title: t('anomalies.resolved'), dataIndex: 'Resolved', align: 'right' },
        ]}
      />
    </Card>
  );
}
