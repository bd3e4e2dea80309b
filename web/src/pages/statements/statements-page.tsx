import { FilePdfOutlined } from '@ant-design/icons';
import {
  getStatementsPdf,
  isOperator,
  LOCATION_LEVEL,
  STATEMENT_KINDS,
  type StatementMarker,
  type StatementRow,
} from '@rodmenys/contract';
import { App, Button, Card, Space, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { downloadFile } from '../../api/call';
import { useLocationTree } from '../../api/location-data';
import { useStatementFigures } from '../../api/statements';
import { ExportButton } from '../../components/export';
import { LoadError, useErrorText } from '../../components/load-error';
import { useLanguage } from '../../i18n';
import { useProviderNow, useSession } from '../../session';
import { DeliveriesCard } from './deliveries-card';
import { FlatStatementDrawer } from './flat-statement';
import { PublishDialog } from './publish-dialog';
import { useStatementColumns } from './statement-columns';
import { exportInput } from './statement-export';
import { kindOf } from './statement-format';
import { StatementsFilters } from './statements-filters';

/** The month and the open flat live in the address (`?month=2026-10&flat=7`), so a statement can be linked. */
function useStatementAddress() {
  const now = useProviderNow();
  const [params, setParams] = useSearchParams();
  const setParam = (key: string, value: string | null) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (value === null) next.delete(key);
      else next.set(key, value);
      return next;
    });
  return {
    month: params.get('month') ?? now().subtract(1, 'month').format('YYYY-MM'),
    flat: Number(params.get('flat')) || null,
    setParam,
  };
}

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
  const { month, flat, setParam } = useStatementAddress();
  const [locations, setLocations] = useState<number[]>([]);
  const [markers, setMarkers] = useState<StatementMarker[]>([]);
  const [publishOpen, setPublishOpen] = useState(false);
  const [pdfBusy, setPdfBusy] = useState(false);
  const tree = useLocationTree(LOCATION_LEVEL.building);
  const query = { month, ...(locations.length ? { locationParentId: locations.join(',') } : {}) };
  const figures = useStatementFigures(query);

  const rows = useMemo(
    () =>
      (figures.data?.Rows ?? []).filter(
        (r) => !markers.length || r.Kinds.some((k) => k.Markers.some((m) => markers.includes(m))),
      ),
    [figures.data, markers],
  );
  const kinds = STATEMENT_KINDS.filter((k) => (figures.data?.Rows ?? []).some((r) => kindOf(r, k)));
  const published = (figures.data?.Rows ?? []).filter((r) => r.Published).length;
  const columns = useStatementColumns(rows, kinds, (flatId) => setParam('flat', String(flatId)));

  const downloadPdf = async () => {
    setPdfBusy(true);
    try {
      const several = new Set(rows.map((r) => r.BuildingId)).size > 1;
      await downloadFile(
        getStatementsPdf,
        { query: { ...query, lang: language } },
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
      <StatementsFilters
        month={month}
        onMonth={(m) => setParam('month', m)}
        tree={tree.data ?? []}
        treeLoading={tree.isLoading}
        locations={locations}
        onLocations={setLocations}
        markers={markers}
        onMarkers={setMarkers}
      />

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
              getInput={() => exportInput(month, kinds, rows, t)}
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
