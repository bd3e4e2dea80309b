import { FilePdfOutlined, PlusOutlined } from '@ant-design/icons';
import { DEVICE_TYPES, type DueRow, getDueWorkList, isOperator } from '@rodmenys/contract';
import { App, Button, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../api/call';
import { useDeviceTypeName } from '../../api/devices';
import { useDueDevices } from '../../api/lifetime';
import { ExportButton } from '../../components/export';
import { LoadError, useErrorText } from '../../components/load-error';
import { NumberFilter } from '../../components/number-field';
import { useLanguage } from '../../i18n';
import { useSession } from '../../session';
import { BuildingFilter } from './building-filter';
import { CreateCampaignDialog } from './campaign-dialogs';
import { dueCell, dueColumns } from './lifetime-exports';

const BUCKET_COLORS = { overdue: 'red', thisMonth: 'orange', soon: 'blue' } as const;

/**
 * The due list: overdue, this month, the next months; exports and the fitter's work list. Group 1
 * selects devices and starts an exchange campaign from them (`onCreated` opens it).
 */
export function DueTab({ onCreated }: { onCreated: (campaignId: number) => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const typeName = useDeviceTypeName();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [months, setMonths] = useState(3);
  const [deviceTypeId, setDeviceTypeId] = useState<number | undefined>();
  const [buildingId, setBuildingId] = useState<number | undefined>();
  const query = { months, ...(deviceTypeId ? { deviceTypeId } : {}), ...(buildingId ? { buildingId } : {}) };
  const due = useDueDevices(query);
  const rows = due.data?.Rows ?? [];
  const [busy, setBusy] = useState(false);
  const operator = isOperator(useSession()?.GroupId ?? 0);
  const [selected, setSelected] = useState<number[]>([]);
  const [creating, setCreating] = useState(false);
  const columns = dueColumns(t);
  const cell = dueCell(t, typeName);
  const workList = async () => {
    setBusy(true);
    try {
      await downloadFile(
        getDueWorkList,
        { query: { ...query, lang: language } },
        `${t('lifetime.workListFile', { day: due.data?.Today ?? '' })}.pdf`,
      );
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <NumberFilter
          id="due-months"
          label={t('lifetime.months')}
          value={months}
          onChange={setMonths}
          range={{ min: 0, max: 60, integer: true }}
        />
        <Select
          aria-label={t('lifetime.type')}
          allowClear
          placeholder={t('lifetime.allTypes')}
          style={{ minWidth: 220 }}
          value={deviceTypeId}
          onChange={(v) => setDeviceTypeId(v)}
          options={DEVICE_TYPES.map((id) => ({ value: id, label: typeName(id) }))}
        />
        <BuildingFilter value={buildingId} onChange={setBuildingId} />
        <ExportButton
          fileName={t('lifetime.dueFile', { day: due.data?.Today ?? '' })}
          disabled={!rows.length}
          getInput={() => ({ sheetName: t('lifetime.dueSheet'), columns, rows, value: cell })}
        />
        <Button icon={<FilePdfOutlined aria-hidden />} loading={busy} onClick={() => void workList()}>
          {t('lifetime.workList')}
        </Button>
        {operator ? (
          <Button disabled={!rows.length} onClick={() => setSelected(rows.map((r) => r.DeviceId))}>
            {t('campaigns.selectAll')}
          </Button>
        ) : null}
        {operator ? (
          <Button icon={<PlusOutlined aria-hidden />} disabled={!selected.length} onClick={() => setCreating(true)}>
            {selected.length ? t('campaigns.newCampaignCount', { count: selected.length }) : t('campaigns.newCampaign')}
          </Button>
        ) : null}
      </Space>
      {due.error ? <LoadError error={due.error} onRetry={() => void due.refetch()} /> : null}
      <Table<DueRow>
        size="small"
        rowKey="DeviceId"
        loading={due.isLoading}
        dataSource={rows}
        pagination={{ pageSize: 50, showSizeChanger: false }}
        scroll={{ x: true }}
        rowSelection={
          operator
            ? {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                onChange: (keys) => setSelected(keys as number[]),
                // The title box would sit in antd's hidden measure row too, focusable there (axe): a
                // button above the table selects every listed device instead.
                hideSelectAll: true,
                // antd names these boxes in English only.
                getCheckboxProps: (r) => ({ 'aria-label': t('campaigns.selectRow', { serial: r.DeviceCode }) }),
              }
            : undefined
        }
        columns={[
          { title: t('lifetime.address'), dataIndex: 'Address' },
          { title: t('lifetime.flat'), dataIndex: 'Flat' },
          { title: t('lifetime.type'), dataIndex: 'DeviceTypeId', render: (id: number) => typeName(id) },
          { title: t('lifetime.serial'), dataIndex: 'DeviceCode' },
          { title: t('lifetime.dueDate'), dataIndex: 'DueDate' },
          { title: t('lifetime.reason'), dataIndex: 'Reason', render: (r: string) => t(`lifetime.reasons.${r}`) },
          {
            title: t('lifetime.when'),
            dataIndex: 'Bucket',
            render: (b: DueRow['Bucket']) => <Tag color={BUCKET_COLORS[b]}>{t(`lifetime.buckets.${b}`)}</Tag>,
          },
        ]}
      />
      {creating ? (
        <CreateCampaignDialog
          deviceIds={selected}
          onClose={(campaignId) => {
            setCreating(false);
            if (campaignId) {
              setSelected([]);
              onCreated(campaignId);
            }
          }}
        />
      ) : null}
    </>
  );
}
