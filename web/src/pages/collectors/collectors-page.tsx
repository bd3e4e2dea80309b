import type { CollectorKey, createCollectorKey, ResponseOf, UnmatchedMeter } from '@rodmenys/contract';
import { COLLECTOR_KEY_NAME_MAX_LENGTH } from '@rodmenys/contract';
import { Alert, App, Button, Card, Form, Input, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCollectorKeys, useCreateCollectorKey, useRevokeCollectorKey, useUnmatchedMeters } from '../../api/ingest';
import { LoadError, useErrorText } from '../../components/load-error';
import { STATIC_MODAL } from '../../components/modal-host';
import { useServerPaging } from '../../components/pagination';
import { formatDateTime } from '../../format';
import { FleetHealth } from './fleet-health';
import { MeterKeyImport } from './meter-key-import';

type CreatedKey = ResponseOf<typeof createCollectorKey>;

/** The key just created, shown once with a copy button. */
function CreatedKeyModal({ created, onClose }: { created: CreatedKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = async () => {
    if (!created) return;
    await navigator.clipboard?.writeText(created.Key);
    message.success(t('collectors.copied'));
  };
  return (
    <Modal
      open={!!created}
      {...STATIC_MODAL}
      title={created ? t('collectors.createdTitle', { name: created.Name }) : ''}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('common.close')}</Button>}
    >
      <Alert type="warning" showIcon title={t('collectors.createdWarning')} style={{ marginBottom: 12 }} />
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly value={created?.Key} aria-label={t('collectors.prefix')} onFocus={(e) => e.target.select()} />
        <Button type="primary" onClick={copy}>
          {t('collectors.copy')}
        </Button>
      </Space.Compact>
    </Modal>
  );
}

function CollectorKeys() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const keys = useCollectorKeys();
  const create = useCreateCollectorKey();
  const revoke = useRevokeCollectorKey();
  const [form] = Form.useForm<{ name: string }>();
  const [created, setCreated] = useState<CreatedKey | null>(null);

  const onCreate = async ({ name }: { name: string }) => {
    const key = await create.mutateAsync({ body: { name } });
    form.resetFields();
    setCreated(key);
  };

  return (
    <Card title={t('collectors.keysTitle')} style={{ marginBottom: 24 }}>
      <Typography.Paragraph type="secondary">{t('collectors.keysHelp')}</Typography.Paragraph>
      <Form form={form} layout="inline" onFinish={onCreate} style={{ marginBottom: 16 }}>
        <Form.Item
          name="name"
          label={t('collectors.name')}
          rules={[{ required: true, whitespace: true, message: t('collectors.nameRequired') }]}
        >
          <Input maxLength={COLLECTOR_KEY_NAME_MAX_LENGTH} placeholder={t('collectors.namePlaceholder')} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={create.isPending}>
            {t('collectors.create')}
          </Button>
        </Form.Item>
      </Form>
      {create.error && <Alert type="error" showIcon title={errorText(create.error)} style={{ marginBottom: 16 }} />}
      {revoke.error && <Alert type="error" showIcon title={errorText(revoke.error)} style={{ marginBottom: 16 }} />}
      {keys.error ? (
        <LoadError error={keys.error} onRetry={() => keys.refetch()} />
      ) : (
        <Table<CollectorKey>
          rowKey="Id"
          size="small"
          loading={keys.isLoading}
          dataSource={keys.data}
          pagination={false}
          // Wider than a tablet with revoked keys' dates: it scrolls in its own box, not the page.
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('collectors.noKeys') }}
          columns={[
            { title: t('collectors.name'), dataIndex: 'Name' },
            { title: t('collectors.prefix'), dataIndex: 'Prefix', render: (p: string) => <code>{p}…</code> },
            { title: t('collectors.createdAt'), dataIndex: 'CreatedAt', render: formatDateTime },
            { title: t('collectors.createdBy'), dataIndex: 'CreatedBy' },
            {
              title: t('collectors.lastUsedAt'),
              dataIndex: 'LastUsedAt',
              render: (v: string | null) => (v ? formatDateTime(v) : t('collectors.never')),
            },
            {
              title: t('collectors.state'),
              key: 'state',
              render: (_, k) =>
                k.RevokedAt ? (
                  <Tag>{t('collectors.revoked', { date: formatDateTime(k.RevokedAt) })}</Tag>
                ) : (
                  <Tag>{t('collectors.active')}</Tag>
                ),
            },
            {
              key: 'actions',
              render: (_, k) =>
                !k.RevokedAt && (
                  <Popconfirm
                    title={t('collectors.revokeConfirm', { name: k.Name })}
                    okText={t('collectors.revokeOk')}
                    cancelText={t('common.no')}
                    onConfirm={() => revoke.mutateAsync({ params: { id: k.Id } })}
                  >
                    <Button danger size="small">
                      {t('collectors.revoke')}
                    </Button>
                  </Popconfirm>
                ),
            },
          ]}
        />
      )}
      <CreatedKeyModal created={created} onClose={() => setCreated(null)} />
    </Card>
  );
}

function UnmatchedMeters() {
  const { t } = useTranslation();
  const { page, pageSize, tableProps } = useServerPaging(20);
  const unmatched = useUnmatchedMeters({ page, pageSize });
  return (
    <Card title={t('collectors.unmatchedTitle')}>
      <Typography.Paragraph type="secondary">{t('collectors.unmatchedHelp')}</Typography.Paragraph>
      {unmatched.error ? (
        <LoadError error={unmatched.error} onRetry={() => unmatched.refetch()} />
      ) : (
        <Table<UnmatchedMeter>
          rowKey="MeterId"
          size="small"
          {...tableProps(unmatched)}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('collectors.noUnmatched') }}
          expandable={{
            expandedRowRender: (m) => (
              <>
                <Typography.Text strong>{t('collectors.lastJson')}</Typography.Text>
                <pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{JSON.stringify(m.LastJson, null, 2)}</pre>
              </>
            ),
          }}
          columns={[
            { title: t('collectors.meterId'), dataIndex: 'MeterId', render: (id: string) => <code>{id}</code> },
            { title: t('collectors.driver'), dataIndex: 'Driver' },
            { title: t('collectors.firstSeen'), dataIndex: 'FirstSeen', render: formatDateTime },
            { title: t('collectors.lastSeen'), dataIndex: 'LastSeen', render: formatDateTime },
            { title: t('collectors.count'), dataIndex: 'Count', align: 'right' },
          ]}
        />
      )}
    </Card>
  );
}

/**
 * Group 1: the fleet's health (docs/collectors.md), collector keys (create, shown once; list;
 * revoke), meter keys, and the unmatched meters inbox.
 */
export default function CollectorsPage() {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('nav.collectors')}
      </Typography.Title>
      <FleetHealth />
      <CollectorKeys />
      <MeterKeyImport />
      <UnmatchedMeters />
    </>
  );
}
