import { FilePdfOutlined } from '@ant-design/icons';
import { getRemoteRegisterPdf, isOperator, type RemoteBuilding, type WalkByFlat } from '@rodmenys/contract';
import { App, Button, Card, Form, Input, Space, Table, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../api/call';
import { useDeviceTypeName } from '../../api/devices';
import { useRemoteRegister, useSetRemoteException, useWalkByList } from '../../api/lifetime';
import { ExportButton, type ExportColumn } from '../../components/export';
import { FormDialog } from '../../components/form-dialog';
import { LoadError, useErrorText } from '../../components/load-error';
import { NumberFilter } from '../../components/number-field';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';
import { useSession } from '../../session';
import { CampaignsTab } from './campaigns-tab';
import { DeclarationsTab } from './declarations/declarations-tab';
import { DueTab } from './due-tab';
import { registerCell, registerColumns } from './lifetime-exports';

/** A building's exception note, written by group 1. */
function ExceptionDialog({ building, onClose }: { building: RemoteBuilding; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ note: string }>();
  const save = useSetRemoteException();
  return (
    <FormDialog<{ note: string }>
      title={t('lifetime.exceptionTitle', { address: building.Address })}
      form={form}
      pending={save.isPending}
      onSave={({ note }) =>
        save.mutateAsync({ params: { buildingId: building.BuildingId }, body: { note: note.trim() || null } })
      }
      onClose={onClose}
      formProps={{ layout: 'vertical', initialValues: { note: building.Exception?.Note ?? '' } }}
    >
      {(serverError) => (
        <Form.Item
          name="note"
          label={t('lifetime.exceptionNote')}
          extra={t('lifetime.exceptionHelp')}
          validateStatus={serverError ? 'error' : undefined}
          help={serverError ?? undefined}
        >
          <Input.TextArea autoFocus rows={4} maxLength={2000} />
        </Form.Item>
      )}
    </FormDialog>
  );
}

/** The remote-reading register: the summary, each building, the exception notes, the PDF. */
function RegisterTab() {
  const { t } = useTranslation();
  const language = useLanguage();
  const user = useSession();
  const typeName = useDeviceTypeName();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const register = useRemoteRegister();
  const [editing, setEditing] = useState<RemoteBuilding | null>(null);
  const data = register.data;
  const percent = (p: number | null) =>
    p === null ? '–' : `${p.toLocaleString(language === 'lt' ? 'lt-LT' : 'en-GB')} %`;
  const columns = registerColumns(t);
  const cell = registerCell;
  const pdf = async () => {
    try {
      await downloadFile(
        getRemoteRegisterPdf,
        { query: { lang: language } },
        `${t('lifetime.registerFile', { day: data?.Today ?? '' })}.pdf`,
      );
    } catch (error) {
      message.error(errorText(error));
    }
  };
  return (
    <>
      {register.error ? <LoadError error={register.error} onRetry={() => void register.refetch()} /> : null}
      {data ? (
        <Card size="small" style={{ marginBottom: 12 }}>
          <Typography.Paragraph style={{ marginBottom: 4 }}>
            {t('lifetime.deadline', { day: data.Deadline, count: data.DaysLeft })}
          </Typography.Paragraph>
          <Typography.Paragraph style={{ marginBottom: 0 }}>
            {t('lifetime.summary', {
              devices: data.Summary.Devices,
              remote: data.Summary.Remote,
              percent: percent(data.Summary.RemotePercent),
              late: data.Summary.LateNotRemote,
              buildings: data.Summary.Buildings,
              done: data.Summary.BuildingsDone,
            })}
          </Typography.Paragraph>
        </Card>
      ) : null}
      <Space wrap style={{ marginBottom: 12 }}>
        <ExportButton
          fileName={t('lifetime.registerFile', { day: data?.Today ?? '' })}
          disabled={!data?.Buildings.length}
          getInput={() => ({
            sheetName: t('lifetime.registerSheet'),
            columns,
            rows: data?.Buildings ?? [],
            value: cell,
          })}
        />
        <Button icon={<FilePdfOutlined aria-hidden />} onClick={() => void pdf()}>
          {t('lifetime.registerPdf')}
        </Button>
      </Space>
      <Table<RemoteBuilding>
        size="small"
        rowKey="BuildingId"
        loading={register.isLoading}
        dataSource={data?.Buildings ?? []}
        pagination={{ pageSize: 50, showSizeChanger: false }}
        scroll={{ x: true }}
        columns={[
          { title: t('lifetime.address'), dataIndex: 'Address' },
          { title: t('lifetime.devices'), dataIndex: 'Devices', align: 'right' },
          { title: t('lifetime.remote'), dataIndex: 'Remote', align: 'right' },
          { title: t('lifetime.remotePercent'), dataIndex: 'RemotePercent', align: 'right', render: percent },
          {
            title: t('lifetime.byType'),
            key: 'byType',
            render: (_, b) =>
              b.ByType.map((x) =>
                t('lifetime.typeCounts', {
                  type: typeName(x.DeviceTypeId),
                  remote: x.Remote,
                  walkBy: x.WalkBy,
                  manual: x.Manual,
                }),
              ).join('; '),
          },
          {
            title: t('lifetime.lateNotRemote'),
            key: 'late',
            render: (_, b) =>
              b.LateNotRemote.length ? (
                <span title={b.LateNotRemote.map((d) => d.DeviceCode).join(', ')}>{b.LateNotRemote.length}</span>
              ) : (
                0
              ),
          },
          {
            title: t('lifetime.exception'),
            key: 'exception',
            render: (_, b) => (
              <Space direction="vertical" size={0}>
                {b.Exception ? (
                  <span>
                    {b.Exception.Note}{' '}
                    <Typography.Text type="secondary">
                      ({formatDateTime(b.Exception.NotedAt)}
                      {b.Exception.NotedBy ? `, ${b.Exception.NotedBy}` : ''})
                    </Typography.Text>
                  </span>
                ) : null}
                {isOperator(user?.GroupId ?? 0) ? (
                  <Button
                    size="small"
                    onClick={() => setEditing(b)}
                    aria-label={`${t('lifetime.editException')}: ${b.Address}`}
                  >
                    {t('lifetime.editException')}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {editing ? <ExceptionDialog building={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}

/** Flats to read by hand: month ends not measured for N months in a row. */
function WalkByTab() {
  const { t } = useTranslation();
  const [months, setMonths] = useState(2);
  const list = useWalkByList({ months });
  const flats = list.data?.Flats ?? [];
  const columns: ExportColumn[] = [
    { key: 'Address', title: t('lifetime.address'), type: 'text' },
    { key: 'Flat', title: t('lifetime.flat'), type: 'text' },
    { key: 'Serials', title: t('lifetime.serials'), type: 'text' },
  ];
  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <NumberFilter
          id="walk-by-months"
          label={t('lifetime.walkByMonths')}
          value={months}
          onChange={setMonths}
          range={{ min: 1, max: 24, integer: true }}
        />
        <ExportButton
          fileName={t('lifetime.walkByFile')}
          disabled={!flats.length}
          getInput={() => ({
            sheetName: t('lifetime.walkBySheet'),
            columns,
            rows: flats,
            value: (f: WalkByFlat, c) =>
              c.key === 'Serials' ? f.DeviceCodes.join(', ') : f[c.key as keyof WalkByFlat],
          })}
        />
      </Space>
      {list.data ? (
        <Typography.Paragraph type="secondary">
          {t('lifetime.walkByMonthsShown', { months: list.data.Months.join(', ') })}
        </Typography.Paragraph>
      ) : null}
      {list.error ? <LoadError error={list.error} onRetry={() => void list.refetch()} /> : null}
      <Table<WalkByFlat>
        size="small"
        rowKey="FlatId"
        loading={list.isLoading}
        dataSource={flats}
        pagination={{ pageSize: 50, showSizeChanger: false }}
        scroll={{ x: true }}
        columns={[
          { title: t('lifetime.address'), dataIndex: 'Address' },
          { title: t('lifetime.flat'), dataIndex: 'Flat' },
          { title: t('lifetime.serials'), dataIndex: 'DeviceCodes', render: (c: string[]) => c.join(', ') },
        ]}
      />
    </>
  );
}

/**
 * Devices over their lifetime (docs/device-lifetime.md): due lists, exchange campaigns, the
 * remote-reading register, the walk-by list.
 */
export default function DevicesPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState('due');
  const [campaignId, setCampaignId] = useState<number | null>(null);
  const [createdId, setCreatedId] = useState<number | null>(null);
  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('nav.devices')}
      </Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'due',
            label: t('lifetime.dueTab'),
            children: (
              <DueTab
                onCreated={(id) => {
                  setCampaignId(id);
                  setCreatedId(id);
                  setTab('campaigns');
                }}
              />
            ),
          },
          { key: 'register', label: t('lifetime.registerTab'), children: <RegisterTab /> },
          { key: 'walkBy', label: t('lifetime.walkByTab'), children: <WalkByTab /> },
          {
            key: 'campaigns',
            label: t('campaigns.tab'),
            children: <CampaignsTab openId={campaignId} onOpen={setCampaignId} createdId={createdId} />,
          },
          { key: 'declarations', label: t('declarationsOffice.tab'), children: <DeclarationsTab /> },
        ]}
      />
    </>
  );
}
