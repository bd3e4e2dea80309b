import { FilePdfOutlined } from '@ant-design/icons';
import {
  type BuildingDeliveries,
  getPrintList,
  listOccupantDeliveries,
  type OccupantDelivery,
} from '@rodmenys/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Collapse, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../api/call';
import { useOccupantDeliveries } from '../../api/deliveries';
import { keyOf } from '../../api/query';
import { LoadError, useErrorText } from '../../components/load-error';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';
import { type AccessOccupancy, OccupantAccessDialog } from '../master-data/occupant-access';

/** The reason the server logs for a notice it could not send without a mail server. */
const NOT_CONFIGURED = /SMTP_URL is not set/;

const STATUS_COLOR: Record<OccupantDelivery['Status'], string> = {
  queued: 'default',
  sent: 'green',
  failed: 'red',
  printed: 'blue',
};

/** Characters no file system takes in a name, and runs of spaces. */
const safe = (name: string) =>
  name
    .replace(/[\\/:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** A delivery's state in words: the status, and for a failure its reason and what happens next. */
function StatusCell({ d }: { d: OccupantDelivery }) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" size={0}>
      <Tag color={STATUS_COLOR[d.Status]}>{t(`statements.occupantDeliveries.status.${d.Status}`)}</Tag>
      {d.Status === 'sent' && d.SentAt && (
        <Typography.Text type="secondary">{formatDateTime(d.SentAt)}</Typography.Text>
      )}
      {d.Status === 'printed' && d.PrintedAt && (
        <Typography.Text type="secondary">{formatDateTime(d.PrintedAt)}</Typography.Text>
      )}
      {d.Error && (
        <Typography.Text type="danger">
          {NOT_CONFIGURED.test(d.Error) ? t('mailOptIn.noServer') : <code>{d.Error}</code>}
        </Typography.Text>
      )}
      {d.Status === 'failed' && (
        <Typography.Text type="secondary">
          {d.GivenUp
            ? t('statements.occupantDeliveries.givenUp', { count: d.Attempts })
            : d.NextAttemptAt
              ? t('statements.occupantDeliveries.retry', { count: d.Attempts, at: formatDateTime(d.NextAttemptAt) })
              : null}
        </Typography.Text>
      )}
    </Space>
  );
}

/** One building's deliveries: a row per occupant, each with its link and letter code (docs/occupant-access.md). */
function BuildingTable({ building }: { building: BuildingDeliveries }) {
  const { t } = useTranslation();
  const [accessOf, setAccessOf] = useState<{ occupancy: AccessOccupancy; flat: string } | null>(null);
  return (
    <>
      <Table<OccupantDelivery>
        size="small"
        rowKey="Id"
        dataSource={building.Deliveries}
        pagination={building.Deliveries.length > 20 ? { pageSize: 20 } : false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('statements.occupantDeliveries.flat'), dataIndex: 'Flat' },
          { title: t('statements.occupantDeliveries.occupant'), dataIndex: 'Name' },
          {
            title: t('statements.occupantDeliveries.channel'),
            render: (_: unknown, d) =>
              d.Channel === 'email' ? (
                <>
                  {t('statements.occupantDeliveries.byEmail')}: {d.Email}
                </>
              ) : (
                t('statements.occupantDeliveries.byLetter')
              ),
          },
          {
            title: t('statements.occupantDeliveries.language'),
            dataIndex: 'Language',
            render: (l: string) => l.toUpperCase(),
          },
          { title: t('statements.occupantDeliveries.state'), render: (_: unknown, d) => <StatusCell d={d} /> },
          {
            title: t('occupantAccess.open'),
            render: (_: unknown, d) => (
              <Button
                size="small"
                type="link"
                aria-label={t('occupantAccess.openOf', { name: d.Name })}
                onClick={() =>
                  setAccessOf({
                    occupancy: { Id: d.OccupancyId, Name: d.Name, Language: d.Language, FlatId: d.FlatId },
                    flat: d.Flat,
                  })
                }
              >
                {t('occupantAccess.open')}
              </Button>
            ),
          },
        ]}
      />
      {accessOf && (
        <OccupantAccessDialog
          occupancy={accessOf.occupancy}
          address={{ street: building.Address, city: '', flat: accessOf.flat }}
          onClose={() => setAccessOf(null)}
        />
      )}
    </>
  );
}

/** The print list's button: one PDF of the building's letters, each with a new code (group 1). */
function PrintListButton({ month, building }: { month: string; building: BuildingDeliveries }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadFile(
        getPrintList,
        { params: { buildingId: building.BuildingId }, query: { month, lang: language } },
        `${safe(t('statements.occupantDeliveries.fileName', { month, address: building.Address }))}.pdf`,
      );
      await queryClient.invalidateQueries({ queryKey: keyOf(listOccupantDeliveries) });
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<FilePdfOutlined aria-hidden />} loading={busy} onClick={() => void download()}>
      {t('statements.occupantDeliveries.printList', { count: building.Letters })}
    </Button>
  );
}

/**
 * The occupants' delivery log of the month per building (docs/delivery.md): who got a notice by
 * e-mail (queued, sent, failed with the reason and the next attempt) and who a letter (queued,
 * printed); group 1 downloads a building's letters. Groups 1 and 2 (its own buildings).
 */
export function OccupantDeliveriesCard({
  month,
  locationParentId,
  canPrint,
}: {
  month: string;
  locationParentId?: string;
  canPrint: boolean;
}) {
  const { t } = useTranslation();
  const deliveries = useOccupantDeliveries({ month, ...(locationParentId ? { locationParentId } : {}) }, true);
  const buildings = deliveries.data?.Buildings ?? [];
  return (
    <Card
      size="small"
      className="occupant-deliveries"
      style={{ marginTop: 16 }}
      title={t('statements.occupantDeliveries.title')}
    >
      <Typography.Paragraph type="secondary">{t('statements.occupantDeliveries.help')}</Typography.Paragraph>
      {deliveries.error && <LoadError error={deliveries.error} onRetry={() => void deliveries.refetch()} />}
      {deliveries.data && !deliveries.data.MailConfigured && (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t('mailOptIn.notConfigured')} />
      )}
      {deliveries.data && !buildings.length && (
        <Typography.Paragraph>{t('statements.occupantDeliveries.none')}</Typography.Paragraph>
      )}
      {canPrint && buildings.some((b) => b.Letters > 0) && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message={t('statements.occupantDeliveries.newCodes')}
        />
      )}
      {buildings.length > 0 && (
        <Collapse
          items={buildings.map((b) => ({
            key: b.BuildingId,
            label: (
              <Space wrap>
                <Typography.Text strong>{b.Address}</Typography.Text>
                <Typography.Text type="secondary">
                  {t('statements.occupantDeliveries.counts', {
                    sent: b.Sent,
                    queued: b.Queued,
                    failed: b.Failed,
                    printed: b.Printed,
                  })}
                </Typography.Text>
              </Space>
            ),
            // The download sits in the panel, not its header: a button inside the header's button is
            // not reachable by every screen reader.
            children: (
              <>
                {canPrint && b.Letters > 0 && (
                  <div style={{ marginBottom: 12 }}>
                    <PrintListButton month={month} building={b} />
                  </div>
                )}
                <BuildingTable building={b} />
              </>
            ),
          }))}
        />
      )}
    </Card>
  );
}
