import {
  LNS_CONNECTION_NAME_MAX_LENGTH,
  LNS_KEY_HEADER,
  LNS_KINDS,
  type LnsConnection,
  type LnsConnectionWithKey,
  type LnsKind,
} from '@rodmenys/contract';
import { Alert, App, Button, Card, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useCreateLnsConnection,
  useDeleteLnsConnection,
  useLnsConnections,
  useRotateLnsKey,
  useUpdateLnsConnection,
} from '../../api/lorawan';
import { BuildingStreetSelect } from '../../components/building-street-select';
import { FocusableScroll } from '../../components/focusable-scroll';
import { FormDialog } from '../../components/form-dialog';
import { LoadError, useErrorText } from '../../components/load-error';
import { useConfirm } from '../../components/modal-host';
import { formatDateTime } from '../../format';
import { SecretModal } from '../integrations/secret-modal';
import { ConnectionHealthDrawer } from './connection-health';

interface ConnectionValues {
  kind?: LnsKind;
  name?: string;
  locationIds?: number[];
}

/** Puts the focus back where the person continues once a dialog or drawer has closed. */
const refocus = (el: HTMLElement | null | undefined) => setTimeout(() => el?.focus(), 0);

/** The address an LNS posts to: this server's origin and the connection's path. */
export const endpointUrl = (c: Pick<LnsConnection, 'EndpointPath'>) => `${window.location.origin}${c.EndpointPath}`;

/** Creates a connection, or renames one and changes its buildings (the kind stays). */
function ConnectionDialog({
  editing,
  onClose,
}: {
  editing: LnsConnection | null;
  onClose: (created: LnsConnectionWithKey | null) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ConnectionValues>();
  const create = useCreateLnsConnection();
  const update = useUpdateLnsConnection();
  // What the creation answered (the key), handed on once the dialog has closed.
  const created = useRef<LnsConnectionWithKey | null>(null);
  const save = async (v: ConnectionValues) => {
    const locationIds = v.locationIds ?? [];
    if (editing) {
      await update.mutateAsync({ params: { id: editing.Id }, body: { name: v.name!.trim(), locationIds } });
    } else {
      created.current = await create.mutateAsync({ body: { kind: v.kind!, name: v.name!.trim(), locationIds } });
    }
  };
  return (
    <FormDialog<ConnectionValues>
      title={editing ? t('lorawan.connections.editTitle', { name: editing.Name }) : t('lorawan.connections.add')}
      form={form}
      onSave={save}
      onClose={(saved) => onClose(saved ? created.current : null)}
      pending={create.isPending || update.isPending}
      width={640}
      formProps={{
        initialValues: editing
          ? { kind: editing.Kind, name: editing.Name, locationIds: editing.Locations.map((l) => l.Id) }
          : { kind: 'chirpstack' },
      }}
      fields={{ locationIds: 'locationIds' }}
    >
      <Form.Item name="kind" label={t('lorawan.connections.kind')} rules={[{ required: true }]}>
        <Select disabled={!!editing} options={LNS_KINDS.map((k) => ({ value: k, label: t(`lorawan.kinds.${k}`) }))} />
      </Form.Item>
      <Form.Item
        name="name"
        label={t('lorawan.connections.name')}
        rules={[{ required: true, whitespace: true, message: t('lorawan.connections.nameRequired') }]}
      >
        <Input maxLength={LNS_CONNECTION_NAME_MAX_LENGTH} placeholder={t('lorawan.connections.namePlaceholder')} />
      </Form.Item>
      <Form.Item
        name="locationIds"
        label={t('lorawan.connections.locations')}
        extra={t('lorawan.connections.locationsHelp')}
      >
        <BuildingStreetSelect placeholder={t('fleet.locationsPlaceholder')} />
      </Form.Item>
    </FormDialog>
  );
}

/** The key of a connection just created or rotated, shown once, with where and how the LNS sends it. */
function KeyShownOnce({ shown, onClose }: { shown: LnsConnectionWithKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <SecretModal
      title={shown ? t('lorawan.connections.keyTitle', { name: shown.Name }) : ''}
      secret={shown?.Key ?? null}
      onClose={onClose}
    >
      {shown && (
        <Typography.Paragraph style={{ marginTop: 12, marginBottom: 0 }}>
          {t('lorawan.connections.keyWhere')} <Typography.Text code>{endpointUrl(shown)}</Typography.Text>
          <br />
          {t('lorawan.connections.keyHeader')}{' '}
          <Typography.Text code>{`${LNS_KEY_HEADER}: ${shown.Key}`}</Typography.Text>
        </Typography.Paragraph>
      )}
    </SecretModal>
  );
}

/**
 * Group 1: the network-server connections (docs/lorawan.md): create (the key shown once), rename
 * and re-assign buildings, rotate the key, delete; a row opens its health.
 */
export function Connections() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const confirm = useConfirm();
  const connections = useLnsConnections();
  const rotate = useRotateLnsKey();
  const remove = useDeleteLnsConnection();
  const [dialog, setDialog] = useState<{ editing: LnsConnection | null; opener: HTMLElement | null } | null>(null);
  const [shown, setShown] = useState<LnsConnectionWithKey | null>(null);
  const [health, setHealth] = useState<{ id: number; opener: HTMLElement | null } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const keyOpener = useRef<HTMLElement | null>(null);

  const onRotate = async (c: LnsConnection, opener: HTMLElement) => {
    setFailure(null);
    if (!(await confirm({ title: t('lorawan.connections.rotateConfirm', { name: c.Name }) }))) return refocus(opener);
    try {
      keyOpener.current = opener;
      setShown(await rotate.mutateAsync({ params: { id: c.Id } }));
    } catch (error) {
      setFailure(errorText(error));
      refocus(opener);
    }
  };
  const onDelete = async (c: LnsConnection, opener: HTMLElement) => {
    setFailure(null);
    const ok = await confirm({
      title: t('lorawan.connections.deleteConfirm', { name: c.Name }),
      okButtonProps: { danger: true },
      okText: t('lorawan.connections.delete'),
    });
    if (!ok) return refocus(opener);
    try {
      await remove.mutateAsync({ params: { id: c.Id } });
      message.success(t('lorawan.connections.deleted', { name: c.Name }));
      refocus(addButton.current);
    } catch (error) {
      setFailure(errorText(error));
      refocus(opener);
    }
  };

  return (
    <Card title={t('lorawan.connections.title')} style={{ marginBottom: 24 }}>
      <Typography.Paragraph type="secondary">
        {t('lorawan.connections.help', { header: LNS_KEY_HEADER })}
      </Typography.Paragraph>
      <Button
        ref={addButton}
        type="primary"
        style={{ marginBottom: 16 }}
        onClick={(e) => setDialog({ editing: null, opener: e.currentTarget })}
      >
        {t('lorawan.connections.add')}
      </Button>
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} />}
      {connections.error ? (
        <LoadError error={connections.error} onRetry={() => void connections.refetch()} />
      ) : (
        <FocusableScroll label={t('lorawan.connections.title')}>
          <Table<LnsConnection>
            rowKey="Id"
            size="small"
            loading={connections.isLoading}
            dataSource={connections.data}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('lorawan.connections.none') }}
            columns={[
              {
                title: t('lorawan.connections.name'),
                dataIndex: 'Name',
                render: (name: string, c) => (
                  <Space direction="vertical" size={0}>
                    <Typography.Text strong>{name}</Typography.Text>
                    <Tag>{t(`lorawan.kinds.${c.Kind}`)}</Tag>
                  </Space>
                ),
              },
              {
                title: t('lorawan.connections.endpoint'),
                key: 'endpoint',
                render: (_, c) => (
                  <Typography.Text code copyable>
                    {endpointUrl(c)}
                  </Typography.Text>
                ),
              },
              { title: t('lorawan.connections.key'), dataIndex: 'Prefix', render: (p: string) => <code>{p}…</code> },
              {
                title: t('lorawan.connections.locations'),
                key: 'locations',
                render: (_, c) =>
                  c.Locations.length === 0 ? (
                    <Typography.Text type="secondary">{t('fleet.noLocations')}</Typography.Text>
                  ) : (
                    <Space direction="vertical" size={0}>
                      {c.Locations.map((l) => (
                        <span key={l.Id}>{l.Label}</span>
                      ))}
                    </Space>
                  ),
              },
              {
                title: t('lorawan.connections.lastUsed'),
                dataIndex: 'LastUsedAt',
                render: (v: string | null) => (v ? formatDateTime(v) : t('collectors.never')),
              },
              {
                title: t('lorawan.connections.actions'),
                key: 'actions',
                render: (_, c) => (
                  <Space wrap>
                    <Button size="small" onClick={(e) => setHealth({ id: c.Id, opener: e.currentTarget })}>
                      {t('lorawan.connections.health', { name: c.Name })}
                    </Button>
                    <Button size="small" onClick={(e) => setDialog({ editing: c, opener: e.currentTarget })}>
                      {t('lorawan.connections.edit', { name: c.Name })}
                    </Button>
                    <Button size="small" onClick={(e) => void onRotate(c, e.currentTarget)}>
                      {t('lorawan.connections.rotate', { name: c.Name })}
                    </Button>
                    <Button size="small" danger onClick={(e) => void onDelete(c, e.currentTarget)}>
                      {t('lorawan.connections.deleteOf', { name: c.Name })}
                    </Button>
                  </Space>
                ),
              },
            ]}
          />
        </FocusableScroll>
      )}
      {dialog && (
        <ConnectionDialog
          editing={dialog.editing}
          onClose={(created) => {
            const opener = dialog.opener;
            setDialog(null);
            if (created) {
              keyOpener.current = opener;
              setShown(created);
            } else refocus(opener);
          }}
        />
      )}
      <KeyShownOnce
        shown={shown}
        onClose={() => {
          setShown(null);
          refocus(keyOpener.current);
        }}
      />
      <ConnectionHealthDrawer
        id={health?.id ?? null}
        onClose={() => {
          const opener = health?.opener;
          setHealth(null);
          refocus(opener);
        }}
      />
    </Card>
  );
}
