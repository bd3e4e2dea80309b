import { CheckCircleOutlined, FilePdfOutlined } from '@ant-design/icons';
import {
  getStatementsPdf,
  isOperator,
  STATEMENT_KINDS,
  STATEMENT_MARKERS,
  type StatementChange,
  type StatementKind,
  type StatementKindFigures,
  type StatementMarker,
  type StatementRow,
} from '@rodmenys/contract';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  DatePicker,
  Form,
  Modal,
  Row,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLocationTree } from '../../api/hooks';
import { downloadFile } from '../../api/master-data';
import {
  usePublishStatements,
  useStatementDeliveries,
  useStatementDifference,
  useStatementFigures,
} from '../../api/statements';
import { ExportButton } from '../../components/export';
import type { ExportColumn } from '../../components/export/types';
import { LoadError, useErrorText } from '../../components/load-error';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';
import { useProviderNow, useSession } from '../../session';
import { BuildingPicker } from './building-picker';
import { FlatStatementDrawer } from './flat-statement';
import { formatFigure, kindOf, MARKER_COLORS } from './statement-format';

const address = (r: StatementRow) =>
  [r.City, [r.Street, r.Building].filter(Boolean).join(' ')].filter(Boolean).join(', ');

/**
 * Monthly statements (docs/statements.md): pick a month and buildings; a table of flats with the
 * month's consumption per kind against the month before, last year and the building average,
 * markers, Excel, PDF; group 1 publishes the month (the figures are frozen from then on).
 */
export default function StatementsPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const operator = isOperator(useSession()?.GroupId ?? 0);
  const now = useProviderNow();
  const [params, setParams] = useSearchParams();
  const month = params.get('month') ?? now().subtract(1, 'month').format('YYYY-MM');
  const flat = Number(params.get('flat')) || null;
  const [locations, setLocations] = useState<number[]>([]);
  const [markers, setMarkers] = useState<StatementMarker[]>([]);
  const [publishOpen, setPublishOpen] = useState(false);
  const [pdfBusy, setPdfBusy] = useState(false);
  const tree = useLocationTree(6);
  const query = { month, ...(locations.length ? { locationParentId: locations.join(',') } : {}) };
  const figures = useStatementFigures(query);
  const setParam = (key: string, value: string | null) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (value === null) next.delete(key);
      else next.set(key, value);
      return next;
    });

  const rows = useMemo(
    () =>
      (figures.data?.Rows ?? []).filter(
        (r) => !markers.length || r.Kinds.some((k) => k.Markers.some((m) => markers.includes(m))),
      ),
    [figures.data, markers],
  );
  const kinds = STATEMENT_KINDS.filter((k) => (figures.data?.Rows ?? []).some((r) => kindOf(r, k)));
  const published = (figures.data?.Rows ?? []).filter((r) => r.Published).length;
  const unitOf = (kind: StatementKind) => {
    const units = new Set(rows.map((r) => kindOf(r, kind)?.Unit).filter(Boolean));
    return units.size === 1 ? [...units][0] : null;
  };

  const figureColumn = (
    kind: StatementKind,
    field: 'Current' | 'Previous' | 'LastYear',
    title: string,
  ): ColumnsType<StatementRow>[number] => ({
    key: `${kind}.${field}`,
    title,
    align: 'right',
    sorter: (a, b) => (kindOf(a, kind)?.[field].Value ?? -1) - (kindOf(b, kind)?.[field].Value ?? -1),
    render: (_: unknown, r: StatementRow) => {
      const k = kindOf(r, kind);
      return k ? formatFigure(k[field], language, t) : '';
    },
  });
  const columns: ColumnsType<StatementRow> = [
    {
      key: 'address',
      title: t('statements.address'),
      fixed: 'left',
      width: 220,
      sorter: (a, b) => address(a).localeCompare(address(b), language),
      render: (_: unknown, r) => address(r),
    },
    {
      key: 'flat',
      title: t('statements.flat'),
      fixed: 'left',
      width: 90,
      render: (_: unknown, r) => (
        <Button
          type="link"
          size="small"
          style={{ padding: 0 }}
          aria-label={`${r.Flat} ${t('statements.openStatement')}`}
          onClick={() => setParam('flat', String(r.FlatId))}
        >
          {r.Flat}
        </Button>
      ),
    },
    {
      key: 'area',
      title: t('statements.area'),
      align: 'right',
      width: 80,
      render: (_: unknown, r) => (r.AreaM2 === null ? '' : r.AreaM2.toLocaleString(language)),
    },
    ...kinds.map((kind) => ({
      key: kind,
      // One unit for every flat: named in the heading; else a column says it per flat.
      title: unitOf(kind)
        ? `${t(`statements.kinds.${kind}`)}, ${t(`statements.units.${unitOf(kind)}`)}`
        : t(`statements.kinds.${kind}`),
      children: [
        ...(unitOf(kind)
          ? []
          : [
              {
                key: `${kind}.unit`,
                title: t('statements.unit'),
                render: (_: unknown, r: StatementRow) => {
                  const k = kindOf(r, kind);
                  return k ? t(`statements.units.${k.Unit}`) : '';
                },
              },
            ]),
        figureColumn(kind, 'Current', t('statements.current')),
        figureColumn(kind, 'Previous', t('statements.previous')),
        figureColumn(kind, 'LastYear', t('statements.lastYear')),
        {
          key: `${kind}.average`,
          title: t('statements.average'),
          align: 'right' as const,
          render: (_: unknown, r: StatementRow) => formatNumber(kindOf(r, kind)?.BuildingAverage, language),
        },
      ],
    })),
    {
      key: 'markers',
      title: t('statements.markers'),
      render: (_: unknown, r) => (
        <Space size={4} wrap>
          {r.Kinds.flatMap((k) =>
            k.Markers.map((m) => (
              <Tag key={`${k.Kind}.${m}`} color={MARKER_COLORS[m]}>
                {t(`statements.kinds.${k.Kind}`)}: {t(`statements.marker.${m}`)}
              </Tag>
            )),
          )}
        </Space>
      ),
    },
    {
      key: 'published',
      title: t('statements.state'),
      render: (_: unknown, r) =>
        r.Published ? (
          <Tag color="green" icon={<CheckCircleOutlined />}>
            {t('statements.publishedVersion', { version: r.Published.Version })}
          </Tag>
        ) : (
          <Tag>{t('statements.preliminary')}</Tag>
        ),
    },
  ];

  const exportColumns: ExportColumn[] = [
    { key: 'address', title: t('statements.address'), type: 'text' },
    { key: 'flat', title: t('statements.flat'), type: 'text' },
    { key: 'area', title: t('statements.areaM2'), type: 'number', numFmt: '0.00' },
    ...kinds.flatMap((kind): ExportColumn[] => {
      const name = t(`statements.kinds.${kind}`);
      return [
        { key: `${kind}.unit`, title: `${name}: ${t('statements.unit')}`, type: 'text' },
        { key: `${kind}.Current`, title: `${name}: ${t('statements.current')}`, type: 'number', numFmt: '0.000' },
        { key: `${kind}.Previous`, title: `${name}: ${t('statements.previous')}`, type: 'number', numFmt: '0.000' },
        { key: `${kind}.LastYear`, title: `${name}: ${t('statements.lastYear')}`, type: 'number', numFmt: '0.000' },
        { key: `${kind}.average`, title: `${name}: ${t('statements.average')}`, type: 'number', numFmt: '0.000' },
        { key: `${kind}.partial`, title: `${name}: ${t('statements.marker.estimated')}`, type: 'text' },
      ];
    }),
    { key: 'markers', title: t('statements.markers'), type: 'text' },
    { key: 'state', title: t('statements.state'), type: 'text' },
  ];
  const exportValue = (r: StatementRow, c: ExportColumn): unknown => {
    if (c.key === 'address') return address(r);
    if (c.key === 'flat') return r.Flat;
    if (c.key === 'area') return r.AreaM2;
    if (c.key === 'markers')
      return r.Kinds.flatMap((k) =>
        k.Markers.map((m) => `${t(`statements.kinds.${k.Kind}`)}: ${t(`statements.marker.${m}`)}`),
      ).join('; ');
    if (c.key === 'state')
      return r.Published
        ? t('statements.publishedVersion', { version: r.Published.Version })
        : t('statements.preliminary');
    const [kind, field] = c.key.split('.') as [StatementKind, string];
    const k: StatementKindFigures | undefined = kindOf(r, kind);
    if (!k) return null;
    if (field === 'unit') return t(`statements.units.${k.Unit}`);
    if (field === 'average') return k.BuildingAverage;
    if (field === 'partial') return k.Current.Partial ? t('common.yes') : '';
    return k[field as 'Current' | 'Previous' | 'LastYear'].Value;
  };

  const downloadPdf = async () => {
    setPdfBusy(true);
    try {
      const several = new Set(rows.map((r) => r.BuildingId)).size > 1;
      await downloadFile(
        getStatementsPdf,
        { ...query, lang: language },
        `statements-${month}.${several ? 'zip' : 'pdf'}`,
      );
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setPdfBusy(false);
    }
  };

  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('nav.statements')}
      </Typography.Title>
      <Card size="small">
        <Form layout="vertical" component="div">
          <Row gutter={[16, 12]} align="bottom">
            <Col xs={24} md={6}>
              <Form.Item label={t('statements.month')} htmlFor="statements-month" style={{ marginBottom: 0 }}>
                <DatePicker
                  id="statements-month"
                  picker="month"
                  allowClear={false}
                  style={{ width: '100%' }}
                  value={dayjs(`${month}-01`)}
                  disabledDate={(d: Dayjs) => d.isAfter(now(), 'month')}
                  onChange={(d) => d && setParam('month', d.format('YYYY-MM'))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={10}>
              <BuildingPicker
                nodes={tree.data ?? []}
                loading={tree.isLoading}
                value={locations}
                onChange={setLocations}
              />
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label={t('statements.filterMarkers')} htmlFor="statements-markers" style={{ marginBottom: 0 }}>
                <Select<StatementMarker[]>
                  id="statements-markers"
                  mode="multiple"
                  allowClear
                  style={{ width: '100%' }}
                  value={markers}
                  onChange={setMarkers}
                  options={STATEMENT_MARKERS.map((m) => ({ value: m, label: t(`statements.marker.${m}`) }))}
                  placeholder={t('statements.allFlats')}
                />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </Card>

      {figures.error && <LoadError error={figures.error} onRetry={() => void figures.refetch()} />}
      <Card
        size="small"
        style={{ marginTop: 16 }}
        title={t('statements.flats', { count: rows.length })}
        extra={
          <Space wrap>
            <ExportButton
              fileName={`statements-${month}`}
              disabled={!rows.length}
              getInput={() => ({ sheetName: month, columns: exportColumns, rows, value: exportValue })}
            />
            <Button
              icon={<FilePdfOutlined />}
              loading={pdfBusy}
              disabled={!rows.length}
              onClick={() => void downloadPdf()}
            >
              {t('statements.pdf')}
            </Button>
            {operator && (
              <Button type="primary" disabled={!rows.length} onClick={() => setPublishOpen(true)}>
                {t('statements.publish')}
              </Button>
            )}
          </Space>
        }
      >
        {figures.data && (
          <Typography.Paragraph type="secondary">
            {published
              ? t('statements.publishedCount', { published, total: figures.data.Rows.length })
              : t('statements.notPublished')}
          </Typography.Paragraph>
        )}
        <Table<StatementRow>
          size="small"
          rowKey="FlatId"
          loading={figures.isFetching}
          dataSource={rows}
          columns={columns}
          scroll={{ x: 'max-content' }}
          pagination={{ defaultPageSize: 50, showSizeChanger: true }}
          locale={{ emptyText: t('statements.none') }}
        />
      </Card>
      {operator && <DeliveriesCard month={month} />}
      {publishOpen && <PublishDialog month={month} locations={locations} onClose={() => setPublishOpen(false)} />}
      <FlatStatementDrawer flatId={flat} month={month} onClose={() => setParam('flat', null)} />
    </>
  );
}

const formatNumber = (v: number | null | undefined, language: string) =>
  v === null || v === undefined
    ? ''
    : v.toLocaleString(language, { minimumFractionDigits: 3, maximumFractionDigits: 3 });

/** Publishing: what changes against the published figures, then publish (audited; mail to those who opted in). */
function PublishDialog({ month, locations, onClose }: { month: string; locations: number[]; onClose: () => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const difference = useStatementDifference(
    { month, ...(locations.length ? { locationParentId: locations.join(',') } : {}) },
    true,
  );
  const publish = usePublishStatements();
  const run = async () => {
    try {
      const r = await publish.mutateAsync({ body: { month, ...(locations.length ? { locationIds: locations } : {}) } });
      message.success(t('statements.publishedDone', { buildings: r.Buildings, flats: r.Flats }));
      onClose();
    } catch (error) {
      message.error(errorText(error));
    }
  };
  const changes = difference.data?.Changes ?? [];
  return (
    <Modal
      open
      title={t('statements.publishTitle', { month })}
      okText={t('statements.publish')}
      cancelText={t('common.cancel')}
      onOk={() => void run()}
      confirmLoading={publish.isPending}
      onCancel={onClose}
      width={760}
    >
      <Typography.Paragraph>{t('statements.publishHelp')}</Typography.Paragraph>
      {difference.error && <LoadError error={difference.error} onRetry={() => void difference.refetch()} />}
      {difference.data && difference.data.Published > 0 && (
        <>
          <Alert
            type={changes.length ? 'warning' : 'info'}
            showIcon
            style={{ marginBottom: 12 }}
            message={t('statements.republish', { buildings: difference.data.Published, changes: changes.length })}
          />
          {changes.length > 0 && (
            <Table<StatementChange>
              size="small"
              rowKey={(c) => `${c.FlatId}.${c.Kind}.${c.Field}`}
              dataSource={changes}
              pagination={{ pageSize: 10 }}
              columns={[
                { title: t('statements.address'), dataIndex: 'Address' },
                { title: t('statements.kind'), dataIndex: 'Kind', render: (k: string) => t(`statements.kinds.${k}`) },
                {
                  title: t('statements.field'),
                  dataIndex: 'Field',
                  render: (f: string) =>
                    t(`statements.${f === 'Current' ? 'current' : f === 'Previous' ? 'previous' : 'lastYear'}`),
                },
                {
                  title: t('statements.publishedValue'),
                  dataIndex: 'Published',
                  align: 'right',
                  render: (v: number | null) => formatNumber(v, language),
                },
                {
                  title: t('statements.liveValue'),
                  dataIndex: 'Live',
                  align: 'right',
                  render: (v: number | null) => formatNumber(v, language),
                },
              ]}
            />
          )}
        </>
      )}
    </Modal>
  );
}

/** The publication e-mails of the month: to whom, when, accepted or the error (group 1). */
function DeliveriesCard({ month }: { month: string }) {
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
