import type { LnsConnectionHealth } from '@rodmenys/contract';
import { Descriptions, Drawer, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLnsConnectionHealth } from '../../api/lorawan';
import { FocusableScroll } from '../../components/focusable-scroll';
import { LoadError } from '../../components/load-error';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';
import { DayBars } from './day-bars';
import { GatewaysTable } from './gateways-table';

type Health = LnsConnectionHealth;

/** Makes a drawer's scrolling body reachable by keyboard and named (it may hold no button). */
export const nameDrawerBody = (rootClass: string, name: string) => {
  const body = document.querySelector<HTMLElement>(`.${rootClass} .ant-drawer-body`);
  if (!body) return;
  body.tabIndex = 0;
  body.setAttribute('role', 'region');
  body.setAttribute('aria-label', name);
};

function Summary({ h }: { h: Health }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const events = Object.entries(h.EventsLast24h).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }}>
      <Descriptions.Item label={t('lorawan.health.lastEvent')}>
        <Space>
          {h.LastEvent ? formatDateTime(h.LastEvent) : t('collectors.never')}
          {h.Silent ? <Tag color="error">{t('fleet.silent')}</Tag> : h.LastEvent && <Tag>{t('fleet.ok')}</Tag>}
        </Space>
      </Descriptions.Item>
      <Descriptions.Item label={t('lorawan.health.perDay')}>
        <DayBars days={h.UplinksPerDay} />
      </Descriptions.Item>
      <Descriptions.Item label={t('lorawan.health.events')}>
        {events.length === 0 ? '—' : events.map(([kind, n]) => `${kind}: ${n.toLocaleString(language)}`).join(' · ')}
      </Descriptions.Item>
      <Descriptions.Item label={t('lorawan.health.devicesHeard')}>
        {t('fleet.heardOf', { heard: h.DevicesHeard, expected: h.Expected })}
      </Descriptions.Item>
      <Descriptions.Item label={t('lorawan.health.unmatched')}>{h.Unmatched}</Descriptions.Item>
      <Descriptions.Item label={t('lorawan.health.codecErrors24h')}>{h.CodecErrorsLast24h}</Descriptions.Item>
    </Descriptions>
  );
}

/** A connection's health (docs/lorawan.md, "Health"): its events, gateways, codec errors, undecoded devices, clocks. */
export function ConnectionHealthDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const health = useLnsConnectionHealth(id);
  const h = health.data;
  const section = (title: string) => (
    <Typography.Title level={3} style={{ fontSize: 16, marginTop: 16 }}>
      {title}
    </Typography.Title>
  );
  return (
    <Drawer
      open={id !== null}
      width={860}
      destroyOnHidden
      rootClassName="lns-health-drawer"
      title={h ? t('lorawan.health.title', { name: h.Name }) : t('lorawan.health.titleLoading')}
      onClose={onClose}
      afterOpenChange={(open) => open && nameDrawerBody('lns-health-drawer', t('lorawan.health.body'))}
    >
      {health.error && <LoadError error={health.error} onRetry={() => void health.refetch()} />}
      {!health.error && !h && <Skeleton active />}
      {h && (
        <>
          <Summary h={h} />
          <GatewaysTable of="connection" gateways={h.Gateways} />
          {section(t('lorawan.health.undecoded'))}
          <FocusableScroll label={t('lorawan.health.undecoded')}>
            <Table
              rowKey="DeviceId"
              size="small"
              pagination={false}
              dataSource={h.Undecoded}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: t('lorawan.health.noUndecoded') }}
              columns={[
                { title: t('lorawan.devEui'), dataIndex: 'DevEui', render: (d: string) => <code>{d}</code> },
                { title: t('lorawan.reason'), dataIndex: 'Reason', render: (r: string) => <ReasonText reason={r} /> },
                { title: t('lorawan.health.uplinks24h'), dataIndex: 'Uplinks', align: 'right' },
              ]}
            />
          </FocusableScroll>
          {section(t('lorawan.health.codecErrors'))}
          <FocusableScroll label={t('lorawan.health.codecErrors')}>
            <Table
              rowKey={(e) => `${e.At}-${e.DevEui}-${e.Code}`}
              size="small"
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              dataSource={h.CodecErrors}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: t('lorawan.health.noCodecErrors') }}
              columns={[
                { title: t('lorawan.at'), dataIndex: 'At', render: formatDateTime },
                {
                  title: t('lorawan.devEui'),
                  dataIndex: 'DevEui',
                  render: (d: string | null) => (d ? <code>{d}</code> : '—'),
                },
                { title: t('lorawan.health.code'), dataIndex: 'Code', render: (c: string) => <Tag>{c}</Tag> },
                { title: t('lorawan.health.description'), dataIndex: 'Description' },
              ]}
            />
          </FocusableScroll>
          {section(t('lorawan.health.clockOff'))}
          <Table
            rowKey="DeviceId"
            size="small"
            pagination={false}
            dataSource={h.ClockOff}
            locale={{ emptyText: t('lorawan.health.noClockOff') }}
            columns={[
              { title: t('lorawan.devEui'), dataIndex: 'DevEui', render: (d: string) => <code>{d}</code> },
              {
                title: t('lorawan.skew'),
                dataIndex: 'SkewSeconds',
                align: 'right',
                render: (s: number) => t('fleet.skew', { seconds: Math.round(s) }),
              },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}

/** A decoder's reason code in the reader's language; a code we have no words for is shown as it is. */
export function ReasonText({ reason }: { reason: string | null }) {
  const { t, i18n } = useTranslation();
  if (!reason) return null;
  const key = `lorawan.reasons.${reason}`;
  return <span>{i18n.exists(key) ? t(key) : reason}</span>;
}
