import { FilePdfOutlined, PhoneOutlined } from '@ant-design/icons';
import {
  DECLARATION_STATUSES,
  type DeclarationDeviceRow,
  type DeclarationStatus,
  getUndeclaredPrintList,
} from '@rodmenys/contract';
import { App, Button, DatePicker, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../../api/call';
import { useDeclarationDevices, useDeclarations } from '../../../api/declarations-office';
import { useDeviceTypeName } from '../../../api/devices';
import { LoadError, useErrorText } from '../../../components/load-error';
import { useLanguage } from '../../../i18n';
import { useProviderNow } from '../../../session';
import { BuildingFilter } from '../building-filter';
import { PhoneDialog } from './phone-dialog';
import { ReviewTable } from './review-table';

/** The devices of the window without a declaration; the reminders sent; the print list for the rest. */
function UndeclaredTable({ rows, loading }: { rows: readonly DeclarationDeviceRow[]; loading: boolean }) {
  const { t } = useTranslation();
  const typeName = useDeviceTypeName();
  return (
    <Table<DeclarationDeviceRow>
      size="small"
      rowKey="DeviceId"
      loading={loading}
      dataSource={rows.filter((r) => !r.Declared)}
      pagination={{ pageSize: 50, showSizeChanger: false }}
      scroll={{ x: true }}
      columns={[
        { title: t('lifetime.address'), dataIndex: 'Address' },
        { title: t('lifetime.flat'), dataIndex: 'Flat' },
        { title: t('declarationsOffice.occupant'), dataIndex: 'OccupantName' },
        { title: t('lifetime.type'), dataIndex: 'DeviceTypeId', render: (id: number) => typeName(id) },
        { title: t('lifetime.serial'), dataIndex: 'DeviceCode' },
        {
          title: t('declarationsOffice.reminderBy'),
          dataIndex: 'Email',
          render: (email: boolean) => (email ? t('declarationsOffice.byEmail') : t('declarationsOffice.byPost')),
        },
        {
          title: t('declarationsOffice.reminders'),
          dataIndex: 'Reminders',
          render: (kinds: string[]) =>
            kinds.length ? kinds.map((k) => <Tag key={k}>{t(`declarationsOffice.reminderKinds.${k}`)}</Tag>) : '–',
        },
      ]}
    />
  );
}

/**
 * The back office's declarations (docs/declared-readings.md): a month's declarations to
 * review, the devices not declared in its window, a declaration taken by phone, the print list.
 */
export function DeclarationsTab() {
  const { t } = useTranslation();
  const language = useLanguage();
  const now = useProviderNow();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [month, setMonth] = useState<string | undefined>();
  const [buildingId, setBuildingId] = useState<number | undefined>();
  const [status, setStatus] = useState<DeclarationStatus | undefined>();
  const [view, setView] = useState<'declarations' | 'undeclared'>('declarations');
  const [phoning, setPhoning] = useState(false);
  const devices = useDeclarationDevices({ ...(month ? { month } : {}), ...(buildingId ? { buildingId } : {}) });
  const shown = month ?? devices.data?.Month;
  const declarations = useDeclarations(
    { month: shown ?? '', ...(buildingId ? { buildingId } : {}), ...(status ? { status } : {}) },
    // Only once the window's month is known.
    !!shown,
  );
  const rows = devices.data?.Rows ?? [];
  const missing = rows.filter((r) => !r.Declared).length;
  const printList = async () => {
    try {
      await downloadFile(
        getUndeclaredPrintList,
        { query: { ...(shown ? { month: shown } : {}), ...(buildingId ? { buildingId } : {}), lang: language } },
        `${t('declarationsOffice.printListFile', { month: shown ?? '' })}.pdf`,
      );
    } catch (error) {
      message.error(errorText(error));
    }
  };
  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <label htmlFor="declarations-month">{t('declarationsOffice.month')}</label>
        <DatePicker
          id="declarations-month"
          picker="month"
          allowClear={false}
          value={shown ? dayjs(`${shown}-01`) : null}
          disabledDate={(d: Dayjs) => d.isAfter(now(), 'month')}
          onChange={(d) => d && setMonth(d.format('YYYY-MM'))}
        />
        <BuildingFilter value={buildingId} onChange={setBuildingId} />
        <Button type="primary" icon={<PhoneOutlined aria-hidden />} onClick={() => setPhoning(true)}>
          {t('declarationsOffice.phone')}
        </Button>
      </Space>
      {devices.data ? (
        <Typography.Paragraph type="secondary">
          {t('declarationsOffice.window', {
            opens: devices.data.Opens,
            closes: devices.data.Closes,
            declared: rows.length - missing,
            devices: rows.length,
          })}
        </Typography.Paragraph>
      ) : null}
      <Segmented
        aria-label={t('declarationsOffice.view')}
        style={{ marginBottom: 12 }}
        value={view}
        onChange={(v) => setView(v as typeof view)}
        options={[
          { value: 'declarations', label: t('declarationsOffice.declarations') },
          { value: 'undeclared', label: t('declarationsOffice.undeclared', { count: missing }) },
        ]}
      />
      {devices.error ? <LoadError error={devices.error} onRetry={() => void devices.refetch()} /> : null}
      {view === 'declarations' ? (
        <>
          <Space wrap style={{ marginBottom: 12 }}>
            <Select
              aria-label={t('declarationsOffice.status')}
              allowClear
              placeholder={t('declarationsOffice.allStatuses')}
              style={{ minWidth: 200 }}
              value={status}
              onChange={(v) => setStatus(v)}
              options={DECLARATION_STATUSES.map((s) => ({ value: s, label: t(`declarationsOffice.statuses.${s}`) }))}
            />
          </Space>
          {declarations.error ? (
            <LoadError error={declarations.error} onRetry={() => void declarations.refetch()} />
          ) : null}
          <ReviewTable rows={shown ? (declarations.data?.Rows ?? []) : []} loading={declarations.isLoading} />
        </>
      ) : (
        <>
          <Space wrap style={{ marginBottom: 12 }}>
            <Button icon={<FilePdfOutlined aria-hidden />} onClick={() => void printList()}>
              {t('declarationsOffice.printList')}
            </Button>
          </Space>
          <UndeclaredTable rows={rows} loading={devices.isLoading} />
        </>
      )}
      {phoning ? <PhoneDialog devices={rows} onClose={() => setPhoning(false)} /> : null}
    </>
  );
}
