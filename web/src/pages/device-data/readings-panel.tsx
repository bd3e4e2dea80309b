import { LineChartOutlined, SettingOutlined } from '@ant-design/icons';
import {
  type DeviceTypeInSelection,
  PAGE_SIZES,
  READINGS_PAGE_SIZE,
  type ReadingColumn,
  type ReadingRow,
  readingColumns,
} from '@rodmenys/contract';
import {
  Button,
  Checkbox,
  Input,
  Popover,
  Select,
  Space,
  Table,
  type TableColumnType,
  type TableProps,
  Typography,
} from 'antd';
import { memo, startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../components/export';
import { meterStatusText, statusFlags } from '../../components/status-flags';
import { FlagMarker, ReplacementMarker, useFlagText } from './flag-marker';
import { type MonthEndMark, MonthEndMarker } from './month-end-marks';
import { exportColumns, exportValue, formatCell, indexRows, type SortState, viewRows } from './readings-view';

interface ReadingsPanelProps {
  rows: readonly ReadingRow[];
  type: DeviceTypeInSelection;
  groupId: number;
  onChart: (row: ReadingRow) => void;
  /** Per device, the period's bounds that are month ends without a measured reading. */
  monthEnds?: ReadonlyMap<number, MonthEndMark>;
}

/**
 * A column's filter box. It keeps its own text so that a keystroke redraws only the box;
 * the table follows in a transition (docs/domain.md §10: filters as you type).
 */
const FilterInput = memo(function FilterInput({
  label,
  placeholder,
  onChange,
}: {
  label: string;
  placeholder: string;
  onChange: (value: string) => void;
}) {
  const [value, setValue] = useState('');
  return (
    <Input
      size="small"
      allowClear
      aria-label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => {
        setValue(e.target.value);
        onChange(e.target.value);
      }}
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => e.stopPropagation()}
    />
  );
});

/** Column widths: narrow enough that most of the readings fit beside the totals kept in view on the right. */
const WIDTH: Record<ReadingColumn['kind'], number> = { text: 120, number: 110, datetime: 136, tags: 130 };
const NARROW: Partial<Record<ReadingColumn['key'], number>> = { Flat: 84, Building: 96 };
const widthOf = (c: ReadingColumn) => NARROW[c.key] ?? WIDTH[c.kind];
const ACTIONS_WIDTH = 84;

/**
 * A row's history button and its flag and replacement marks. Plain elements and no hooks: the
 * virtual table draws one per visible row on every filter keystroke (antd's Button, Space and a
 * translation hook per row were most of a keystroke's cost).
 */
function RowActions({
  row,
  label,
  onChart,
  monthEnd,
}: {
  row: ReadingRow;
  label: string;
  onChart: (row: ReadingRow) => void;
  monthEnd: MonthEndMark | undefined;
}) {
  return (
    <span className="row-actions">
      <button type="button" className="row-chart" aria-label={label} onClick={() => onChart(row)}>
        <LineChartOutlined />
      </button>
      {row.Flags.length > 0 && <FlagMarker flags={row.Flags} row={row} />}
      {(row.ReplacedBy !== null || row.Replaces !== null) && <ReplacementMarker row={row} />}
      {monthEnd && <MonthEndMarker mark={monthEnd} />}
    </span>
  );
}

const rowClassName = (row: ReadingRow) => (row.Flags.length > 0 ? 'reading-danger' : '');

/**
 * The detail panel for the selected devices: column toggles, export, page size,
 * a filter box per visible column, sorting and paging, all local (docs/domain.md §10).
 */
export function ReadingsPanel({ rows, type, groupId, onChart, monthEnds }: ReadingsPanelProps) {
  const { t, i18n } = useTranslation();
  const flagText = useFlagText();
  const columns = useMemo(() => readingColumns(type, groupId), [type, groupId]);
  const [visible, setVisible] = useState(() => new Set(columns.filter((c) => c.visible).map((c) => c.key)));
  const [filters, setFilters] = useState<Partial<Record<ReadingColumn['key'], string>>>({});
  const [sort, setSort] = useState<SortState | null>(null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(READINGS_PAGE_SIZE);
  const [columnsOpen, setColumnsOpen] = useState(false);
  const columnsButton = useRef<HTMLButtonElement>(null);
  // Escape closes the open Columns box and gives the focus back to its button.
  useEffect(() => {
    if (!columnsOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setColumnsOpen(false);
      columnsButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [columnsOpen]);

  const shown = useMemo(() => columns.filter((c) => visible.has(c.key)), [columns, visible]);
  // The status column is filtered on what it shows ("OK", "Unknown", the translated flags).
  const index = useMemo(
    () => indexRows(rows, columns, (c, row) => (c.kind === 'tags' ? meterStatusText(row, t) : formatCell(c, row))),
    [rows, columns, t],
  );
  const view = useMemo(() => viewRows(index, filters, sort), [index, filters, sort]);
  // Rows are keyed by their place in the view, not by device: after a keystroke the drawn rows
  // are updated in place (same DOM, same measured heights) instead of unmounted and mounted anew.
  const rowKey = useMemo(() => {
    const place = new Map(view.map((row, i) => [row, i]));
    return (row: ReadingRow) => place.get(row) ?? -1;
  }, [view]);
  const title = useCallback((c: ReadingColumn) => t(`deviceData.columns.${c.key}`), [t]);
  const numberFormat = useMemo(
    () => new Intl.NumberFormat(i18n.language === 'en' ? 'en-US' : 'lt-LT'),
    [i18n.language],
  );

  // One stable handler per column: typing re-renders neither the header nor the columns.
  const setFilter = useCallback((key: ReadingColumn['key'], value: string) => {
    startTransition(() => {
      setFilters((f) => ({ ...f, [key]: value }));
      setPage(1);
    });
  }, []);
  const filterHandlers = useMemo(
    () => new Map(columns.map((c) => [c.key, (value: string) => setFilter(c.key, value)])),
    [columns, setFilter],
  );

  const tableColumns = useMemo(
    (): TableColumnType<ReadingRow>[] => [
      {
        key: 'flags',
        // Named for screen readers (an empty header cell names nothing); the icons speak for themselves.
        title: <span className="visually-hidden">{t('deviceData.detail.actions')}</span>,
        width: ACTIONS_WIDTH,
        fixed: 'left',
        render: (_, row) => (
          <RowActions
            row={row}
            label={t('deviceData.history.open', { code: row.DeviceCode })}
            onChart={onChart}
            monthEnd={monthEnds?.get(row.DeviceId)}
          />
        ),
      },
      ...shown.map(
        (c): TableColumnType<ReadingRow> => ({
          key: c.key,
          width: widthOf(c),
          align: c.kind === 'number' ? 'right' : 'left',
          // The consumption stays in view at any width: the totals are fixed on the right.
          ...(c.total ? { fixed: 'right' as const } : {}),
          sorter: true,
          sortOrder: sort?.key === c.key ? sort.order : null,
          title: (
            <div className="column-head">
              <span className="column-title">{title(c)}</span>
              <FilterInput
                label={t('deviceData.detail.filter', { column: title(c) })}
                placeholder={t('deviceData.detail.filterPlaceholder')}
                onChange={filterHandlers.get(c.key)!}
              />
            </div>
          ),
          render: (_, row) => (c.kind === 'tags' ? statusFlags(row, t) : formatCell(c, row)),
        }),
      ),
    ],
    [shown, sort, t, title, filterHandlers, onChart, monthEnds],
  );

  const from = view.length === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, view.length);
  const fmt = (n: number) => numberFormat.format(n);

  // The toolbar does not depend on the filtered rows: a keystroke leaves it alone (the export
  // reads the rows of the moment through a ref when clicked).
  const viewRef = useRef(view);
  useLayoutEffect(() => {
    viewRef.current = view;
  }, [view]);
  const hasRows = view.length > 0;
  // Export only when there is data: some row with a reading in the period (not just devices).
  const hasData = view.some((r) => r.TimeFrom !== null || r.TimeTill !== null);
  const toolbar = useMemo(
    () => (
      <Space wrap style={{ marginBottom: 8, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Popover
            trigger="click"
            placement="bottomLeft"
            open={columnsOpen}
            onOpenChange={setColumnsOpen}
            // Drawn right after its button, so that Tab goes from the button into the boxes.
            getPopupContainer={(button) => button.parentElement ?? document.body}
            title={t('deviceData.detail.columns')}
            content={
              <Checkbox.Group
                className="column-toggles"
                value={[...visible]}
                onChange={(keys) => {
                  const next = new Set(keys as ReadingColumn['key'][]);
                  setVisible(next);
                  // A hidden column's filter no longer applies (its box goes with it).
                  setFilters((f) => Object.fromEntries(Object.entries(f).filter(([key]) => next.has(key as never))));
                }}
                options={columns.map((c) => ({ value: c.key, label: title(c) }))}
              />
            }
          >
            <Button ref={columnsButton} icon={<SettingOutlined />} aria-expanded={columnsOpen}>
              {t('deviceData.detail.columns')}
            </Button>
          </Popover>
          {hasRows && (
            <ExportButton
              disabled={!hasData}
              fileName="deviceData"
              getInput={() => ({
                sheetName: t('deviceData.sheetName'),
                columns: exportColumns(shown, title, t('deviceData.flags.title')),
                rows: viewRef.current,
                value: exportValue(flagText, (row) => meterStatusText(row, t)),
              })}
            />
          )}
        </Space>
        <Space>
          <Typography.Text id="readings-page-size">{t('deviceData.detail.pageSize')}</Typography.Text>
          <Select<number>
            aria-labelledby="readings-page-size"
            value={pageSize}
            style={{ width: 90 }}
            options={PAGE_SIZES.map((n) => ({ value: n, label: String(n) }))}
            onChange={(n) => {
              setPageSize(n);
              setPage(1);
            }}
          />
        </Space>
      </Space>
    ),
    [columns, visible, shown, pageSize, hasRows, hasData, t, title, flagText, columnsOpen],
  );
  const scroll = useMemo(() => ({ x: ACTIONS_WIDTH + shown.reduce((sum, c) => sum + widthOf(c), 0), y: 560 }), [shown]);
  const locale = useMemo(() => ({ emptyText: t('deviceData.detail.empty') }), [t]);
  const onChange = useCallback<NonNullable<TableProps<ReadingRow>['onChange']>>(
    (pagination, _filters, sorter, extra) => {
      if (extra.action === 'paginate') setPage(pagination.current ?? 1);
      if (extra.action === 'sort') {
        const s = Array.isArray(sorter) ? sorter[0] : sorter;
        setSort(s?.order && s.columnKey ? { key: s.columnKey as ReadingColumn['key'], order: s.order } : null);
        setPage(1);
      }
    },
    [],
  );

  return (
    <section aria-label={t('deviceData.detail.title')}>
      {toolbar}
      <Table<ReadingRow>
        className="readings-table"
        size="small"
        rowKey={rowKey}
        dataSource={view}
        columns={tableColumns}
        virtual
        scroll={scroll}
        rowClassName={rowClassName}
        locale={locale}
        pagination={{
          current: page,
          pageSize,
          total: view.length,
          showSizeChanger: false,
          position: ['bottomRight'],
          showTotal: () => t('deviceData.detail.showing', { from: fmt(from), to: fmt(to), total: fmt(view.length) }),
        }}
        onChange={onChange}
      />
    </section>
  );
}
