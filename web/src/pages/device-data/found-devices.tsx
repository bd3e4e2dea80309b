import type { ReadingRow } from '@rodmenys/contract';
import { Button, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FlagMarker, ReplacementMarker } from './flag-marker';

interface FoundDevicesProps {
  rows: readonly ReadingRow[];
  selected: readonly number[];
  onSelect: (deviceIds: number[]) => void;
  /** The load failed: say "not loaded", not "0 devices". */
  failed?: boolean;
}

const place = (r: ReadingRow) => [[r.Street, r.Building].filter(Boolean).join(' '), r.Flat].filter(Boolean).join(' – ');

/** The devices of the picked type found in the selection; clicking a row (or its box) selects it. */
export function FoundDevices({ rows, selected, onSelect, failed = false }: FoundDevicesProps) {
  const { t } = useTranslation();
  const chosen = new Set(selected);
  const toggle = (id: number) => onSelect(chosen.has(id) ? selected.filter((s) => s !== id) : [...selected, id]);
  return (
    <>
      <Space wrap style={{ marginBottom: 8 }}>
        <Typography.Text strong>
          {failed ? t('deviceData.found.notLoaded') : t('deviceData.found.title', { count: rows.length })}
        </Typography.Text>
        <Button size="small" disabled={rows.length === 0} onClick={() => onSelect(rows.map((r) => r.DeviceId))}>
          {t('deviceData.found.selectAll')}
        </Button>
        <Button size="small" disabled={selected.length === 0} onClick={() => onSelect([])}>
          {t('deviceData.found.clear')}
        </Button>
        <Typography.Text type="secondary">{t('deviceData.found.hint')}</Typography.Text>
      </Space>
      <Table<ReadingRow>
        size="small"
        rowKey="DeviceId"
        dataSource={rows as ReadingRow[]}
        pagination={false}
        virtual
        scroll={{ x: 720, y: 260 }}
        locale={{ emptyText: failed ? t('deviceData.found.notLoaded') : t('deviceData.found.empty') }}
        rowSelection={{
          selectedRowKeys: selected as number[],
          onChange: (keys) => onSelect(keys as number[]),
          columnWidth: 40,
          // antd names these boxes in English only.
          getTitleCheckboxProps: () => ({ 'aria-label': t('common.selectAllRows') }),
          getCheckboxProps: (r) => {
            const n = rows.indexOf(r) + 1;
            return {
              'aria-label': chosen.has(r.DeviceId) ? t('common.rowSelected', { n }) : t('common.selectRow', { n }),
            };
          },
        }}
        rowClassName={(r) => `clickable-row${r.Flags.length > 0 ? ' reading-danger' : ''}`}
        onRow={(r) => ({
          onClick: (event) => {
            // The selection box handles its own clicks.
            if (!(event.target as HTMLElement).closest('.ant-table-selection-column')) toggle(r.DeviceId);
          },
        })}
        columns={[
          {
            key: 'flag',
            title: <span className="visually-hidden">{t('deviceData.found.marks')}</span>,
            width: 56,
            render: (_, r) => (
              <>
                <FlagMarker flags={r.Flags} row={r} />
                <ReplacementMarker row={r} />
              </>
            ),
          },
          { key: 'place', title: t('deviceData.found.place'), width: 260, render: (_, r) => place(r) },
          { key: 'code', title: t('deviceData.columns.DeviceCode'), dataIndex: 'DeviceCode', width: 160 },
          { key: 'description', title: t('deviceData.columns.DeviceDescription'), dataIndex: 'DeviceDescription' },
        ]}
      />
    </>
  );
}
