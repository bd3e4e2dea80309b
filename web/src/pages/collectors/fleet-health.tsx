import type { CollectorHealth, CollectorMeter } from '@rodmenys/contract';
import { Alert, App, Button, Card, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCollectorHealth, useCollectorMeters, useSetCollectorLocations } from '../../api/collectors';
import { BuildingStreetSelect } from '../../components/building-street-select';
import { LoadError, useErrorText } from '../../components/load-error';
import { STATIC_MODAL, useDialogClose } from '../../components/modal-host';
import { formatDateTime } from '../../format';

/** Telegrams per hour over 24 hours as small bars; the numbers are in its label for screen readers. */
function HourlyBars({ counts }: { counts: number[] }) {
  const { t } = useTranslation();
  const max = Math.max(1, ...counts);
  const total = counts.reduce((s, n) => s + n, 0);
  const label = t('fleet.perHourLabel', { total, last: counts.at(-1) ?? 0 });
  return (
    <svg width={96} height={24} role="img" aria-label={label} style={{ display: 'block' }}>
      <title>{label}</title>
      {counts.map((n, i) => {
        const h = n === 0 ? 1 : Math.max(2, Math.round((n / max) * 22));
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the hour is the bar's identity
          <rect key={i} x={i * 4} y={24 - h} width={3} height={h} fill={n === 0 ? '#bfbfbf' : '#1668dc'} />
        );
      })}
    </svg>
  );
}

const signal = (v: number | null) => (v === null ? '—' : `${Math.round(v)} dBm`);

/** A collector's meters: each with every collector that heard it, the signal, and whether a key is stored. */
function CollectorMeters({ collector }: { collector: CollectorHealth }) {
  const { t } = useTranslation();
  const meters = useCollectorMeters(collector.Id);
  if (meters.error) return <LoadError error={meters.error} onRetry={() => void meters.refetch()} />;
  return (
    <Table<CollectorMeter>
      rowKey="MeterId"
      size="small"
      loading={meters.isLoading}
      dataSource={meters.data}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      locale={{ emptyText: t('fleet.noMeters') }}
      columns={[
        { title: t('fleet.meter'), dataIndex: 'MeterId', render: (id: string) => <code>{id}</code> },
        {
          title: t('fleet.address'),
          dataIndex: 'Address',
          render: (a: string | null, m) => (
            <>
              {a ?? t('fleet.unknownMeter')}
              {!m.Expected && (
                <Tag style={{ marginLeft: 8 }} color="default">
                  {t('fleet.notItsMeter')}
                </Tag>
              )}
            </>
          ),
        },
        {
          title: t('fleet.key'),
          key: 'key',
          render: (_, m) =>
            m.HasKey ? (
              <Tag>{t('fleet.hasKey', { date: formatDateTime(m.KeySince) })}</Tag>
            ) : (
              <Tag>{t('fleet.noKey')}</Tag>
            ),
        },
        {
          title: t('fleet.heardBy'),
          key: 'heardBy',
          render: (_, m) =>
            m.HeardBy.length === 0 ? (
              <Typography.Text type="danger">{t('fleet.notHeard')}</Typography.Text>
            ) : (
              <ul style={{ margin: 0, paddingLeft: 16 }}>
                {m.HeardBy.map((h) => (
                  <li key={h.CollectorId}>
                    {t('fleet.hearing', {
                      collector: h.Collector,
                      count: h.Telegrams,
                      median: signal(h.RssiMedian),
                      min: signal(h.RssiMin),
                    })}
                  </li>
                ))}
              </ul>
            ),
        },
      ]}
    />
  );
}

/** Assigns buildings or streets to a collector key, picked from the location tree. */
function LocationsModal({ collector, onClose }: { collector: CollectorHealth; onClose: () => void }) {
  const { close, modalProps } = useDialogClose(onClose);
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const save = useSetCollectorLocations();
  // A refusal is said in the dialog, never behind its backdrop.
  const [refusal, setRefusal] = useState<string | null>(null);
  const [selected, setSelected] = useState<number[]>(collector.Locations.map((l) => l.Id));
  const submit = async () => {
    setRefusal(null);
    try {
      await save.mutateAsync({ params: { id: collector.Id }, body: { locationIds: selected } });
      message.success(t('fleet.locationsSaved'));
      close();
    } catch (error) {
      setRefusal(errorText(error));
    }
  };
  return (
    <Modal
      {...modalProps}
      {...STATIC_MODAL}
      title={t('fleet.locationsTitle', { name: collector.Name })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => void submit()}
      onCancel={() => close()}
      width={640}
    >
      <Typography.Paragraph type="secondary">{t('fleet.locationsHelp')}</Typography.Paragraph>
      {refusal && <Alert type="error" showIcon role="alert" title={refusal} style={{ marginBottom: 12 }} />}
      <BuildingStreetSelect
        label={t('fleet.locations')}
        value={selected}
        onChange={setSelected}
        placeholder={t('fleet.locationsPlaceholder')}
      />
    </Modal>
  );
}

/** Every live collector key's health over 24 hours, at a glance; a row opens its meters. */
export function FleetHealth() {
  const { t } = useTranslation();
  const health = useCollectorHealth();
  const [editing, setEditing] = useState<CollectorHealth | null>(null);
  const silent = (health.data ?? []).filter((c) => c.Silent);
  return (
    <Card title={t('fleet.title')} style={{ marginBottom: 24 }}>
      <Typography.Paragraph type="secondary">{t('fleet.help')}</Typography.Paragraph>
      {silent.length > 0 && (
        <Alert
          type="error"
          // A standing state of the page, not an interruption: a status, not an alert.
          role="status"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('fleet.silentAlert', { names: silent.map((c) => c.Name).join(', ') })}
        />
      )}
      {health.error ? (
        <LoadError error={health.error} onRetry={() => void health.refetch()} />
      ) : (
        <Table<CollectorHealth>
          rowKey="Id"
          size="small"
          loading={health.isLoading}
          dataSource={health.data}
          pagination={false}
          // Wider than the card at 1440 and 768 px: it scrolls inside its own box, not the page.
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('collectors.noKeys') }}
          expandable={{
            expandedRowRender: (c) => <CollectorMeters collector={c} />,
            expandIcon: ({ expanded, onExpand, record }) => (
              <Button size="small" onClick={(e) => onExpand(record, e)} aria-expanded={expanded}>
                {expanded ? t('fleet.hideMeters') : t('fleet.showMeters', { name: record.Name })}
              </Button>
            ),
          }}
          columns={[
            {
              title: t('collectors.name'),
              dataIndex: 'Name',
              render: (name: string, c) => (
                <Space direction="vertical" size={0}>
                  <Typography.Text strong>{name}</Typography.Text>
                  {c.Silent ? (
                    <Tag color="error">{t('fleet.silent')}</Tag>
                  ) : c.LastContact === null ? (
                    // Never heard from: not "sending".
                    <Tag>{t('fleet.notHeardYet')}</Tag>
                  ) : (
                    <Tag>{t('fleet.ok')}</Tag>
                  )}
                </Space>
              ),
            },
            {
              title: t('fleet.locations'),
              key: 'locations',
              render: (_, c) => (
                <Space direction="vertical" size={2}>
                  {c.Locations.length === 0 ? (
                    <Typography.Text type="secondary">{t('fleet.noLocations')}</Typography.Text>
                  ) : (
                    c.Locations.map((l) => <span key={l.Id}>{l.Label}</span>)
                  )}
                  <Button size="small" onClick={() => setEditing(c)}>
                    {t('fleet.editLocations', { name: c.Name })}
                  </Button>
                </Space>
              ),
            },
            {
              title: t('fleet.lastContact'),
              dataIndex: 'LastContact',
              render: (v: string | null) => (v ? formatDateTime(v) : t('collectors.never')),
            },
            {
              title: t('fleet.perHour'),
              dataIndex: 'TelegramsPerHour',
              render: (counts: number[]) => <HourlyBars counts={counts} />,
            },
            {
              title: t('fleet.heard'),
              key: 'heard',
              render: (_, c) => (
                <Space direction="vertical" size={0}>
                  <span>{t('fleet.heardOf', { heard: c.Heard, expected: c.Expected })}</span>
                  {c.HeardElsewhere.length > 0 && (
                    <Typography.Text type="warning">
                      {t('fleet.heardElsewhere', {
                        count: c.HeardElsewhere.length,
                        meters: c.HeardElsewhere.join(', '),
                      })}
                    </Typography.Text>
                  )}
                  {c.Undecoded.length > 0 && (
                    <Typography.Text type="danger">
                      {t('fleet.undecoded', {
                        meters: c.Undecoded.map((u) =>
                          t(u.WrongKey ? 'fleet.undecodedWrongKey' : 'fleet.undecodedMeter', {
                            meter: u.MeterId,
                            driver: u.Driver,
                          }),
                        ).join(', '),
                      })}
                    </Typography.Text>
                  )}
                  {c.LeftOut.length > 0 && (
                    <Typography.Text type="warning">
                      {t('fleet.leftOut', { meters: c.LeftOut.join(', ') })}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            {
              title: t('fleet.clock'),
              key: 'clock',
              render: (_, c) =>
                c.ClockFlag === 'noClock' ? (
                  <Tag color="error">{t('fleet.noClock')}</Tag>
                ) : c.ClockSkewSeconds === null ? (
                  '—'
                ) : (
                  <Space size={4}>
                    <span>{t('fleet.skew', { seconds: c.ClockSkewSeconds })}</span>
                    {c.ClockFlag === 'skew' && <Tag color="warning">{t('fleet.skewFlag')}</Tag>}
                  </Space>
                ),
            },
            {
              title: t('fleet.events'),
              key: 'events',
              render: (_, c) =>
                c.Events.length === 0 ? (
                  '—'
                ) : (
                  <ul style={{ margin: 0, paddingLeft: 16 }}>
                    {c.Events.map((e) => (
                      <li key={`${e.At}-${e.Type}-${e.Message}`}>
                        {formatDateTime(e.At)} <Tag>{e.Type}</Tag>
                        {e.Message}
                      </li>
                    ))}
                  </ul>
                ),
            },
          ]}
        />
      )}
      {editing && <LocationsModal collector={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}
