import { CameraOutlined, CheckCircleOutlined, LeftOutlined } from '@ant-design/icons';
import { DECLARATION_VALUE_MAX, type DeclarationReceipt, type DeclaredDevice } from '@rodmenys/contract';
import { Alert, Button, Card, Checkbox, Form, Skeleton, Typography } from 'antd';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/call';
import { uploadDeclarationPhoto, useDeclareReading, useOccupantDeclarations } from '../../api/occupant';
import { LoadError, useErrorText } from '../../components/load-error';
import { NumberInput, useNumberRule } from '../../components/number-field';
import { formatDecimal, monthName } from '../../format';
import { useLanguage } from '../../i18n';
import { formatDay } from './occupant-format';
import { usePageTitle } from './page-title';
import { OCCUPANT_MONTHS } from './paths';

/**
 * Declaring meter readings (docs/declared-readings.md): the window of the month (or when it
 * opens), and per declared device of the flat its previous reading, this month's declarations
 * and a form: the value and optionally a photo. A value far above the usual asks for a
 * confirmation and a photo; the receipt is shown in the card.
 */
export default function OccupantDeclarePage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const data = useOccupantDeclarations();
  usePageTitle(t('occupant.declare.title'));
  const w = data.data?.Window;
  return (
    <>
      <Link to={OCCUPANT_MONTHS}>
        <LeftOutlined aria-hidden /> {t('occupant.statement.back')}
      </Link>
      <Typography.Title level={1} className="page-title">
        {t('occupant.declare.title')}
      </Typography.Title>
      {data.error && <LoadError error={data.error} onRetry={() => void data.refetch()} />}
      {data.isPending && <Skeleton active paragraph={{ rows: 4 }} />}
      {w && (
        <Alert
          type={w.Open ? 'info' : 'warning'}
          showIcon
          title={t(w.Open ? 'occupant.declare.open' : 'occupant.declare.closed', {
            month: monthName(w.Month, language),
            opens: formatDay(w.Opens, language),
            closes: formatDay(w.Closes, language),
          })}
        />
      )}
      {data.data && data.data.Devices.length === 0 && (
        <Typography.Paragraph style={{ marginTop: 16 }}>{t('occupant.declare.none')}</Typography.Paragraph>
      )}
      {data.data?.Devices.map((d) => (
        <DeviceCard key={d.DeviceId} device={d} open={data.data.Window.Open} />
      ))}
    </>
  );
}

const at = (iso: string, language: string) =>
  new Date(iso).toLocaleString(language === 'en' ? 'en-GB' : 'lt-LT', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Vilnius',
  });

function DeviceCard({ device, open }: { device: DeclaredDevice; open: boolean }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useErrorText();
  const declare = useDeclareReading();
  const rule = useNumberRule();
  const [form] = Form.useForm<{ value: number | null; confirm?: boolean }>();
  const photoInput = useRef<HTMLInputElement>(null);
  const [photo, setPhoto] = useState<File | null>(null);
  const [askConfirm, setAskConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const [receipt, setReceipt] = useState<DeclarationReceipt | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const title = t('occupant.declare.meter', {
    type: t(`occupant.declare.types.${device.DeviceTypeId}`, { defaultValue: '' }),
    code: device.DeviceCode,
  });
  const num = (v: number) => formatDecimal(v, language);

  const submit = async ({ value, confirm }: { value: number | null; confirm?: boolean }) => {
    if (value === null) return;
    setError(null);
    setReceipt(null);
    if (device.PlausibleMax !== null && value > device.PlausibleMax && !confirm) {
      setAskConfirm(true);
      return;
    }
    setBusy(true);
    try {
      const photoId = photo ? (await uploadDeclarationPhoto(photo)).PhotoId : undefined;
      const done = await declare.mutateAsync({
        deviceId: device.DeviceId,
        value,
        ...(photoId === undefined ? {} : { photoId }),
        ...(confirm ? { confirm: true } : {}),
      });
      setReceipt(done);
      setAskConfirm(false);
      setPhoto(null);
      if (photoInput.current) photoInput.current.value = '';
      form.resetFields();
    } catch (e) {
      if (e instanceof ApiError && e.code === 'declarationNeedsConfirmation') setAskConfirm(true);
      else setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      title={<h2 className="occupant-card-title">{title}</h2>}
      className="occupant-section"
      style={{ marginTop: 16 }}
    >
      <Typography.Paragraph>
        {device.PreviousValue !== null && device.PreviousAt
          ? t('occupant.declare.previous', {
              value: num(device.PreviousValue),
              day: formatDay(device.PreviousAt.slice(0, 10), language),
            })
          : t('occupant.declare.noPrevious')}
      </Typography.Paragraph>
      {device.Declarations.length > 0 && (
        <>
          <Typography.Paragraph style={{ marginBottom: 4 }}>{t('occupant.declare.declared')}</Typography.Paragraph>
          <ul className="occupant-declarations">
            {device.Declarations.map((x) => (
              <li key={x.Id}>
                {t('occupant.declare.entry', { value: num(x.Value), at: at(x.DeclaredAt, language) })}
                {x.Counts && x.Status !== 'rejected' && ` – ${t('occupant.declare.counts')}`}
                {x.Status === 'doubtful' && ` (${t('occupant.declare.doubtful')})`}
                {x.Status === 'rejected' && ` – ${t('occupant.declare.rejected', { reason: x.Reason ?? '' })}`}
              </li>
            ))}
          </ul>
        </>
      )}
      {open && (
        <Form
          form={form}
          // Its own name: the fields' ids (and so their labels) are unique when the flat has several meters.
          name={`declare-${device.DeviceId}`}
          layout="vertical"
          onFinish={(v) => void submit(v)}
          requiredMark={false}
        >
          <Form.Item
            name="value"
            label={t('occupant.declare.value')}
            extra={t('occupant.declare.valueHelp')}
            rules={[
              { required: true, message: t('occupant.declare.valueRequired') },
              rule({ min: 0, max: DECLARATION_VALUE_MAX }),
            ]}
          >
            <NumberInput inputMode="decimal" style={{ width: '100%', maxWidth: 240 }} />
          </Form.Item>
          {askConfirm && (
            <>
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 12 }}
                title={t('occupant.declare.confirmAsk', { max: num(device.PlausibleMax ?? 0) })}
              />
              <Form.Item name="confirm" valuePropName="checked">
                <Checkbox>{t('occupant.declare.confirm')}</Checkbox>
              </Form.Item>
            </>
          )}
          {/* The browser's own file button speaks the browser's language: a button of ours opens the
              (hidden) file input instead, and says which photo is chosen, in the page's language. */}
          <div className="occupant-photo">
            <span id={`${id}-photo-label`}>{t('occupant.declare.photo')}</span>
            <input
              ref={photoInput}
              type="file"
              accept="image/jpeg,image/png"
              className="visually-hidden"
              tabIndex={-1}
              aria-hidden
              onChange={(e) => setPhoto(e.target.files?.[0] ?? null)}
            />
            <span className="occupant-photo-pick">
              <Button
                id={`${id}-photo`}
                icon={<CameraOutlined aria-hidden />}
                aria-labelledby={`${id}-photo-label ${id}-photo`}
                aria-describedby={`${id}-photo-chosen ${id}-photo-help`}
                onClick={() => photoInput.current?.click()}
              >
                {t('occupant.declare.photoPick')}
              </Button>
              <Typography.Text id={`${id}-photo-chosen`}>
                {photo ? photo.name : t('occupant.declare.photoNone')}
              </Typography.Text>
            </span>
            <Typography.Text type="secondary" id={`${id}-photo-help`}>
              {t('occupant.declare.photoHelp')}
            </Typography.Text>
          </div>
          <Button type="primary" htmlType="submit" loading={busy} style={{ marginTop: 12 }}>
            {t('occupant.declare.submit')}
          </Button>
        </Form>
      )}
      <div role="status" className="occupant-receipt">
        {receipt && (
          <Typography.Paragraph style={{ marginTop: 12, marginBottom: 0 }}>
            <Typography.Text type="success">
              <CheckCircleOutlined aria-hidden />{' '}
              {t('occupant.declare.receipt', {
                code: receipt.DeviceCode,
                value: num(receipt.Declaration.Value),
                at: at(receipt.Declaration.DeclaredAt, language),
              })}
            </Typography.Text>
            {receipt.Emailed && ` ${t('occupant.declare.receiptMailed')}`}
            {receipt.Declaration.Status === 'doubtful' && ` ${t('occupant.declare.receiptDoubtful')}`}
          </Typography.Paragraph>
        )}
        {error && <Alert type="error" showIcon title={error} style={{ marginTop: 12 }} />}
      </div>
    </Card>
  );
}
