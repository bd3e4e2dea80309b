import type { DqSetting, Job, MonthEndListRow } from '@rodmenys/contract';
import { App, Button, Card, Form, Input, InputNumber, Modal, Space, Table, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClearMonthEnd, useDqSettings, useJobs, useSetMonthEnd, useUpdateDqSetting } from '../../api/data-quality';
import { useDeviceTypes } from '../../api/devices';
import { LoadError, useErrorText } from '../../components/load-error';
import { STATIC_MODAL, useConfirm } from '../../components/modal-host';
import { decimalSeparator, formatDateTime, formatDecimal, monthName } from '../../format';
import { useLanguage } from '../../i18n';

/**
 * The operator's side of data quality (group 1; the server checks it again): the rules' settings,
 * the scheduled work with its last run, and month-end values set by hand. docs/data-quality.md.
 */

/** A setting's value as it is edited: JSON (a number, a list). */
const valueText = (value: unknown) => JSON.stringify(value);

/** Days per device type ({"1": 7, "3": 3}): edited as one field per type, named. */
const isPerType = (value: unknown): value is Record<string, number> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A device type's name in the UI language (its number when the names are not known). */
function useTypeName() {
  const language = useLanguage();
  const types = useDeviceTypes();
  return (id: number | string) => {
    const type = types.data?.find((ty) => ty.Id === Number(id));
    return type ? (language === 'en' ? type.DeviceTypeNameEn : type.DeviceTypeName) : String(id);
  };
}

/** A setting's value as the table shows it: numbers in the UI language, days per type by the type's name. */
function SettingValue({ value }: { value: unknown }) {
  const language = useLanguage();
  const typeName = useTypeName();
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

/** Days per device type, one named field per type (the lookup's types and any the value names); empty: not checked. */
function PerTypeDialog({ setting, onClose }: { setting: DqSetting; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const update = useUpdateDqSetting();
  const types = useDeviceTypes();
  const typeName = useTypeName();
  const value = isPerType(setting.Value) ? setting.Value : {};
  const ids = [...new Set([...(types.data ?? []).map((ty) => String(ty.Id)), ...Object.keys(value)])].sort(
    (a, b) => Number(a) - Number(b),
  );
  const [form] = Form.useForm<Record<string, number | null>>();
  const [serverError, setServerError] = useState<string | null>(null);
  const save = async (days: Record<string, number | null | undefined>) => {
    setServerError(null);
    const body = Object.fromEntries(
      Object.entries(days).filter((e): e is [string, number] => typeof e[1] === 'number'),
    );
    try {
      await update.mutateAsync({ params: { key: setting.Key }, body: { value: body } });
      message.success(t('anomalies.settings.saved'));
      onClose();
    } catch (error) {
      setServerError(errorText(error));
    }
  };
  return (
    <Modal
      open
      {...STATIC_MODAL}
      title={t('anomalies.settings.editTitle', { name: t(`anomalies.settingNames.${setting.Key}`) })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={update.isPending}
    >
      <Typography.Paragraph type="secondary">{t('anomalies.settings.perTypeHelp')}</Typography.Paragraph>
      {serverError && (
        <Typography.Paragraph type="danger" role="alert">
          {serverError}
        </Typography.Paragraph>
      )}
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ span: 14 }}
        wrapperCol={{ span: 10 }}
        initialValues={value}
        onFinish={save}
      >
        {ids.map((id, i) => (
          <Form.Item
            key={id}
            name={id}
            label={typeName(id)}
            rules={[{ type: 'integer', min: 1, max: 3650, message: t('anomalies.settings.daysRange') }]}
          >
            <InputNumber
              controls={false}
              autoFocus={i === 0}
              precision={0}
              placeholder={t('anomalies.settings.notChecked')}
              style={{ width: '100%' }}
            />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}

function SettingDialog({ setting, onClose }: { setting: DqSetting; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const update = useUpdateDqSetting();
  const [form] = Form.useForm<{ value: string }>();
  const [serverError, setServerError] = useState<string | null>(null);
  const save = async ({ value }: { value: string }) => {
    setServerError(null);
    try {
      await update.mutateAsync({ params: { key: setting.Key }, body: { value: JSON.parse(value) } });
      message.success(t('anomalies.settings.saved'));
      onClose();
    } catch (error) {
      setServerError(errorText(error));
    }
  };
  return (
    <Modal
      open
      {...STATIC_MODAL}
      title={t('anomalies.settings.editTitle', { name: t(`anomalies.settingNames.${setting.Key}`) })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={update.isPending}
    >
      <Form form={form} layout="vertical" initialValues={{ value: valueText(setting.Value) }} onFinish={save}>
        <Typography.Paragraph type="secondary">{t('anomalies.settings.valueHelp')}</Typography.Paragraph>
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
      </Form>
    </Modal>
  );
}

/** The parameters of the rules and of month-end values, each editable (audited). */
export function SettingsCard() {
  const { t } = useTranslation();
  const settings = useDqSettings(true);
  const [editing, setEditing] = useState<DqSetting | null>(null);
  return (
    <Card size="small" title={t('anomalies.settings.title')} style={{ marginTop: 16 }}>
      {settings.error && <LoadError error={settings.error} onRetry={() => void settings.refetch()} />}
      <Table<DqSetting>
        size="small"
        rowKey="Key"
        loading={settings.isLoading}
        dataSource={settings.data ?? []}
        pagination={false}
        scroll={{ x: true }}
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
      />
      {editing &&
        (isPerType(editing.Value) ? (
          <PerTypeDialog setting={editing} onClose={() => setEditing(null)} />
        ) : (
          <SettingDialog setting={editing} onClose={() => setEditing(null)} />
        ))}
    </Card>
  );
}

/** What a run did, each count by its name; "no mail server" for a digest that could not be sent. */
function resultText(result: Job['LastResult'], t: TFunction): string {
  if (!result) return '';
  return Object.entries(result)
    .map(([key, n]) =>
      key === 'mailNotConfigured'
        ? t('anomalies.jobs.results.mailNotConfigured')
        : `${t(`anomalies.jobs.results.${key}`, { defaultValue: key })}: ${n}`,
    )
    .join(', ');
}

/** The scheduled work: when each job runs next, its last run, how long it took, what it did or the error. */
export function JobsCard() {
  const { t } = useTranslation();
  const jobs = useJobs(true);
  return (
    <Card size="small" title={t('anomalies.jobs.title')} style={{ marginTop: 16 }}>
      {jobs.error && <LoadError error={jobs.error} onRetry={() => void jobs.refetch()} />}
      <Table<Job>
        size="small"
        rowKey="Name"
        loading={jobs.isLoading}
        dataSource={jobs.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        columns={[
          {
            title: t('anomalies.jobs.name'),
            dataIndex: 'Name',
            render: (name: string, job) => (
              <Space size={4} wrap>
                {t(`anomalies.jobs.names.${name}`, { defaultValue: name })}
                {job.Running && <Tag color="processing">{t('anomalies.jobs.running')}</Tag>}
              </Space>
            ),
          },
          { title: t('anomalies.jobs.lastStarted'), dataIndex: 'LastStartedAt', render: formatDateTime },
          {
            title: t('anomalies.jobs.duration'),
            dataIndex: 'LastDurationMs',
            align: 'right',
            render: (ms: number | null) => (ms === null ? '' : t('anomalies.jobs.ms', { ms })),
          },
          {
            title: t('anomalies.jobs.lastResult'),
            render: (_, job) =>
              job.LastError ? (
                <Typography.Text type="danger">
                  {t('anomalies.jobs.failed')}: <code>{job.LastError}</code>
                </Typography.Text>
              ) : (
                resultText(job.LastResult, t)
              ),
          },
          { title: t('anomalies.jobs.nextRun'), dataIndex: 'NextRunAt', render: formatDateTime },
          {
            title: t('anomalies.jobs.runs'),
            align: 'right',
            render: (_, job) => t('anomalies.jobs.runsFailures', { runs: job.Runs, failures: job.Failures }),
          },
        ]}
      />
    </Card>
  );
}

/** A month-end row as the actions need it: a value, or a missing one (set by hand from a site visit). */
type MonthEndActionRow = Pick<MonthEndListRow, 'Month' | 'Source' | 'Value'>;

/** Sets a month-end value by hand (source manual) with the reason; the operator's site reading. */
function MonthEndDialog({ deviceId, row, onClose }: { deviceId: number; row: MonthEndActionRow; onClose: () => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useErrorText();
  const set = useSetMonthEnd();
  const [form] = Form.useForm<{ value: number; reason: string }>();
  const [serverError, setServerError] = useState<string | null>(null);
  const save = async (v: { value: number; reason: string }) => {
    try {
      await set.mutateAsync({
        params: { deviceId, month: row.Month },
        body: { value: v.value, reason: v.reason.trim() },
      });
      onClose();
    } catch (error) {
      setServerError(errorText(error));
    }
  };
  return (
    <Modal
      open
      {...STATIC_MODAL}
      title={t('anomalies.manual.title', { month: monthName(row.Month, language) })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={set.isPending}
    >
      {serverError && <Typography.Text type="danger">{serverError}</Typography.Text>}
      <Form form={form} layout="vertical" initialValues={{ value: row.Value ?? undefined }} onFinish={save}>
        <Form.Item
          name="value"
          label={t('anomalies.value')}
          rules={[{ required: true, message: t('anomalies.manual.valueRequired') }]}
        >
          <InputNumber
            controls={false}
            style={{ width: '100%' }}
            step={0.001}
            decimalSeparator={decimalSeparator(language)}
          />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('anomalies.manual.reason')}
          rules={[{ required: true, whitespace: true, message: t('anomalies.manual.reasonRequired') }]}
        >
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
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
