import {
  type BillingDelivery,
  type BillingReceiver,
  type createBillingReceiver,
  type createIntegrationKey,
  type IntegrationKey,
  isOperator,
  LOCATION_LEVEL,
  MAX_KEY_DAYS,
  type ResponseOf,
} from '@rodmenys/contract';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useBillingDeliveries,
  useBillingReceivers,
  useCreateBillingReceiver,
  useCreateIntegrationKey,
  useDisableBillingReceiver,
  useIntegrationKeys,
  useRevokeIntegrationKey,
} from '../../api/integrations';
import { useLocationTree } from '../../api/location-data';
import { LoadError, useErrorText } from '../../components/load-error';
import { STATIC_MODAL } from '../../components/modal-host';
import { formatDateTime, lastDayOf } from '../../format';
import { useSession } from '../../session';
import { BuildingPicker } from '../statements/building-picker';

/** A secret just created (a key, or a webhook's signing secret), shown once with a copy button. */
function SecretModal({ title, secret, onClose }: { title: string; secret: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = async () => {
    if (!secret) return;
    await navigator.clipboard?.writeText(secret);
    message.success(t('integrations.copied'));
  };
  return (
    <Modal
      open={!!secret}
      {...STATIC_MODAL}
      title={title}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('common.close')}</Button>}
    >
      <Alert type="warning" showIcon title={t('integrations.shownOnce')} style={{ marginBottom: 12 }} />
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly value={secret ?? ''} aria-label={title} onFocus={(e) => e.target.select()} />
        <Button type="primary" onClick={copy}>
          {t('integrations.copy')}
        </Button>
      </Space.Compact>
    </Modal>
  );
}

type CreatedKey = ResponseOf<typeof createIntegrationKey>;
interface KeyForm {
  name: string;
  expiresOn: Dayjs;
}

const keyState = (k: IntegrationKey): 'revoked' | 'expired' | 'active' =>
  k.RevokedAt ? 'revoked' : dayjs(k.ExpiresAt).isBefore(dayjs()) ? 'expired' : 'active';

function IntegrationKeys() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const keys = useIntegrationKeys();
  const create = useCreateIntegrationKey();
  const revoke = useRevokeIntegrationKey();
  const tree = useLocationTree(LOCATION_LEVEL.building);
  const [form] = Form.useForm<KeyForm>();
  const [locations, setLocations] = useState<number[]>([]);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [noLocation, setNoLocation] = useState(false);

  const onCreate = async (values: KeyForm) => {
    if (!locations.length) {
      setNoLocation(true);
      return;
    }
    const key = await create.mutateAsync({
      body: { name: values.name, locationIds: locations, expiresOn: values.expiresOn.format('YYYY-MM-DD') },
    });
    form.resetFields();
    setLocations([]);
    setCreated(key);
  };

  return (
    <Card title={t('integrations.keysTitle')} style={{ marginBottom: 24 }}>
      <Typography.Paragraph type="secondary">{t('integrations.keysHelp')}</Typography.Paragraph>
      <Form
        form={form}
        name="integration-key"
        layout="vertical"
        onFinish={onCreate}
        initialValues={{ expiresOn: dayjs().add(1, 'year') }}
        style={{ marginBottom: 16, maxWidth: 640 }}
      >
        <Form.Item
          name="name"
          label={t('integrations.name')}
          rules={[{ required: true, whitespace: true, message: t('integrations.nameRequired') }]}
        >
          <Input maxLength={100} placeholder={t('integrations.namePlaceholder')} />
        </Form.Item>
        <BuildingPicker
          id="integrations-locations"
          exact
          label={t('integrations.locations')}
          placeholder={t('integrations.locationsPlaceholder')}
          nodes={tree.data ?? []}
          loading={tree.isLoading}
          value={locations}
          onChange={(ids) => {
            setLocations(ids);
            setNoLocation(false);
          }}
        />
        {noLocation && (
          <Typography.Text type="danger" role="alert">
            {t('integrations.locationsRequired')}
          </Typography.Text>
        )}
        <Form.Item
          name="expiresOn"
          label={t('integrations.expiresOn')}
          htmlFor="integrations-expires"
          style={{ marginTop: 16 }}
          rules={[{ required: true, message: t('integrations.expiresRequired') }]}
        >
          <DatePicker
            id="integrations-expires"
            allowClear={false}
            disabledDate={(d: Dayjs) => d.isBefore(dayjs(), 'day') || d.isAfter(dayjs().add(MAX_KEY_DAYS, 'day'))}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={create.isPending}>
          {t('integrations.createKey')}
        </Button>
      </Form>
      {create.error && <Alert type="error" showIcon title={errorText(create.error)} style={{ marginBottom: 16 }} />}
      {revoke.error && <Alert type="error" showIcon title={errorText(revoke.error)} style={{ marginBottom: 16 }} />}
      {keys.error ? (
        <LoadError error={keys.error} onRetry={() => keys.refetch()} />
      ) : (
        <Table<IntegrationKey>
          rowKey="Id"
          size="small"
          loading={keys.isLoading}
          dataSource={keys.data?.Keys}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: t('integrations.noKeys') }}
          columns={[
            { title: t('integrations.name'), dataIndex: 'Name' },
            { title: t('integrations.prefix'), dataIndex: 'Prefix', render: (p: string) => <code>{p}…</code> },
            {
              title: t('integrations.locations'),
              key: 'locations',
              render: (_, k) => k.Locations.map((l) => l.Name).join('; '),
            },
            {
              title: t('integrations.expiresAt'),
              dataIndex: 'ExpiresAt',
              // The key ends at 00:00 after its last day: "valid until" shows that last day.
              render: (v: string) => lastDayOf(v),
            },
            {
              title: t('integrations.lastUsedAt'),
              dataIndex: 'LastUsedAt',
              render: (v: string | null) => (v ? formatDateTime(v) : t('integrations.never')),
            },
            { title: t('integrations.createdBy'), dataIndex: 'CreatedBy' },
            {
              title: t('integrations.state'),
              key: 'state',
              render: (_, k) => {
                const state = keyState(k);
                return (
                  <Tag color={state === 'active' ? 'success' : undefined}>
                    {state === 'revoked' ? t('integrations.keyRevoked') : t(`integrations.keyState.${state}`)}
                  </Tag>
                );
              },
            },
            {
              key: 'actions',
              title: t('integrations.actions'),
              render: (_, k) =>
                !k.RevokedAt && (
                  <Popconfirm
                    title={t('integrations.revokeKeyConfirm', { name: k.Name })}
                    okText={t('integrations.revokeKeyOk')}
                    cancelText={t('common.no')}
                    onConfirm={() => revoke.mutateAsync({ params: { id: k.Id } })}
                  >
                    <Button danger size="small">
                      {t('integrations.revokeKey')}
                    </Button>
                  </Popconfirm>
                ),
            },
          ]}
        />
      )}
      <SecretModal
        title={created ? t('integrations.keyCreated', { name: created.Created.Name }) : ''}
        secret={created?.Key ?? null}
        onClose={() => setCreated(null)}
      />
    </Card>
  );
}

type CreatedReceiver = ResponseOf<typeof createBillingReceiver>;
interface ReceiverForm {
  name: string;
  kind: 'webhook' | 'email';
  url?: string;
  email?: string;
  language: 'lt' | 'en';
}

function Receivers() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const receivers = useBillingReceivers(true);
  const create = useCreateBillingReceiver();
  const disable = useDisableBillingReceiver();
  const [form] = Form.useForm<ReceiverForm>();
  const kind = Form.useWatch('kind', form) ?? 'webhook';
  const [created, setCreated] = useState<CreatedReceiver | null>(null);
  const onCreate = async (values: ReceiverForm) => {
    const answer = await create.mutateAsync({ body: values });
    form.resetFields();
    if (answer.Secret) setCreated(answer);
  };
  return (
    <Card title={t('integrations.receiversTitle')} style={{ marginBottom: 24 }}>
      <Typography.Paragraph type="secondary">{t('integrations.receiversHelp')}</Typography.Paragraph>
      <Form
        form={form}
        name="receiver"
        layout="vertical"
        onFinish={onCreate}
        initialValues={{ kind: 'webhook', language: 'lt' }}
        style={{ marginBottom: 16, maxWidth: 640 }}
      >
        <Form.Item
          name="name"
          label={t('integrations.name')}
          rules={[{ required: true, whitespace: true, message: t('integrations.nameRequired') }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="kind" label={t('integrations.kind')}>
          <Select
            options={[
              { value: 'webhook', label: t('integrations.kindWebhook') },
              { value: 'email', label: t('integrations.kindEmail') },
            ]}
          />
        </Form.Item>
        {kind === 'webhook' ? (
          <Form.Item
            name="url"
            label={t('integrations.url')}
            rules={[{ required: true, pattern: /^https?:\/\//, message: t('serverErrors.receiverUrl') }]}
          >
            <Input maxLength={2000} placeholder="https://billing.example/hooks/rodmenys" />
          </Form.Item>
        ) : (
          <>
            <Form.Item
              name="email"
              label={t('integrations.email')}
              rules={[{ required: true, type: 'email', message: t('serverErrors.receiverEmail') }]}
            >
              <Input maxLength={254} />
            </Form.Item>
            <Form.Item name="language" label={t('integrations.language')}>
              <Select
                options={[
                  { value: 'lt', label: 'Lietuvių' },
                  { value: 'en', label: 'English' },
                ]}
              />
            </Form.Item>
          </>
        )}
        <Button type="primary" htmlType="submit" loading={create.isPending}>
          {t('integrations.addReceiver')}
        </Button>
      </Form>
      {create.error && <Alert type="error" showIcon title={errorText(create.error)} style={{ marginBottom: 16 }} />}
      {receivers.error ? (
        <LoadError error={receivers.error} onRetry={() => receivers.refetch()} />
      ) : (
        <Table<BillingReceiver>
          rowKey="Id"
          size="small"
          loading={receivers.isLoading}
          dataSource={receivers.data?.Receivers}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: t('integrations.noReceivers') }}
          columns={[
            { title: t('integrations.name'), dataIndex: 'Name' },
            {
              title: t('integrations.kind'),
              dataIndex: 'Kind',
              render: (k: string) => t(k === 'webhook' ? 'integrations.kindWebhook' : 'integrations.kindEmail'),
            },
            { title: t('integrations.address'), key: 'address', render: (_, r) => r.Url ?? r.Email },
            {
              title: t('integrations.state'),
              dataIndex: 'Active',
              render: (a: boolean) => (
                <Tag color={a ? 'success' : undefined}>{t(a ? 'integrations.on' : 'integrations.off')}</Tag>
              ),
            },
            {
              key: 'actions',
              title: t('integrations.actions'),
              render: (_, r) =>
                r.Active && (
                  <Popconfirm
                    title={t('integrations.disableConfirm', { name: r.Name })}
                    okText={t('integrations.disable')}
                    cancelText={t('common.no')}
                    onConfirm={() => disable.mutateAsync({ params: { id: r.Id } })}
                  >
                    <Button danger size="small">
                      {t('integrations.disable')}
                    </Button>
                  </Popconfirm>
                ),
            },
          ]}
        />
      )}
      <SecretModal
        title={created ? t('integrations.secretCreated', { name: created.Receiver.Name }) : ''}
        secret={created?.Secret ?? null}
        onClose={() => setCreated(null)}
      />
    </Card>
  );
}

/** The delivery log of the receivers' notices, each attempt's reason in the reader's language. */
export function Deliveries() {
  const { t } = useTranslation();
  const deliveries = useBillingDeliveries(true);
  return (
    <Card title={t('integrations.deliveriesTitle')}>
      {deliveries.error ? (
        <LoadError error={deliveries.error} onRetry={() => deliveries.refetch()} />
      ) : (
        <Table<BillingDelivery>
          rowKey="Id"
          size="small"
          loading={deliveries.isLoading}
          dataSource={deliveries.data?.Deliveries}
          pagination={{ pageSize: 20 }}
          scroll={{ x: true }}
          locale={{ emptyText: t('integrations.noDeliveries') }}
          expandable={{
            expandedRowRender: (d) => (
              <Table
                rowKey="At"
                size="small"
                pagination={false}
                dataSource={d.Attempts}
                columns={[
                  { title: t('integrations.attemptAt'), dataIndex: 'At', render: formatDateTime },
                  { title: t('integrations.status'), dataIndex: 'Status' },
                  {
                    title: t('integrations.answer'),
                    key: 'answer',
                    // The reason in the reader's language, then the receiver's own short reason phrase.
                    render: (_, a) =>
                      [t(`integrations.reason.${a.Reason}`, { status: a.Status ?? '' }), a.Response]
                        .filter(Boolean)
                        .join(' · '),
                  },
                  { title: t('integrations.durationMs'), dataIndex: 'DurationMs', align: 'right' },
                ]}
              />
            ),
          }}
          columns={[
            { title: t('integrations.createdAt'), dataIndex: 'CreatedAt', render: formatDateTime },
            { title: t('integrations.receiver'), dataIndex: 'ReceiverName' },
            { title: t('integrations.month'), dataIndex: 'Month' },
            { title: t('integrations.version'), dataIndex: 'Version', align: 'right' },
            {
              title: t('integrations.buildings'),
              dataIndex: 'BuildingIds',
              align: 'right',
              render: (ids: number[]) => ids.length,
            },
            {
              title: t('integrations.state'),
              dataIndex: 'State',
              render: (s: BillingDelivery['State']) => (
                <Tag color={s === 'delivered' ? 'success' : s === 'failed' ? 'error' : 'processing'}>
                  {t(`integrations.deliveryState.${s}`)}
                </Tag>
              ),
            },
            { title: t('integrations.attempts'), key: 'attempts', render: (_, d) => d.Attempts.length },
          ]}
        />
      )}
    </Card>
  );
}

/**
 * The billing system's access (docs/integration.md): integration keys (groups 1 and 2, group 2 within its
 * scope) and, for group 1, the receivers told when a month is published and their delivery log.
 */
export default function IntegrationsPage() {
  const { t } = useTranslation();
  const user = useSession();
  const operator = !!user && isOperator(user.GroupId);
  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('nav.integrations')}
      </Typography.Title>
      <IntegrationKeys />
      {operator && <Receivers />}
      {operator && <Deliveries />}
    </>
  );
}
