import type { LorawanDeviceRow, LorawanUnmatched, LorawanUplink } from '@rodmenys/contract';
import { Button, Card, Descriptions, Drawer, Input, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLorawanDeviceHealth, useLorawanDevices, useLorawanUnmatched } from '../../api/lorawan';
import { FocusableScroll } from '../../components/focusable-scroll';
import { LoadError } from '../../components/load-error';
import { useServerPaging } from '../../components/pagination';
import { useDebounced } from '../../components/use-debounced';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';
import { nameDrawerBody, ReasonText } from './connection-health';
import { DayBars, db, dbm } from './day-bars';
import { GatewaysTable } from './gateways-table';

/** The values a decoder found in an uplink, as one line ("energy_kwh 9818 · volume_m3 6607.2"). */
const valuesLine = (values: LorawanUplink['Values'], language: string) =>
  Object.entries(values)
    .map(
      ([k, v]) =>
        `${k} ${typeof v === 'number' ? v.toLocaleString(language, { maximumFractionDigits: 6 }) : String(v)}`,
    )
    .join(' · ');

/** A device's radio health (docs/lorawan.md, "Health"): signal, gateways, lost uplinks, battery, its latest uplinks. */
function DeviceHealthDrawer({ device, onClose }: { device: LorawanDeviceRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const health = useLorawanDeviceHealth(device?.DeviceId ?? null);
  const h = health.data;
  const section = (title: string) => (
    <Typography.Title level={3} style={{ fontSize: 16, marginTop: 16 }}>
      {title}
    </Typography.Title>
  );
  return (
    <Drawer
      open={device !== null}
      width={960}
      destroyOnHidden
      rootClassName="lorawan-device-drawer"
      title={device ? t('lorawan.device.title', { serial: device.DeviceCode, devEui: device.DevEui }) : ''}
      onClose={onClose}
      afterOpenChange={(open) => open && nameDrawerBody('lorawan-device-drawer', t('lorawan.device.body'))}
    >
      {health.error && <LoadError error={health.error} onRetry={() => void health.refetch()} />}
      {!health.error && !h && <Skeleton active />}
      {h && (
        <>
          <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('lorawan.decoder')}>
              {h.EffectiveDecoder ?? t('lorawan.device.noDecoder')}
            </Descriptions.Item>
            <Descriptions.Item label={t('lorawan.lastUplink')}>
              {h.LastUplink ? formatDateTime(h.LastUplink) : t('collectors.never')}
            </Descriptions.Item>
            <Descriptions.Item label={t('lorawan.signal')}>
              {t('lorawan.signalValue', { rssi: dbm(h.Rssi), snr: db(h.Snr, language) })}
            </Descriptions.Item>
            <Descriptions.Item label={t('lorawan.health.perDay')}>
              <DayBars days={h.UplinksPerDay} />
            </Descriptions.Item>
            <Descriptions.Item label={t('lorawan.lost30d')}>{h.LostLast30d}</Descriptions.Item>
            <Descriptions.Item label={t('lorawan.battery')}>
              {h.Battery === null
                ? '—'
                : h.Battery.ExternalPower
                  ? t('lorawan.device.externalPower')
                  : h.Battery.Level === null
                    ? t('lorawan.device.batteryUnknown')
                    : t('lorawan.device.batteryAt', {
                        level: h.Battery.Level.toLocaleString(language, { maximumFractionDigits: 0 }),
                        at: formatDateTime(h.Battery.At),
                      })}
            </Descriptions.Item>
            <Descriptions.Item label={t('lorawan.skew')}>
              {h.ClockSkewSeconds === null ? (
                '—'
              ) : (
                <Space size={4}>
                  {t('fleet.skew', { seconds: Math.round(h.ClockSkewSeconds) })}
                  {h.ClockFlag === 'skew' && <Tag color="warning">{t('fleet.skewFlag')}</Tag>}
                </Space>
              )}
            </Descriptions.Item>
          </Descriptions>
          <GatewaysTable of="device" gateways={h.Gateways} />
          {section(t('lorawan.device.uplinks'))}
          <FocusableScroll label={t('lorawan.device.uplinks')}>
            <Table<LorawanUplink>
              rowKey={(u) => `${u.ReceivedAt}-${u.FCnt}-${u.Payload}`}
              size="small"
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              dataSource={h.Uplinks}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: t('lorawan.device.noUplinks') }}
              columns={[
                { title: t('lorawan.receivedAt'), dataIndex: 'ReceivedAt', render: formatDateTime },
                {
                  title: t('lorawan.meterTime'),
                  dataIndex: 'MeterTime',
                  render: (v: string | null) => (v ? formatDateTime(v) : '—'),
                },
                { title: 'fCnt', dataIndex: 'FCnt', align: 'right', render: (v: number | null) => v ?? '—' },
                { title: 'fPort', dataIndex: 'FPort', align: 'right', render: (v: number | null) => v ?? '—' },
                {
                  title: t('lorawan.value'),
                  dataIndex: 'Value',
                  align: 'right',
                  render: (v: number | null, u) =>
                    v === null ? (
                      <Typography.Text type="danger">
                        <ReasonText reason={u.Reason} />
                      </Typography.Text>
                    ) : (
                      v.toLocaleString(language, { maximumFractionDigits: 6 })
                    ),
                },
                {
                  title: t('lorawan.alarms'),
                  dataIndex: 'Alarms',
                  // By the names the anomalies screen gives the same status flags (docs/lorawan.md, "Alarms").
                  render: (a: string[]) =>
                    a.length ? a.map((x) => <Tag key={x}>{t(`statusFlags.${x}`, { defaultValue: x })}</Tag>) : '—',
                },
                {
                  title: t('lorawan.values'),
                  key: 'values',
                  render: (_, u) => <span style={{ fontSize: 12 }}>{valuesLine(u.Values, language) || '—'}</span>,
                },
                {
                  title: t('lorawan.payload'),
                  dataIndex: 'Payload',
                  render: (p: string) => <code style={{ wordBreak: 'break-all', fontSize: 12 }}>{p}</code>,
                },
              ]}
            />
          </FocusableScroll>
        </>
      )}
    </Drawer>
  );
}

/** Devices with a DevEUI and their radio summary; a DevEUI opens the device's health. */
export function LorawanDevices() {
  const { t } = useTranslation();
  const language = useLanguage();
  const [search, setSearch] = useState('');
  const debounced = useDebounced(search.trim(), 300);
  const { page, pageSize, setPage, tableProps } = useServerPaging(20);
  const devices = useLorawanDevices({ page, pageSize, ...(debounced ? { search: debounced } : {}) });
  const [open, setOpen] = useState<{ device: LorawanDeviceRow; opener: HTMLElement } | null>(null);
  return (
    <Card title={t('lorawan.devices.title')} style={{ marginBottom: 24 }}>
      <Typography.Paragraph type="secondary">{t('lorawan.devices.help')}</Typography.Paragraph>
      <Input.Search
        aria-label={t('lorawan.devices.search')}
        placeholder={t('lorawan.devices.search')}
        allowClear
        maxLength={64}
        value={search}
        onChange={(e) => {
          setSearch(e.target.value);
          setPage(1);
        }}
        style={{ maxWidth: 360, marginBottom: 16 }}
      />
      {devices.error ? (
        <LoadError error={devices.error} onRetry={() => void devices.refetch()} />
      ) : (
        <FocusableScroll label={t('lorawan.devices.title')}>
          <Table<LorawanDeviceRow>
            rowKey="DeviceId"
            size="small"
            {...tableProps(devices)}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('lorawan.devices.none') }}
            columns={[
              {
                title: t('lorawan.devEui'),
                dataIndex: 'DevEui',
                render: (d: string, row) => (
                  <Button
                    type="link"
                    size="small"
                    style={{ padding: 0 }}
                    aria-label={t('lorawan.devices.open', { devEui: d })}
                    onClick={(e) => setOpen({ device: row, opener: e.currentTarget })}
                  >
                    <code>{d}</code>
                  </Button>
                ),
              },
              { title: t('lorawan.serial'), dataIndex: 'DeviceCode' },
              { title: t('lorawan.model'), dataIndex: 'Model', render: (m: string | null) => m ?? '—' },
              { title: t('fleet.address'), dataIndex: 'Address' },
              {
                title: t('lorawan.lastUplink'),
                dataIndex: 'LastUplink',
                render: (v: string | null) => (v ? formatDateTime(v) : t('collectors.never')),
              },
              {
                title: t('lorawan.signal'),
                key: 'signal',
                render: (_, r) => t('lorawan.signalValue', { rssi: dbm(r.Rssi), snr: db(r.Snr, language) }),
              },
              { title: t('lorawan.lost30d'), dataIndex: 'LostLast30d', align: 'right' },
              {
                title: t('lorawan.battery'),
                dataIndex: 'BatteryLevel',
                align: 'right',
                render: (v: number | null) =>
                  v === null ? '—' : `${v.toLocaleString(language, { maximumFractionDigits: 0 })} %`,
              },
              {
                title: t('lorawan.decoding'),
                dataIndex: 'LastReason',
                render: (r: string | null) =>
                  r ? (
                    <Typography.Text type="danger">
                      <ReasonText reason={r} />
                    </Typography.Text>
                  ) : (
                    '—'
                  ),
              },
            ]}
          />
        </FocusableScroll>
      )}
      <DeviceHealthDrawer
        device={open?.device ?? null}
        onClose={() => {
          const opener = open?.opener;
          setOpen(null);
          setTimeout(() => opener?.focus(), 0);
        }}
      />
    </Card>
  );
}

/** The LoRaWAN part of the unmatched inbox: DevEUIs no device of the connection's buildings has. */
export function LorawanUnmatchedInbox() {
  const { t } = useTranslation();
  const { page, pageSize, tableProps } = useServerPaging(20);
  const unmatched = useLorawanUnmatched({ page, pageSize });
  return (
    <Card title={t('lorawan.unmatched.title')} style={{ marginBottom: 24 }}>
      <Typography.Paragraph type="secondary">{t('lorawan.unmatched.help')}</Typography.Paragraph>
      {unmatched.error ? (
        <LoadError error={unmatched.error} onRetry={() => void unmatched.refetch()} />
      ) : (
        <FocusableScroll label={t('lorawan.unmatched.title')}>
          <Table<LorawanUnmatched>
            rowKey={(u) => `${u.ConnectionId}-${u.DevEui}`}
            size="small"
            {...tableProps(unmatched)}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('lorawan.unmatched.none') }}
            columns={[
              { title: t('lorawan.devEui'), dataIndex: 'DevEui', render: (d: string) => <code>{d}</code> },
              { title: t('lorawan.unmatched.connection'), dataIndex: 'Connection' },
              {
                title: t('lorawan.unmatched.deviceName'),
                dataIndex: 'DeviceName',
                render: (n: string | null) => n ?? '—',
              },
              { title: t('collectors.firstSeen'), dataIndex: 'FirstSeen', render: formatDateTime },
              { title: t('collectors.lastSeen'), dataIndex: 'LastSeen', render: formatDateTime },
              { title: t('collectors.count'), dataIndex: 'Count', align: 'right' },
              { title: 'fPort', dataIndex: 'LastFPort', align: 'right', render: (v: number | null) => v ?? '—' },
              {
                title: t('lorawan.payload'),
                dataIndex: 'LastPayload',
                render: (p: string) => <code style={{ wordBreak: 'break-all', fontSize: 12 }}>{p}</code>,
              },
            ]}
          />
        </FocusableScroll>
      )}
    </Card>
  );
}
