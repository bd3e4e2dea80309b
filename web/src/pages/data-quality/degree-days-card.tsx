import { UploadOutlined } from '@ant-design/icons';
import type { DegreeDayCity, DegreeDaysImportResult } from '@rodmenys/contract';
import { Alert, App, Button, Card, Form, Modal, Select, Space, Table, Typography, Upload } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/call';
import { useDegreeDays, useSetDegreeDays, useUploadDegreeDays } from '../../api/degree-days';
import { LoadError, useErrorText } from '../../components/load-error';
import { STATIC_MODAL, useDialogClose } from '../../components/modal-host';
import { NumberInput, useNumberRule } from '../../components/number-field';
import { usePagerNames } from '../../components/pagination';
import { monthName as monthTitle } from '../../format';
import { useLanguage } from '../../i18n';

/**
 * Heating degree-days per city and month (group 1; docs/data-quality.md, "Degree-days"): a year's
 * table, each value edited by hand, or a CSV file imported (all or nothing, the wrong lines listed).
 */

interface Editing {
  city: DegreeDayCity;
  month: string;
  monthName: string;
  value: number | null;
}

const cityName = (c: DegreeDayCity) => (c.Region ? `${c.Name} (${c.Region})` : c.Name);

function EditDialog({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const { t } = useTranslation();
  const { close, modalProps } = useDialogClose(onClose);
  const rule = useNumberRule();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const update = useSetDegreeDays();
  const [form] = Form.useForm<{ value: number | null }>();
  const [serverError, setServerError] = useState<string | null>(null);
  const save = async (value: number | null) => {
    setServerError(null);
    try {
      await update.mutateAsync({ params: { cityId: editing.city.Id, month: editing.month }, body: { value } });
      message.success(value === null ? t('degreeDays.removed') : t('degreeDays.saved'));
      close();
    } catch (error) {
      setServerError(errorText(error));
    }
  };
  return (
    <Modal
      {...modalProps}
      {...STATIC_MODAL}
      title={t('degreeDays.editTitle', { city: cityName(editing.city), month: editing.monthName })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={() => close()}
      confirmLoading={update.isPending}
      footer={(_, { OkBtn, CancelBtn }) => (
        <>
          {editing.value !== null && (
            <Button danger onClick={() => void save(null)} disabled={update.isPending}>
              {t('degreeDays.remove')}
            </Button>
          )}
          <CancelBtn />
          <OkBtn />
        </>
      )}
    >
      <Form form={form} layout="vertical" initialValues={{ value: editing.value }} onFinish={(v) => save(v.value)}>
        <Form.Item
          name="value"
          label={t('degreeDays.value')}
          rules={[{ required: true, message: t('degreeDays.valueRequired') }, rule({ min: 0, max: 2000 })]}
          validateStatus={serverError ? 'error' : undefined}
          help={serverError ?? undefined}
        >
          <NumberInput autoFocus step={0.1} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The year's table of degree-days per city, with the CSV import. */
export function DegreeDaysCard() {
  const { t } = useTranslation();
  const pager = usePagerNames();
  const language = useLanguage();
  const errorText = useErrorText();
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const degreeDays = useDegreeDays(year);
  const upload = useUploadDegreeDays();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [busy, setBusy] = useState(false);
  const [imported, setImported] = useState<DegreeDaysImportResult | null>(null);
  const [importError, setImportError] = useState<unknown>(null);

  // dayjs's own month names (Chromium's Lithuanian short months are numbers).
  const monthNames = useMemo(() => {
    const locale = dayjs().locale(language === 'lt' ? 'lt' : 'en-gb');
    return Array.from({ length: 12 }, (_, i) => {
      const day = locale.month(i).date(15);
      return { long: day.format('MMMM'), short: day.format('MMM') };
    });
  }, [language]);
  const values = useMemo(
    () => new Map((degreeDays.data?.Values ?? []).map((v) => [`${v.CityId}/${v.Month}`, v.Value])),
    [degreeDays.data],
  );

  const importFile = async (file: File) => {
    setBusy(true);
    setImported(null);
    setImportError(null);
    try {
      setImported(await upload(file));
    } catch (error) {
      setImportError(error);
    } finally {
      setBusy(false);
    }
  };

  const columns: ColumnsType<DegreeDayCity> = [
    {
      title: t('degreeDays.city'),
      key: 'city',
      fixed: 'left',
      width: 200,
      render: (_, c) => (
        <>
          {c.Name}
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {[c.Region, t('degreeDays.cityNumber', { id: c.Id })].filter(Boolean).join(' · ')}
          </Typography.Text>
        </>
      ),
    },
    ...monthNames.map((name, i) => {
      const month = `${year}-${String(i + 1).padStart(2, '0')}`;
      return {
        title: <abbr title={name.long}>{name.short}</abbr>,
        key: month,
        align: 'right' as const,
        render: (_: unknown, c: DegreeDayCity) => {
          const value = values.get(`${c.Id}/${month}`) ?? null;
          const shown = value === null ? '–' : value.toLocaleString(language === 'lt' ? 'lt-LT' : 'en-GB');
          // The visible dash first (the name starts with what is seen), then what it means.
          const spoken = value === null ? `${shown} (${t('degreeDays.missing')})` : shown;
          return (
            <Button
              type="link"
              size="small"
              onClick={() => setEditing({ city: c, month, monthName: monthTitle(month, language), value })}
              // The visible value first, then what editing it changes.
              aria-label={t('degreeDays.cellLabel', {
                value: spoken,
                city: cityName(c),
                month: monthTitle(month, language),
              })}
            >
              {shown}
            </Button>
          );
        },
      };
    }),
  ];

  const lineErrors = importError instanceof ApiError ? (importError.errors ?? []) : [];
  return (
    <Card size="small" title={t('degreeDays.title')} style={{ marginTop: 16 }}>
      <Typography.Paragraph type="secondary">{t('degreeDays.help')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label={t('degreeDays.year')}
          value={year}
          onChange={setYear}
          style={{ width: 110 }}
          options={Array.from({ length: 12 }, (_, i) => thisYear + 1 - i).map((y) => ({ value: y, label: String(y) }))}
        />
        <Upload
          accept=".csv,.txt,text/csv"
          showUploadList={false}
          beforeUpload={(file) => {
            void importFile(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined aria-hidden />} loading={busy}>
            {t('degreeDays.import')}
          </Button>
        </Upload>
      </Space>
      {imported && (
        <Alert
          type="success"
          showIcon
          closable
          onClose={() => setImported(null)}
          style={{ marginBottom: 12 }}
          title={t('degreeDays.imported', {
            lines: imported.Lines,
            created: imported.Created,
            updated: imported.Updated,
            unchanged: imported.Unchanged,
          })}
        />
      )}
      {importError != null && (
        <Alert
          role="alert"
          type="error"
          showIcon
          closable
          onClose={() => setImportError(null)}
          style={{ marginBottom: 12 }}
          title={errorText(importError)}
          description={
            lineErrors.length > 0 && (
              <ul className="degree-days-errors">
                {lineErrors.slice(0, 50).map((e) => (
                  <li key={e.field}>{e.message}</li>
                ))}
                {lineErrors.length > 50 && <li>{t('degreeDays.moreErrors', { count: lineErrors.length - 50 })}</li>}
              </ul>
            )
          }
        />
      )}
      {degreeDays.data && degreeDays.data.Cities.length > 0 && degreeDays.data.Values.length === 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('degreeDays.noneForYear', { year, next: year + 1 })}
        />
      )}
      {degreeDays.error && <LoadError error={degreeDays.error} onRetry={() => void degreeDays.refetch()} />}
      <Table<DegreeDayCity>
        size="small"
        rowKey="Id"
        loading={degreeDays.isLoading}
        dataSource={degreeDays.data?.Cities ?? []}
        columns={columns}
        pagination={{ ...pager, pageSize: 20, hideOnSinglePage: true }}
        scroll={{ x: true }}
      />
      {degreeDays.data && degreeDays.data.Values.length < degreeDays.data.Cities.length * 12 && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('degreeDays.missingNote')}
        </Typography.Paragraph>
      )}
      {editing && <EditDialog editing={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}
