import { getDeclarationPhoto, type OfficeDeclaration } from '@rodmenys/contract';
import { App, Button, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchFile } from '../../../api/call';
import { useDecideDeclaration } from '../../../api/declarations-office';
import { useDeviceTypeName } from '../../../api/devices';
import { FormDialog } from '../../../components/form-dialog';
import { useErrorText } from '../../../components/load-error';
import { STATIC_MODAL, useDialogClose } from '../../../components/modal-host';
import { formatDateTime, formatDecimal } from '../../../format';
import { useLanguage } from '../../../i18n';

const STATUS_COLORS = { accepted: 'green', doubtful: 'orange', rejected: 'red' } as const;

/** A declaration's photo, fetched with the user's session (it is served only to those who see the flat). */
function PhotoDialog({ declaration, onClose }: { declaration: OfficeDeclaration; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { close, modalProps } = useDialogClose(onClose);
  useEffect(() => {
    let made: string | null = null;
    fetchFile(getDeclarationPhoto, { params: { id: declaration.Id } })
      .then((blob) => {
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch((e: unknown) => setError(errorText(e)));
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [declaration.Id, errorText]);
  return (
    <Modal
      {...modalProps}
      {...STATIC_MODAL}
      title={t('declarationsOffice.photoTitle', { serial: declaration.DeviceCode })}
      onCancel={() => close()}
      footer={<Button onClick={() => close()}>{t('common.close')}</Button>}
    >
      {error ? <Typography.Text type="danger">{error}</Typography.Text> : null}
      {url ? (
        <img
          src={url}
          alt={t('declarationsOffice.photoAlt', { serial: declaration.DeviceCode, value: declaration.Value })}
          style={{ maxWidth: '100%' }}
        />
      ) : null}
    </Modal>
  );
}

/** Rejecting a declaration: the reason the occupant is told. */
function RejectDialog({ declaration, onClose }: { declaration: OfficeDeclaration; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const decide = useDecideDeclaration();
  return (
    <FormDialog<{ reason: string }>
      title={t('declarationsOffice.rejectTitle', { serial: declaration.DeviceCode })}
      form={form}
      pending={decide.isPending}
      okText={t('declarationsOffice.reject')}
      onSave={({ reason }) =>
        decide.mutateAsync({ params: { id: declaration.Id }, body: { accept: false, reason: reason.trim() } })
      }
      onClose={onClose}
    >
      <Form.Item
        name="reason"
        label={t('declarationsOffice.reason')}
        extra={t('declarationsOffice.reasonHelp')}
        rules={[{ required: true, whitespace: true, message: t('declarationsOffice.reasonRequired') }]}
      >
        <Input.TextArea autoFocus rows={3} maxLength={1000} />
      </Form.Item>
    </FormDialog>
  );
}

/** The month's declarations: value, who entered it, the photo, accept or reject a doubtful one. */
export function ReviewTable({ rows, loading }: { rows: readonly OfficeDeclaration[]; loading: boolean }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const typeName = useDeviceTypeName();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const decide = useDecideDeclaration();
  const [photo, setPhoto] = useState<OfficeDeclaration | null>(null);
  const [rejecting, setRejecting] = useState<OfficeDeclaration | null>(null);
  const accept = async (d: OfficeDeclaration) => {
    try {
      await decide.mutateAsync({ params: { id: d.Id }, body: { accept: true } });
      message.success(t('declarationsOffice.accepted', { serial: d.DeviceCode }));
    } catch (error) {
      message.error(errorText(error));
    }
  };
  return (
    <>
      <Table<OfficeDeclaration>
        size="small"
        rowKey="Id"
        loading={loading}
        dataSource={[...rows]}
        pagination={{ pageSize: 50, showSizeChanger: false }}
        scroll={{ x: true }}
        columns={[
          { title: t('lifetime.address'), dataIndex: 'Address' },
          { title: t('lifetime.flat'), dataIndex: 'Flat' },
          { title: t('declarationsOffice.occupant'), dataIndex: 'OccupantName' },
          { title: t('lifetime.type'), dataIndex: 'DeviceTypeId', render: (id: number) => typeName(id) },
          { title: t('lifetime.serial'), dataIndex: 'DeviceCode' },
          {
            title: t('declarationsOffice.value'),
            dataIndex: 'Value',
            align: 'right',
            render: (v: number, d) => (
              <span>
                {formatDecimal(v, language)}
                {d.Counts ? null : (
                  <Typography.Text type="secondary"> ({t('declarationsOffice.notCounting')})</Typography.Text>
                )}
              </span>
            ),
          },
          {
            title: t('declarationsOffice.declaredAt'),
            dataIndex: 'DeclaredAt',
            render: (v: string) => formatDateTime(v),
          },
          {
            title: t('declarationsOffice.channel'),
            key: 'channel',
            render: (_, d) =>
              d.Channel === 'phone'
                ? t('declarationsOffice.byPhone', {
                    caller: [d.CallerName, d.CallerPhone].filter(Boolean).join(', '),
                    user: d.EnteredBy ?? t('declarationsOffice.backOffice'),
                  })
                : t('declarationsOffice.byOccupant'),
          },
          {
            title: t('declarationsOffice.status'),
            key: 'status',
            render: (_, d) => (
              <Space direction="vertical" size={0}>
                <Tag color={STATUS_COLORS[d.Status]}>{t(`declarationsOffice.statuses.${d.Status}`)}</Tag>
                {d.Reason ? <Typography.Text type="secondary">{d.Reason}</Typography.Text> : null}
              </Space>
            ),
          },
          {
            title: t('declarationsOffice.actions'),
            key: 'actions',
            render: (_, d) => (
              <Space wrap>
                {d.HasPhoto ? (
                  <Button
                    size="small"
                    onClick={() => setPhoto(d)}
                    aria-label={`${t('declarationsOffice.photo')}: ${d.DeviceCode}`}
                  >
                    {t('declarationsOffice.photo')}
                  </Button>
                ) : null}
                {d.Status === 'doubtful' ? (
                  <Button
                    size="small"
                    onClick={() => void accept(d)}
                    aria-label={`${t('declarationsOffice.accept')}: ${d.DeviceCode}`}
                  >
                    {t('declarationsOffice.accept')}
                  </Button>
                ) : null}
                {d.Status !== 'rejected' ? (
                  <Button
                    size="small"
                    danger
                    onClick={() => setRejecting(d)}
                    aria-label={`${t('declarationsOffice.reject')}: ${d.DeviceCode}`}
                  >
                    {t('declarationsOffice.reject')}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {photo ? <PhotoDialog declaration={photo} onClose={() => setPhoto(null)} /> : null}
      {rejecting ? <RejectDialog declaration={rejecting} onClose={() => setRejecting(null)} /> : null}
    </>
  );
}
