import { FilePdfOutlined, MailOutlined } from '@ant-design/icons';
import {
  type CampaignBuilding,
  type CampaignCounts,
  type CampaignDevice,
  type CampaignSummary,
  getCampaignPrintList,
  isOperator,
} from '@rodmenys/contract';
import { App, Button, Card, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../api/call';
import { useCampaign, useCampaigns, useDeleteCampaign, useSendNotices } from '../../api/campaigns';
import { useDeviceTypeName } from '../../api/devices';
import { LoadError, useErrorText } from '../../components/load-error';
import { useLanguage } from '../../i18n';
import { useSession } from '../../session';
import { NoAccessDialog, PlanVisitDialog, RenameCampaignDialog } from './campaign-dialogs';

/*
 * Exchange campaigns on the Devices page (docs/device-lifetime.md, "Exchange campaigns"): the list
 * with each campaign's progress, and one campaign's buildings (visit day, counts, occupants told)
 * and devices (state, visits without access). Group 1 manages; group 2 reads its scope and records
 * visits without access.
 */

const STATE_COLORS = { done: 'green', noAccess: 'orange', open: 'default' } as const;

function useProgress() {
  const { t } = useTranslation();
  return (c: CampaignCounts) =>
    t('campaigns.progress', { planned: c.Planned, done: c.Done, noAccess: c.NoAccess, open: c.Open });
}

/** One building's devices with their states; a button per device to record a visit without access. */
function BuildingDevices({ id, building }: { id: number; building: CampaignBuilding }) {
  const { t } = useTranslation();
  const typeName = useDeviceTypeName();
  const [visiting, setVisiting] = useState<CampaignDevice | null>(null);
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <Table<CampaignDevice>
        size="small"
        rowKey="DeviceId"
        pagination={false}
        dataSource={building.Devices}
        aria-label={t('campaigns.devicesOf', { address: building.Address })}
        scroll={{ x: true }}
        columns={[
          { title: t('lifetime.flat'), dataIndex: 'Flat' },
          { title: t('lifetime.type'), dataIndex: 'DeviceTypeId', render: (v: number) => typeName(v) },
          { title: t('lifetime.serial'), dataIndex: 'DeviceCode' },
          {
            title: t('campaigns.state'),
            key: 'state',
            render: (_, d) => (
              <Space direction="vertical" size={0}>
                <Tag color={STATE_COLORS[d.State]}>{t(`campaigns.states.${d.State}`)}</Tag>
                {d.DoneHow ? (
                  <Typography.Text type="secondary">
                    {t(`campaigns.doneHow.${d.DoneHow}`, { code: d.NewDeviceCode ?? '', day: d.DoneOn ?? '' })}
                  </Typography.Text>
                ) : null}
              </Space>
            ),
          },
          {
            title: t('campaigns.visits'),
            key: 'visits',
            render: (_, d) =>
              d.NoAccess.map((v) => (
                <div key={v.Id}>
                  {t('campaigns.visitLine', { day: v.Day, reason: v.Reason, by: v.RecordedBy ?? '–' })}
                </div>
              )),
          },
          {
            title: <span className="visually-hidden">{t('campaigns.recordNoAccess')}</span>,
            key: 'actions',
            render: (_, d) =>
              d.State === 'done' ? null : (
                <Button
                  size="small"
                  onClick={() => setVisiting(d)}
                  // The spoken name starts with the visible word (WCAG 2.5.3); what it does is its description.
                  aria-label={t('campaigns.recordNoAccessNamed', { serial: d.DeviceCode })}
                  title={t('campaigns.recordNoAccessOf', { serial: d.DeviceCode })}
                >
                  {t('campaigns.recordNoAccess')}
                </Button>
              ),
          },
        ]}
      />
      {visiting ? (
        <NoAccessDialog
          id={id}
          device={visiting}
          defaultDay={building.Visit?.Day ?? today}
          onClose={() => setVisiting(null)}
        />
      ) : null}
    </>
  );
}

/** One campaign: its actions (group 1), progress, and per building the visit day, counts and devices. */
function CampaignDetailView({ id, onBack, focusTitle }: { id: number; onBack: () => void; focusTitle: boolean }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const operator = isOperator(useSession()?.GroupId ?? 0);
  const { message } = App.useApp();
  const errorText = useErrorText();
  const progress = useProgress();
  const campaign = useCampaign(id);
  const send = useSendNotices();
  const remove = useDeleteCampaign();
  const [renaming, setRenaming] = useState(false);
  const [planning, setPlanning] = useState<CampaignBuilding | null>(null);
  const c = campaign.data;
  // A campaign just made: the focus goes to its name, where the person continues (docs/accessibility.md).
  const title = useRef<HTMLHeadingElement>(null);
  const focused = useRef(false);
  useEffect(() => {
    if (focusTitle && c && !focused.current) {
      focused.current = true;
      title.current?.focus();
    }
  }, [focusTitle, c]);
  const sendNotices = async () => {
    try {
      const r = await send.mutateAsync({ params: { id } });
      message.success(
        t('campaigns.sent', { mailed: r.Mailed, printed: r.Printed, failed: r.Failed, already: r.AlreadyTold }),
      );
    } catch (error) {
      message.error(errorText(error));
    }
  };
  const printList = async () => {
    try {
      await downloadFile(
        getCampaignPrintList,
        { params: { id }, query: { lang: language } },
        `${t('campaigns.printListFile', { id })}.pdf`,
      );
    } catch (error) {
      message.error(errorText(error));
    }
  };
  return (
    <>
      <Button onClick={onBack} style={{ marginBottom: 12 }}>
        {t('campaigns.back')}
      </Button>
      {campaign.error ? <LoadError error={campaign.error} onRetry={() => void campaign.refetch()} /> : null}
      {c ? (
        <>
          <Typography.Title level={2} ref={title} tabIndex={-1}>
            {c.Name}
          </Typography.Title>
          <Typography.Paragraph>
            {t('campaigns.started')}: {c.StartedOn}
            {c.CreatedBy ? ` (${c.CreatedBy})` : ''}. {progress(c.Counts)}
          </Typography.Paragraph>
          {operator ? (
            <Space wrap style={{ marginBottom: 12 }}>
              <Button
                type="primary"
                icon={<MailOutlined aria-hidden />}
                loading={send.isPending}
                onClick={() => void sendNotices()}
              >
                {t('campaigns.sendNotices')}
              </Button>
              <Button icon={<FilePdfOutlined aria-hidden />} onClick={() => void printList()}>
                {t('campaigns.printList')}
              </Button>
              <Button onClick={() => setRenaming(true)}>{t('campaigns.rename')}</Button>
              <Popconfirm
                title={t('campaigns.deleteConfirm')}
                okText={t('campaigns.delete')}
                cancelText={t('common.no')}
                onConfirm={async () => {
                  await remove.mutateAsync({ params: { id } });
                  message.success(t('campaigns.deleted'));
                  onBack();
                }}
              >
                <Button danger>{t('campaigns.delete')}</Button>
              </Popconfirm>
            </Space>
          ) : null}
          {c.Buildings.map((b) => (
            <Card
              key={b.BuildingId}
              size="small"
              style={{ marginBottom: 12 }}
              title={
                <Typography.Title level={3} style={{ fontSize: 16, margin: 0 }}>
                  {b.Address}
                </Typography.Title>
              }
            >
              <Space wrap size="large" style={{ marginBottom: 8 }}>
                <span>
                  {t('campaigns.visit')}:{' '}
                  {b.Visit
                    ? `${b.Visit.Day}${b.Visit.From || b.Visit.To ? ` ${b.Visit.From ?? ''}–${b.Visit.To ?? ''}` : ''}`
                    : t('campaigns.notPlanned')}
                </span>
                <span>{progress(b.Counts)}</span>
                <span>
                  {t('campaigns.told')}: {t('campaigns.toldCounts', { mailed: b.Mailed, printed: b.Printed })}
                </span>
                {operator ? (
                  <Button
                    size="small"
                    onClick={() => setPlanning(b)}
                    aria-label={t('campaigns.planOf', { address: b.Address })}
                  >
                    {t('campaigns.plan')}
                  </Button>
                ) : null}
              </Space>
              <BuildingDevices id={id} building={b} />
            </Card>
          ))}
        </>
      ) : null}
      {renaming && c ? <RenameCampaignDialog id={id} name={c.Name} onClose={() => setRenaming(false)} /> : null}
      {planning ? <PlanVisitDialog id={id} building={planning} onClose={() => setPlanning(null)} /> : null}
    </>
  );
}

/** The campaigns with their progress; one opens in place. */
export function CampaignsTab({
  openId,
  onOpen,
  createdId = null,
}: {
  openId: number | null;
  onOpen: (id: number | null) => void;
  /** The campaign just made from the due list: its name takes the focus when it opens. */
  createdId?: number | null;
}) {
  return openId === null ? (
    <CampaignList onOpen={onOpen} />
  ) : (
    <CampaignDetailView key={openId} id={openId} onBack={() => onOpen(null)} focusTitle={openId === createdId} />
  );
}

function CampaignList({ onOpen }: { onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const campaigns = useCampaigns();
  return (
    <>
      {campaigns.error ? <LoadError error={campaigns.error} onRetry={() => void campaigns.refetch()} /> : null}
      <Table<CampaignSummary>
        size="small"
        rowKey="Id"
        loading={campaigns.isLoading}
        dataSource={campaigns.data ?? []}
        locale={{ emptyText: t('campaigns.none') }}
        pagination={{ pageSize: 50, showSizeChanger: false }}
        scroll={{ x: true }}
        columns={[
          {
            title: t('campaigns.name'),
            dataIndex: 'Name',
            render: (name: string, c) => (
              <Button type="link" onClick={() => onOpen(c.Id)} aria-label={t('campaigns.openCampaignOf', { name })}>
                {name}
              </Button>
            ),
          },
          { title: t('campaigns.started'), dataIndex: 'StartedOn' },
          { title: t('campaigns.createdBy'), dataIndex: 'CreatedBy', render: (by: string | null) => by ?? '–' },
          { title: t('campaigns.buildings'), dataIndex: 'BuildingCount', align: 'right' },
          { title: t('campaigns.planned'), key: 'planned', align: 'right', render: (_, c) => c.Counts.Planned },
          { title: t('campaigns.done'), key: 'done', align: 'right', render: (_, c) => c.Counts.Done },
          { title: t('campaigns.noAccess'), key: 'noAccess', align: 'right', render: (_, c) => c.Counts.NoAccess },
          { title: t('campaigns.open'), key: 'open', align: 'right', render: (_, c) => c.Counts.Open },
        ]}
      />
    </>
  );
}
