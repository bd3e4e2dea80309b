import {
  type createIntegrationKey,
  type IntegrationKey,
  LOCATION_LEVEL,
  MAX_KEY_DAYS,
  type ResponseOf,
} from '@rodmenys/contract';
import { Alert, Button, Card, DatePicker, Form, Input, Popconfirm, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateIntegrationKey, useIntegrationKeys, useRevokeIntegrationKey } from '../../api/integrations';
import { useLocationTree } from '../../api/location-data';
import { LoadError, useErrorText } from '../../components/load-error';
import { formatDateTime, lastDayOf } from '../../format';
import { BuildingPicker } from '../statements/building-picker';

import { SecretModal } from './secret-modal';

type CreatedKey = ResponseOf<typeof createIntegrationKey>;
interface KeyForm {
  name: string;
  expiresOn: Dayjs;
}

const keyState = (k: IntegrationKey): 'revoked' | 'expired' | 'active' =>
  k.RevokedAt ? 'revoked' : dayjs(k.ExpiresAt).isBefore(dayjs()) ? 'expired' : 'active';

export function IntegrationKeys() {
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
