import {
  DEVICE_MODEL_MAX_LENGTH,
  FIELD_PATH_PATTERN,
  type LorawanMapping,
  MAPPING_UNITS,
  type MappingUnit,
} from '@rodmenys/contract';
import { Alert, App, Button, Card, Form, Input, Select, Space, Table, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useCreateLorawanMapping,
  useDeleteLorawanMapping,
  useLorawanMappings,
  useUpdateLorawanMapping,
} from '../../api/lorawan';
import { FocusableScroll } from '../../components/focusable-scroll';
import { FormDialog } from '../../components/form-dialog';
import { LoadError, useErrorText } from '../../components/load-error';
import { useConfirm } from '../../components/modal-host';
import { NumberInput } from '../../components/number-field';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';

interface MappingValues {
  model?: string;
  valueField?: string;
  unit?: MappingUnit;
  scale?: number | null;
  timeField?: string;
}

/** The largest scale a mapping takes (the contract's limit): above it the field refuses, it never saves another value. */
const MAX_SCALE = 1e9;
const FIELD_PATH = new RegExp(FIELD_PATH_PATTERN);

function MappingDialog({ editing, onClose }: { editing: LorawanMapping | null; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [form] = Form.useForm<MappingValues>();
  const create = useCreateLorawanMapping();
  const update = useUpdateLorawanMapping();
  const pathRule = {
    validator: async (_: unknown, value: string | undefined) => {
      if (value && !FIELD_PATH.test(value.trim())) throw new Error(t('lorawan.mappings.pathInvalid'));
    },
  };
  const save = async (v: MappingValues) => {
    const body = {
      model: v.model!.trim(),
      valueField: v.valueField!.trim(),
      unit: v.unit!,
      scale: v.scale ?? 1,
      timeField: v.timeField?.trim() || null,
    };
    if (editing) await update.mutateAsync({ params: { id: editing.Id }, body });
    else await create.mutateAsync({ body });
  };
  return (
    <FormDialog<MappingValues>
      title={editing ? t('lorawan.mappings.editTitle', { model: editing.Model }) : t('lorawan.mappings.add')}
      form={form}
      onSave={save}
      onClose={onClose}
      pending={create.isPending || update.isPending}
      intro={<Typography.Paragraph type="secondary">{t('lorawan.mappings.dialogHelp')}</Typography.Paragraph>}
      formProps={{
        initialValues: editing
          ? {
              model: editing.Model,
              valueField: editing.ValueField,
              unit: editing.Unit,
              scale: editing.Scale,
              timeField: editing.TimeField ?? undefined,
            }
          : { unit: 'kWh', scale: 1 },
      }}
    >
      <Form.Item
        name="model"
        label={t('lorawan.model')}
        rules={[{ required: true, whitespace: true, message: t('lorawan.mappings.modelRequired') }]}
      >
        <Input maxLength={DEVICE_MODEL_MAX_LENGTH} />
      </Form.Item>
      <Form.Item
        name="valueField"
        label={t('lorawan.mappings.valueField')}
        extra={t('lorawan.mappings.pathHelp')}
        rules={[{ required: true, whitespace: true, message: t('lorawan.mappings.valueFieldRequired') }, pathRule]}
      >
        <Input maxLength={200} placeholder="meter.energy_kwh" />
      </Form.Item>
      <Form.Item name="unit" label={t('lorawan.mappings.unit')} rules={[{ required: true }]}>
        <Select options={MAPPING_UNITS.map((u) => ({ value: u, label: t(`lorawan.units.${u}`) }))} />
      </Form.Item>
      <Form.Item
        name="scale"
        label={t('lorawan.mappings.scale')}
        extra={t('lorawan.mappings.scaleHelp')}
        rules={[
          {
            validator: async (_: unknown, value: number | null | undefined) => {
              if (value === null || value === undefined) return;
              if (!(value > 0) || value > MAX_SCALE)
                throw new Error(t('lorawan.mappings.scaleRange', { max: MAX_SCALE.toLocaleString(language) }));
            },
          },
        ]}
      >
        <NumberInput />
      </Form.Item>
      <Form.Item
        name="timeField"
        label={t('lorawan.mappings.timeField')}
        extra={t('lorawan.mappings.timeFieldHelp')}
        rules={[pathRule]}
      >
        <Input maxLength={200} />
      </Form.Item>
    </FormDialog>
  );
}

/** Group 1: per-model field mappings of an LNS's decoded object, for models no built-in decoder reads. */
export function Mappings() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const confirm = useConfirm();
  const mappings = useLorawanMappings();
  const remove = useDeleteLorawanMapping();
  const [dialog, setDialog] = useState<{ editing: LorawanMapping | null; opener: HTMLElement } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const onDelete = async (m: LorawanMapping, opener: HTMLElement) => {
    setFailure(null);
    const ok = await confirm({
      title: t('lorawan.mappings.deleteConfirm', { model: m.Model }),
      okButtonProps: { danger: true },
      okText: t('lorawan.mappings.delete'),
    });
    if (!ok) return setTimeout(() => opener.focus(), 0);
    try {
      await remove.mutateAsync({ params: { id: m.Id } });
      message.success(t('lorawan.mappings.deleted', { model: m.Model }));
      setTimeout(() => addButton.current?.focus(), 0);
    } catch (error) {
      setFailure(errorText(error));
    }
  };
  return (
    <Card title={t('lorawan.mappings.title')} style={{ marginBottom: 24 }}>
      <Typography.Paragraph type="secondary">{t('lorawan.mappings.help')}</Typography.Paragraph>
      <Button
        ref={addButton}
        type="primary"
        style={{ marginBottom: 16 }}
        onClick={(e) => setDialog({ editing: null, opener: e.currentTarget })}
      >
        {t('lorawan.mappings.add')}
      </Button>
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} />}
      {mappings.error ? (
        <LoadError error={mappings.error} onRetry={() => void mappings.refetch()} />
      ) : (
        <FocusableScroll label={t('lorawan.mappings.title')}>
          <Table<LorawanMapping>
            rowKey="Id"
            size="small"
            loading={mappings.isLoading}
            dataSource={mappings.data}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('lorawan.mappings.none') }}
            columns={[
              { title: t('lorawan.model'), dataIndex: 'Model' },
              {
                title: t('lorawan.mappings.valueField'),
                dataIndex: 'ValueField',
                render: (f: string) => <code>{f}</code>,
              },
              {
                title: t('lorawan.mappings.unit'),
                dataIndex: 'Unit',
                render: (u: MappingUnit) => t(`lorawan.units.${u}`),
              },
              {
                title: t('lorawan.mappings.scale'),
                dataIndex: 'Scale',
                align: 'right',
                render: (s: number) => s.toLocaleString(language, { maximumFractionDigits: 12 }),
              },
              {
                title: t('lorawan.mappings.timeField'),
                dataIndex: 'TimeField',
                render: (f: string | null) => (f ? <code>{f}</code> : t('lorawan.mappings.lnsTime')),
              },
              { title: t('lorawan.mappings.updatedAt'), dataIndex: 'UpdatedAt', render: formatDateTime },
              {
                title: t('lorawan.connections.actions'),
                key: 'actions',
                render: (_, m) => (
                  <Space>
                    <Button size="small" onClick={(e) => setDialog({ editing: m, opener: e.currentTarget })}>
                      {t('lorawan.mappings.edit', { model: m.Model })}
                    </Button>
                    <Button size="small" danger onClick={(e) => void onDelete(m, e.currentTarget)}>
                      {t('lorawan.mappings.deleteOf', { model: m.Model })}
                    </Button>
                  </Space>
                ),
              },
            ]}
          />
        </FocusableScroll>
      )}
      {dialog && (
        <MappingDialog
          editing={dialog.editing}
          onClose={() => {
            const opener = dialog.opener;
            setDialog(null);
            setTimeout(() => opener.focus(), 0);
          }}
        />
      )}
    </Card>
  );
}
