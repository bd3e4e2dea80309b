import type { DqSetting, MonthEndListRow } from '@rodmenys/contract';
import { App, Button, Form, type FormInstance, type FormProps, Input, Space, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClearMonthEnd, useDqSettings, useSetMonthEnd, useUpdateDqSetting } from '../../api/data-quality';
import { useDeviceTypeName, useDeviceTypes } from '../../api/devices';
import { FormDialog } from '../../components/form-dialog';
import { RequiredTextArea } from '../../components/form-fields';
import { useErrorText } from '../../components/load-error';
import { useConfirm } from '../../components/modal-host';
import { NumberInput } from '../../components/number-field';
import { formatDateTime, formatDecimal, monthName } from '../../format';
import { useLanguage } from '../../i18n';
import { QueryTableCard } from './query-table-card';

/**
 * The operator's side of data quality (group 1; the server checks it again): the rules' settings,
 * the scheduled work with its last run, and month-end values set by hand. docs/data-quality.md.
 */

/** A setting's value as it is edited: JSON (a number, a list). */
const valueText = (value: unknown) => JSON.stringify(value);

/** Days per device type ({"1": 7, "3": 3}): edited as one field per type, named. */
const isPerType = (value: unknown): value is Record<string, number> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A setting's value as the table shows it: numbers in the UI language, days per type by the type's name. */
function SettingValue({ value }: { value: unknown }) {
  const language = useLanguage();
  const typeName = useDeviceTypeName();
  if (isPerType(value))
    return (
      <>
        {Object.entries(value)
          .map(([id, days]) => `${typeName(id)}: ${formatDecimal(days, language)}`)
          .join('; ')}
      </>
    );
  if (typeof value === 'number') return <>{formatDecimal(value, language)}</>;
  if (Array.isArray(value) && value.every((v) => typeof v === 'number'))
    return <>{value.map((v) => formatDecimal(v, language)).join('; ')}</>;
  return <code style={{ wordBreak: 'break-all' }}>{valueText(value)}</code>;
}

/**
 * A setting's edit dialog: its name in the title, a word of help, the form's fields; Save stores
 * what `toValue` makes of the fields and says so.
 */
function SettingFormDialog<V>({
  setting,
  form,
  toValue,
  help,
  formProps,
  onClose,
  children,
}: {
  setting: DqSetting;
  form: FormInstance<V>;
  toValue: (values: V) => unknown;
  help: string;
  formProps: Omit<FormProps<V>, 'form' | 'onFinish'>;
  onClose: () => void;
  children: ReactNode | ((serverError: string | null) => ReactNode);
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const update = useUpdateDqSetting();
  const save = async (values: V) => {
    await update.mutateAsync({ params: { key: setting.Key }, body: { value: toValue(values) } });
    message.success(t('anomalies.settings.saved'));
  };
  return (
    <FormDialog
      title={t('anomalies.settings.editTitle', { name: t(`anomalies.settingNames.${setting.Key}`) })}
      form={form}
      onSave={save}
      onClose={onClose}
      pending={update.isPending}
      intro={<Typography.Paragraph type="secondary">{help}</Typography.Paragraph>}
      formProps={formProps}
    >
      {children}
    </FormDialog>
  );
}

/** Days per device type, one named field per type (the lookup's types and any the value names); empty: not checked. */
function PerTypeDialog({ setting, onClose }: { setting: DqSetting; onClose: () => void }) {
  const { t } = useTranslation();
  const types = useDeviceTypes();
  const typeName = useDeviceTypeName();
  const value = isPerType(setting.Value) ? setting.Value : {};
  const ids = [...new Set([...(types.data ?? []).map((ty) => String(ty.Id)), ...Object.keys(value)])].sort(
    (a, b) => Number(a) - Number(b),
  );
  const [form] = Form.useForm<Record<string, number | null>>();
  // Days (silent.days, zero.days) are whole numbers to 3650; a rise per day (suspect.maxPerDay) any positive number.
  const isRise = setting.Key === 'suspect.maxPerDay';
  return (
    <SettingFormDialog
      setting={setting}
      form={form}
      // Empty fields: that type is not checked.
      toValue={(days) => Object.fromEntries(Object.entries(days).filter((e) => typeof e[1] === 'number'))}
      help={t('anomalies.settings.perTypeHelp')}
      formProps={{ layout: 'horizontal', labelCol: { span: 14 }, wrapperCol: { span: 10 }, initialValues: value }}
      onClose={onClose}
    >
      {ids.map((id, i) => (
        <Form.Item
          key={id}
          name={id}
          label={typeName(id)}
          rules={[
            isRise
              ? { type: 'number', min: 0.001, max: 1e9, message: t('anomalies.settings.riseRange') }
              : { type: 'integer', min: 1, max: 3650, message: t('anomalies.settings.daysRange') },
          ]}
        >
          <NumberInput autoFocus={i === 0} placeholder={t('anomalies.settings.notChecked')} />
        </Form.Item>
      ))}
    </SettingFormDialog>
  );
}

/** Any other setting, as JSON (a number, a list); the server's refusal is shown at the field. */
function SettingDialog({ setting, onClose }: { setting: DqSetting; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ value: string }>();
  return (
    <SettingFormDialog
      setting={setting}
      form={form}
      toValue={({ value }) => JSON.parse(value)}
      help={t('anomalies.settings.valueHelp')}
      formProps={{ initialValues: { value: valueText(setting.Value) } }}
      onClose={onClose}
    >
      {(serverError) => (
        <Form.Item
          name="value"
          label={t('anomalies.settings.value')}
          rules={[
            { required: true, message: t('anomalies.settings.valueRequired') },
            {
              validator: async (_, text: string) => {
                if (!text) return;
                try {
                  JSON.parse(text);
                } catch {
                  throw new Error(t('anomalies.settings.notJson'));
                }
              },
            },
          ]}
          validateStatus={serverError ? 'error' : undefined}
          help={serverError ?? undefined}
        >
          <Input autoFocus />
        </Form.Item>
      )}
    </SettingFormDialog>
  );
}

/** The parameters of the rules and of month-end values, each editable (audited). */
export function SettingsCard() {
  const { t } = useTranslation();
  const settings = useDqSettings(true);
  const [editing, setEditing] = useState<DqSetting | null>(null);
  return (
    <QueryTableCard<DqSetting>
      title={t('anomalies.settings.title')}
      query={settings}
      rowKey="Key"
      columns={[
        {
          title: t('anomalies.settings.name'),
          dataIndex: 'Key',
          width: 300,
          render: (key: string) => (
            <>
              {t(`anomalies.settingNames.${key}`, { defaultValue: key })}
              <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                {key}
              </Typography.Text>
            </>
          ),
        },
        {
          title: t('anomalies.settings.value'),
          dataIndex: 'Value',
          // Long lists (the sentinel values) wrap instead of pushing Edit off the screen.
          render: (v: unknown) => (
            <span style={{ wordBreak: 'break-word' }}>
              <SettingValue value={v} />
            </span>
          ),
        },
        { title: t('anomalies.settings.updated'), dataIndex: 'UpdatedAt', render: formatDateTime },
        {
          title: t('common.actions'),
          key: 'edit',
          fixed: 'right',
          render: (_, s) => (
            <Button
              size="small"
              onClick={() => setEditing(s)}
              // The visible word first (the accessible name starts with what is seen), then which setting.
              aria-label={`${t('common.edit')}: ${t(`anomalies.settingNames.${s.Key}`)}`}
            >
              {t('common.edit')}
            </Button>
          ),
        },
      ]}
    >
      {editing &&
        (isPerType(editing.Value) && editing.Key.endsWith('.days') ? (
          <PerTypeDialog setting={editing} onClose={() => setEditing(null)} />
        ) : (
          <SettingDialog setting={editing} onClose={() => setEditing(null)} />
        ))}
    </QueryTableCard>
  );
}

/** A month-end row as the actions need it: a value, or a missing one (set by hand from a site visit). */
type MonthEndActionRow = Pick<MonthEndListRow, 'Month' | 'Source' | 'Value'>;

/** Sets a month-end value by hand (source manual) with the reason; the operator's site reading. */
function MonthEndDialog({ deviceId, row, onClose }: { deviceId: number; row: MonthEndActionRow; onClose: () => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const set = useSetMonthEnd();
  const [form] = Form.useForm<{ value: number; reason: string }>();
  return (
    <FormDialog
      title={t('anomalies.manual.title', { month: monthName(row.Month, language) })}
      form={form}
      onSave={(v) =>
        set.mutateAsync({ params: { deviceId, month: row.Month }, body: { value: v.value, reason: v.reason.trim() } })
      }
      onClose={onClose}
      pending={set.isPending}
      formProps={{ initialValues: { value: row.Value ?? undefined } }}
    >
      <Form.Item
        name="value"
        label={t('anomalies.value')}
        rules={[{ required: true, message: t('anomalies.manual.valueRequired') }]}
      >
        <NumberInput step={0.001} />
      </Form.Item>
      <RequiredTextArea
        name="reason"
        label={t('anomalies.manual.reason')}
        requiredMessage={t('anomalies.manual.reasonRequired')}
        rows={2}
        maxLength={500}
      />
    </FormDialog>
  );
}

/** The operator's actions on a month-end row: set it by hand; remove a manual value (it is computed again). */
export function MonthEndActions({ deviceId, row }: { deviceId: number; row: MonthEndActionRow }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const confirm = useConfirm();
  const clear = useClearMonthEnd();
  const [open, setOpen] = useState(false);
  const remove = async () => {
    const yes = await confirm({
      title: t('anomalies.manual.clearTitle', { month: monthName(row.Month, language) }),
      content: t('anomalies.manual.clearText'),
      okText: t('anomalies.manual.clear'),
    });
    if (!yes) return;
    try {
      await clear.mutateAsync({ params: { deviceId, month: row.Month } });
    } catch (error) {
      message.error(errorText(error));
    }
  };
  return (
    <Space size={4}>
      <Button size="small" onClick={() => setOpen(true)}>
        {t('anomalies.manual.set')}
      </Button>
      {row.Source === 'manual' && (
        <Button size="small" danger onClick={() => void remove()}>
          {t('anomalies.manual.clear')}
        </Button>
      )}
      {open && <MonthEndDialog deviceId={deviceId} row={row} onClose={() => setOpen(false)} />}
    </Space>
  );
}
