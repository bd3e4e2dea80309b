import type { BillingReceiver, createBillingReceiver, ResponseOf } from '@rodmenys/contract';
import { Alert, Button, Card, Form, Input, Popconfirm, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBillingReceivers, useCreateBillingReceiver, useDisableBillingReceiver } from '../../api/integrations';
import { LoadError, useErrorText } from '../../components/load-error';

import { SecretModal } from './secret-modal';

type CreatedReceiver = ResponseOf<typeof createBillingReceiver>;
interface ReceiverForm {
  name: string;
  kind: 'webhook' | 'email';
  url?: string;
  email?: string;
  language: 'lt' | 'en';
}

export function Receivers() {
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
