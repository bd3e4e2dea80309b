import {
  type DataLoadProc,
  DEVICE_MODEL_MAX_LENGTH,
  DEVICE_MODELS,
  type DeviceRole,
  type DeviceRow,
  getDeviceHistory,
  knownDeviceModel,
  listUnmatchedMeters,
  type ReadMethod,
} from '@rodmenys/contract';
import { Alert, AutoComplete, Form, type FormInstance, Input, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useEndpointQuery } from '../../api/query';
import { formatDateTime, formatDecimal, providerNow } from '../../format';
import { useLanguage } from '../../i18n';
import { useProviderNow, useSession } from '../../session';

/* The device dialogs' fields and steps (device-dialogs.tsx): the form's values, the inbox hint, the model field, the last reading. */

/** A moment as the API takes it: local wall-clock time in the provider zone, without an offset. */
export const moment = (d: Dayjs) => d.format('YYYY-MM-DDTHH:mm');

export interface Values {
  description?: string;
  ratingFactor?: number | null;
  counterCode?: string;
  model?: string;
  deviceTypeId?: number;
  deviceCode?: string;
  at?: Dayjs;
  finalReading?: number;
  initialReading?: number;
  newDeviceCode?: string;
  /** The day of its verification or manufacture (docs/device-lifetime.md). */
  verifiedOn?: Dayjs | null;
  readMethod?: ReadMethod | null;
  role?: DeviceRole | null;
  /** A LoRaWAN meter's DevEUI and decoder (docs/lorawan.md); in a replacement, whether the old DevEUI moves. */
  devEui?: string;
  decoder?: string | null;
  keepDevEui?: boolean;
}

/** A day as the API takes it. */
export const day = (d: Dayjs | null | undefined) => (d ? d.format('YYYY-MM-DD') : null);

/**
 * When the serial typed in the add form waits in the unmatched inbox, the
 * installation time becomes the first waiting telegram's time (unless the
 * operator already chose one), so the readings taken in with the device count.
 */
export function InboxHint({ form }: { form: FormInstance<Values> }) {
  const { t } = useTranslation();
  const timeZone = useSession()?.TimeZone;
  const serial = (Form.useWatch('deviceCode', form) ?? '').trim();
  const waiting = useEndpointQuery(
    listUnmatchedMeters,
    { query: { meterId: serial, pageSize: 1 } },
    { enabled: serial.length >= 3 },
  );
  const first = serial.length >= 3 ? waiting.data?.Data[0] : undefined;
  useEffect(() => {
    if (first && !form.isFieldTouched('at')) {
      form.setFieldValue('at', providerNow(timeZone, new Date(first.FirstSeen)).second(0).millisecond(0));
    }
  }, [first, form, timeZone]);
  if (!first) return null;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      message={t('masterData.device.waitingInInbox', { count: first.Count, time: formatDateTime(first.FirstSeen) })}
    />
  );
}

/**
 * The device's model, suggesting the known models of its kind (any text is accepted), with the
 * wmbusmeters driver it maps to in the collector configuration (docs/collectors.md, "Drivers").
 */
export function ModelField({
  form,
  loadProc,
  label,
}: {
  form: FormInstance<Values>;
  loadProc?: DataLoadProc;
  label: string;
}) {
  const { t } = useTranslation();
  const model = (Form.useWatch('model', form) ?? '').trim();
  const known = knownDeviceModel(model);
  const options = DEVICE_MODELS.filter((m) => !loadProc || m.dataLoadProc === loadProc).map((m) => ({
    value: m.name,
    label: `${m.name} (${m.driver})`,
  }));
  return (
    <Form.Item
      name="model"
      label={label}
      extra={
        known ? (
          t('masterData.device.modelDriver', { driver: known.driver })
        ) : model ? (
          <Typography.Text type="warning">{t('masterData.device.modelUnknown')}</Typography.Text>
        ) : null
      }
    >
      <AutoComplete
        options={options}
        filterOption={(input, option) => String(option?.value).toLowerCase().includes(input.trim().toLowerCase())}
      >
        <Input maxLength={DEVICE_MODEL_MAX_LENGTH} />
      </AutoComplete>
    </Form.Item>
  );
}

/**
 * The device's last reading with its unit (the latest at or before now), so the final reading of a
 * removal or replacement can be checked against it.
 */
export function LastReading({ device, unit }: { device: DeviceRow; unit: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const now = useProviderNow();
  const today = now().format('YYYY-MM-DD');
  const history = useEndpointQuery(getDeviceHistory, {
    params: { id: device.DeviceId },
    query: { dateFrom: today, dateTill: today },
  });
  if (!history.data) return null;
  const point = history.data.Points.at(-1);
  const last = point ? { Time: point.LastReadingTime, Value: point.Value } : history.data.Start;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      title={
        last
          ? t('masterData.device.lastReading', {
              value: formatDecimal(last.Value, language),
              unit,
              time: formatDateTime(last.Time),
            })
          : t('masterData.device.noReading')
      }
    />
  );
}

/** The form's field for a field the server names where the two differ. */
