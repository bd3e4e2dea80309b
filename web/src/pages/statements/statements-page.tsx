import { FilePdfOutlined } from '@ant-design/icons';
import {
  canManageUsers,
  getStatementsPdf,
  isOperator,
  LOCATION_LEVEL,
  STATEMENT_KINDS,
  type StatementMarker,
} from '@rodmenys/contract';
import { Alert, App, Button, Card, Skeleton, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { fetchFile } from '../../api/call';
import { useLocationTree } from '../../api/location-data';
import { useStatementFigures } from '../../api/statements';
import { downloadBlob, ExportButton } from '../../components/export';
import { FocusableScroll } from '../../components/focusable-scroll';
import { LoadError, useErrorText } from '../../components/load-error';
import { usePagerNames } from '../../components/pagination';
import { APP_HEADER_HEIGHT } from '../../components/shell/header-height';
import { useLanguage } from '../../i18n';
import { useProviderNow, useSession } from '../../session';
import { HeatMethodCard } from '../master-data/heat-method-card';
import { BuildingBalances } from './building-balances';
import { buildingsOf } from './building-picker';
import { DeliveriesCard } from './deliveries-card';
import { FlatStatementDrawer } from './flat-statement';
import { OccupantDeliveriesCard } from './occupant-deliveries-card';
import { PublishDialog } from './publish-dialog';
import { useAverageSummary, useStatementColumns } from './statement-columns';
import { exportInput } from './statement-export';
import { extensionOf, selectionFileName } from './statement-files';
import { hasFigures, kindOf, monthName } from './statement-format';
import { flatIdsOf, type StatementTableRow, tableRows } from './statement-rows';
import { StatementsFilters } from './statements-filters';
import './statements.css';

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
  const month = params.get('month') ?? now().subtract(1, 'month').format('YYYY-MM');
  return {
    month,
    /** Only an ended month can be published (the server says so too). */
    ended: !dayjs(`${month}-01`).add(1, 'month').isAfter(now()),
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
  const pager = usePagerNames();
  const language = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const session = useSession();
  const operator = isOperator(session?.GroupId ?? 0);
  const { month, ended, flat, setParam } = useStatementAddress();
  const [locations, setLocations] = useState<number[]>([]);
  const [markers, setMarkers] = useState<StatementMarker[]>([]);
  const [publishOpen, setPublishOpen] = useState(false);
  const [pdfBusy, setPdfBusy] = useState(false);
  const tree = useLocationTree(LOCATION_LEVEL.building);
  // A manager with one building starts with it chosen (the field then says which it is).
  useEffect(() => {
    const only = buildingsOf(tree.data ?? []);
    if (only.length === 1 && only[0]) setLocations((now) => (now.length ? now : [only[0]!.Id]));
  }, [tree.data]);
  const chosenBuilding =
    locations.length === 1 && buildingsOf(tree.data ?? []).some((b) => b.Id === locations[0])
      ? locations[0]
      : undefined;
  const query = { month, ...(locations.length ? { locationParentId: locations.join(',') } : {}) };
  const figures = useStatementFigures(query);

  // One row per flat, and per occupant for a flat with a move in the month (docs/occupancies.md).
  const rows = useMemo(
    () =>
      tableRows(figures.data?.Rows ?? [], figures.data?.Occupancies).filter(
        (r) => !markers.length || r.Kinds.some((k) => k.Markers.some((m) => markers.includes(m))),
      ),
    [figures.data, markers],
  );
  // Before the first answer the table is drawn at once, as a frame: every kind's headers and rows still
  // to come (a skeleton), never an empty page or "no statements" under a spinner (docs/statements.md).
  const waiting = !figures.data && !figures.error;
  const kinds = waiting
    ? STATEMENT_KINDS
    : STATEMENT_KINDS.filter((k) => (figures.data?.Rows ?? []).some((r) => kindOf(r, k)));
  const published = (figures.data?.Rows ?? []).filter((r) => r.Published).length;
  // A month before any data (or far ahead): flats without a single figure are nothing to show.
  const empty = !!figures.data && !hasFigures(figures.data.Rows);
  const shown = empty ? [] : rows;
  const columns = useStatementColumns(rows, kinds, (flatId) => setParam('flat', String(flatId)));
  const summary = useAverageSummary(rows, kinds);
  const fileName = selectionFileName(t, month, rows, markers.length > 0);

  const downloadPdf = async () => {
    setPdfBusy(true);
    try {
      // Only the marked flats when a marker narrows the table: the PDF holds what the table shows.
      const selection = markers.length ? { month, locationParentId: flatIdsOf(rows).join(',') } : query;
      const blob = await fetchFile(getStatementsPdf, { query: { ...selection, lang: language } });
      downloadBlob(blob, `${fileName}.${extensionOf(blob)}`);
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
      {!ended && (
        <Alert
          type="info"
          showIcon
          style={{ marginTop: 16 }}
          message={t('statements.notEnded', { month: monthName(month, language) })}
        />
      )}
      <Card
        size="small"
        style={{ marginTop: 16 }}
        title={t('statements.flats', { count: flatIdsOf(shown).length })}
        extra={
          <Space wrap>
            <ExportButton
              fileName={fileName}
              disabled={!shown.length}
              getInput={() => exportInput(month, kinds, rows, t)}
            />
            <Button
              icon={<FilePdfOutlined aria-hidden />}
              loading={pdfBusy}
              disabled={!shown.length}
              onClick={() => void downloadPdf()}
            >
              {t('statements.pdf')}
            </Button>
            {operator && (
              <Button type="primary" disabled={!shown.length || !ended} onClick={() => setPublishOpen(true)}>
                {t('statements.publish')}
              </Button>
            )}
          </Space>
        }
      >
        {figures.data && !empty && (
          <Typography.Paragraph type="secondary">
            {published
              ? t('statements.publishedCount', { published, total: figures.data.Rows.length })
              : t('statements.notPublished')}
          </Typography.Paragraph>
        )}
        {figures.data && !empty && <BuildingBalances rows={figures.data.Rows} />}
        {/* Its scrolling part is reachable by keyboard while it holds no button (loading, nothing to show). */}
        <FocusableScroll label={t('nav.statements')}>
          <Table<StatementTableRow>
            className="statements-table"
            size="small"
            rowKey="Key"
            loading={figures.isFetching && !waiting}
            aria-busy={waiting || figures.isFetching}
            dataSource={shown}
            columns={columns}
            scroll={{ x: 'max-content' }}
            sticky={{ offsetHeader: APP_HEADER_HEIGHT }}
            summary={summary}
            pagination={{ ...pager, defaultPageSize: 50, showSizeChanger: true }}
            locale={{
              emptyText: waiting ? (
                <div role="status" aria-label={t('statements.rowsComing')}>
                  <Skeleton active title={false} paragraph={{ rows: 6 }} />
                </div>
              ) : (
                t(empty && figures.data?.Rows.length ? 'statements.nothingToShow' : 'statements.none')
              ),
            }}
          />
        </FocusableScroll>
      </Card>
      {/* The method of the one building chosen, to read (group 1 sets it on Master data). */}
      {canManageUsers(session?.GroupId ?? 0) && chosenBuilding && (
        <div style={{ marginTop: 16 }}>
          <HeatMethodCard buildingId={chosenBuilding} canEdit={false} />
        </div>
      )}
      {operator && <DeliveriesCard month={month} />}
      {canManageUsers(session?.GroupId ?? 0) && (
        <OccupantDeliveriesCard month={month} locationParentId={query.locationParentId} canPrint={operator} />
      )}
      {publishOpen && (
        <PublishDialog
          month={month}
          locations={locations}
          rows={figures.data?.Rows ?? []}
          onClose={() => setPublishOpen(false)}
        />
      )}
      <FlatStatementDrawer
        flatId={flat}
        month={month}
        onClose={() => {
          setParam('flat', null);
          // Back to the flat the statement was opened from (the drawer was opened by the address too).
          setTimeout(() => document.querySelector<HTMLElement>(`[data-flat-button="${flat}"]`)?.focus(), 50);
        }}
      />
    </>
  );
}
