import {
  ANOMALY_STATES,
  type Anomaly,
  type AnomalyCount,
  type AnomalyState,
  hasMonthEndValue,
  isOperator,
  type MonthEndListRow,
  RULE_CODES,
  RULE_NAMES,
  type RuleCode,
} from '@rodmenys/contract';
import {
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  useAcknowledgeAnomaly,
  useAnomalies,
  useAnomalyCounts,
  useMonthEnds,
  useResolveAnomaly,
} from '../../api/data-quality';
import { useDeviceHistory } from '../../api/device-data';
import { useDeviceTypes } from '../../api/hooks';
import { useDeviceMoveValues } from '../../api/occupancies';
import { ExportButton } from '../../components/export';
import { LoadError, useErrorText } from '../../components/load-error';
import { STATIC_MODAL } from '../../components/modal-host';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';
import { useProviderNow, useSession } from '../../session';
import { DegreeDaysCard } from './degree-days-card';
import { evidenceEntries, evidenceText } from './evidence';
import { JobsCard, MonthEndActions, SettingsCard } from './operator-panels';

// The chart library is loaded only when a device is opened.
const HistoryChart = lazy(() => import('../device-data/history-chart'));

const STATE_COLOR: Record<AnomalyState, string> = { open: 'red', acknowledged: 'gold', resolved: 'green' };

/** The device behind an anomaly: its readings of the last 90 days as a chart, and its month-end values. */
function DeviceDrillDown({ anomaly }: { anomaly: Anomaly }) {
  const { t } = useTranslation();
  const operator = isOperator(useSession()?.GroupId ?? 0);
  const now = useProviderNow();
  const till = now();
  const from = till.subtract(90, 'day');
  const deviceId = anomaly.DeviceId ?? 0;
  const history = useDeviceHistory(deviceId, {
    dateFrom: from.format('YYYY-MM-DD'),
    dateTill: till.format('YYYY-MM-DD'),
  });
  const moveValues = useDeviceMoveValues(anomaly.DeviceId ?? undefined);
  const monthEnds = useMonthEnds(deviceId, {
    from: till.subtract(12, 'month').format('YYYY-MM'),
    till: till.format('YYYY-MM'),
  });
  if (!anomaly.DeviceId) return null;
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
      <Table
        size="small"
        rowKey="Month"
        pagination={false}
        dataSource={monthEnds.data ?? []}
        columns={[
          { title: t('anomalies.month'), dataIndex: 'Month' },
          { title: t('anomalies.value'), dataIndex: 'Value', render: (v: number | null) => v ?? '—' },
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
              row.Missing ? t(`anomalies.missing.${row.Missing}`) : reason,
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

/** Acknowledge or resolve, with the comment both require. */
function CommentDialog({
  action,
  anomaly,
  onClose,
}: {
  action: 'acknowledge' | 'resolve';
  anomaly: Anomaly;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [form] = Form.useForm<{ comment: string }>();
  const acknowledge = useAcknowledgeAnomaly();
  const resolve = useResolveAnomaly();
  const submit = async ({ comment }: { comment: string }) => {
    try {
      await (action === 'acknowledge' ? acknowledge : resolve).mutateAsync({
        params: { id: anomaly.Id },
        body: { comment: comment.trim() },
      });
      message.success(t('anomalies.done'));
      onClose();
    } catch (error) {
      message.error(errorText(error));
    }
  };
  return (
    <Modal
      open
      {...STATIC_MODAL}
      title={t(`anomalies.${action}Title`, { id: anomaly.Id })}
      okText={t(`anomalies.${action}`)}
      cancelText={t('common.cancel')}
      confirmLoading={acknowledge.isPending || resolve.isPending}
      onCancel={onClose}
      onOk={() => form.submit()}
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="comment"
          label={t('anomalies.comment')}
          rules={[{ required: true, whitespace: true, message: t('anomalies.commentRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={1000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The Anomalies page: counts per building and rule in the caller's scope, the
 * anomalies themselves with filters, a drill-down to the device, acknowledge and
 * resolve, and an export. `?id=` (the digest's links) opens one anomaly.
 */
export default function AnomaliesPage() {
  const { t } = useTranslation();
  const operator = isOperator(useSession()?.GroupId ?? 0);
  const language = useLanguage();
  const [params, setParams] = useSearchParams();
  const types = useDeviceTypes();
  const [rule, setRule] = useState<RuleCode | undefined>();
  const [state, setState] = useState<AnomalyState | undefined>();
  const [deviceTypeId, setDeviceTypeId] = useState<number | undefined>();
  const [buildingId, setBuildingId] = useState<number | undefined>();
  const [period, setPeriod] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [opened, setOpened] = useState<Anomaly | null>(null);
  const [dialog, setDialog] = useState<{ action: 'acknowledge' | 'resolve'; anomaly: Anomaly } | null>(null);
  const filter = {
    rule,
    state,
    deviceTypeId,
    dateFrom: period?.[0]?.format('YYYY-MM-DD'),
    dateTill: period?.[1]?.format('YYYY-MM-DD'),
  };
  const counts = useAnomalyCounts(filter);
  const list = useAnomalies({ ...filter, buildingId });
  const ruleName = (code: RuleCode) => RULE_NAMES[code][language];

  const wanted = Number(params.get('id'));
  useEffect(() => {
    if (!wanted || !list.data) return;
    const found = list.data.find((a) => a.Id === wanted);
    if (found) setOpened(found);
  }, [wanted, list.data]);
  // The drawer follows the list after an acknowledgement.
  const current = useMemo(
    () => (opened ? (list.data?.find((a) => a.Id === opened.Id) ?? opened) : null),
    [opened, list.data],
  );

  const typeName = (id: number | null) => {
    const ty = types.data?.find((x) => x.Id === id);
    return ty ? (language === 'en' ? ty.DeviceTypeNameEn : ty.DeviceTypeName) : '';
  };
  const exportColumns = [
    { key: 'Id', title: 'Id', type: 'number' as const },
    { key: 'Rule', title: t('anomalies.rule'), type: 'text' as const },
    { key: 'State', title: t('anomalies.state'), type: 'text' as const },
    { key: 'Address', title: t('anomalies.building'), type: 'text' as const },
    { key: 'Flat', title: t('anomalies.flat'), type: 'text' as const },
    { key: 'DeviceCode', title: t('anomalies.device'), type: 'text' as const },
    { key: 'Month', title: t('anomalies.month'), type: 'text' as const },
    { key: 'OpenedAt', title: t('anomalies.openedAt'), type: 'text' as const },
    { key: 'Comment', title: t('anomalies.comment'), type: 'text' as const },
    { key: 'Evidence', title: t('anomalies.evidence'), type: 'text' as const },
  ];

  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('anomalies.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('anomalies.intro')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          aria-label={t('anomalies.rule')}
          placeholder={t('anomalies.rule')}
          value={rule}
          onChange={setRule}
          options={RULE_CODES.map((c) => ({ value: c, label: ruleName(c) }))}
          style={{ minWidth: 220 }}
        />
        <Select
          allowClear
          aria-label={t('anomalies.state')}
          placeholder={t('anomalies.state')}
          value={state}
          onChange={setState}
          options={ANOMALY_STATES.map((s) => ({ value: s, label: t(`anomalies.states.${s}`) }))}
          style={{ minWidth: 160 }}
        />
        <Select
          allowClear
          aria-label={t('anomalies.deviceType')}
          placeholder={t('anomalies.deviceType')}
          value={deviceTypeId}
          onChange={setDeviceTypeId}
          options={(types.data ?? []).map((ty) => ({ value: ty.Id, label: typeName(ty.Id) }))}
          style={{ minWidth: 200 }}
        />
        <DatePicker.RangePicker aria-label={t('anomalies.period')} value={period} onChange={setPeriod} />
        <ExportButton
          fileName={t('anomalies.exportName')}
          disabled={!list.data?.length}
          getInput={() => ({
            sheetName: t('anomalies.title'),
            columns: exportColumns,
            rows: list.data ?? [],
            value: (row: Anomaly, column) =>
              column.key === 'Rule'
                ? ruleName(row.Rule)
                : column.key === 'State'
                  ? t(`anomalies.states.${row.State}`)
                  : column.key === 'Evidence'
                    ? evidenceText(row.Evidence, t)
                    : (row as unknown as Record<string, unknown>)[column.key],
          })}
        />
      </Space>
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
          onRow={(r) => ({
            onClick: () => {
              setBuildingId(r.BuildingId === buildingId ? undefined : r.BuildingId);
              setRule(r.BuildingId === buildingId ? rule : r.Rule);
            },
            style: { cursor: 'pointer' },
          })}
          columns={[
            { title: t('anomalies.building'), dataIndex: 'Address' },
            { title: t('anomalies.rule'), dataIndex: 'Rule', render: ruleName },
            { title: t('anomalies.open'), dataIndex: 'Open', align: 'right' },
            { title: t('anomalies.acknowledged'), dataIndex: 'Acknowledged', align: 'right' },
            { title: t('anomalies.resolved'), dataIndex: 'Resolved', align: 'right' },
          ]}
        />
      </Card>
      {list.error && <LoadError error={list.error} onRetry={() => void list.refetch()} />}
      <Table<Anomaly>
        size="small"
        rowKey="Id"
        aria-label={t('anomalies.list')}
        loading={list.isFetching}
        dataSource={list.data ?? []}
        locale={{ emptyText: t('anomalies.none') }}
        scroll={{ x: true }}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        columns={[
          { title: t('anomalies.rule'), dataIndex: 'Rule', render: ruleName },
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
                <Button size="small" onClick={() => setOpened(a)}>
                  {t('anomalies.details')}
                </Button>
                {a.State === 'open' && (
                  <Button size="small" onClick={() => setDialog({ action: 'acknowledge', anomaly: a })}>
                    {t('anomalies.acknowledge')}
                  </Button>
                )}
                {a.State !== 'resolved' && (
                  <Button size="small" onClick={() => setDialog({ action: 'resolve', anomaly: a })}>
                    {t('anomalies.resolve')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Drawer
        open={current !== null}
        width={860}
        destroyOnHidden
        title={current ? `${ruleName(current.Rule)} · ${current.Address}` : ''}
        onClose={() => {
          setOpened(null);
          if (params.has('id')) setParams({});
        }}
      >
        {current && (
          <>
            <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
              <Descriptions.Item label={t('anomalies.state')}>
                <Tag color={STATE_COLOR[current.State]}>{t(`anomalies.states.${current.State}`)}</Tag>
              </Descriptions.Item>
              <Descriptions.Item label={t('anomalies.device')}>{current.DeviceCode ?? ''}</Descriptions.Item>
              <Descriptions.Item label={t('anomalies.openedAt')}>{formatDateTime(current.OpenedAt)}</Descriptions.Item>
              <Descriptions.Item label={t('anomalies.lastSeenAt')}>
                {formatDateTime(current.LastSeenAt)}
              </Descriptions.Item>
              <Descriptions.Item label={t('anomalies.comment')}>{current.Comment ?? ''}</Descriptions.Item>
              <Descriptions.Item label={t('anomalies.acknowledgedBy')}>
                {current.AcknowledgedBy ?? ''}
              </Descriptions.Item>
              <Descriptions.Item label={t('anomalies.evidence')} span={2}>
                <dl className="anomaly-evidence">
                  {evidenceEntries(current.Evidence, t).map(([label, text]) => (
                    <div key={label}>
                      <dt>{label}</dt>
                      <dd>{text}</dd>
                    </div>
                  ))}
                </dl>
              </Descriptions.Item>
            </Descriptions>
            <DeviceDrillDown anomaly={current} />
          </>
        )}
      </Drawer>
      {dialog && <CommentDialog {...dialog} onClose={() => setDialog(null)} />}
      {operator && (
        <>
          <SettingsCard />
          <DegreeDaysCard />
          <JobsCard />
        </>
      )}
    </>
  );
}
