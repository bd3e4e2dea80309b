import { DECLARATION_VALUE_MAX, type DeclarationDeviceRow } from '@rodmenys/contract';
import { Checkbox, DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useEnterPhoneDeclaration } from '../../../api/declarations-office';
import { FormDialog } from '../../../components/form-dialog';
import { NumberInput, useNumberRule } from '../../../components/number-field';
import { useProviderNow } from '../../../session';

interface Values {
  deviceId: number;
  value: number;
  day: Dayjs;
  callerName: string;
  callerPhone?: string;
  confirm?: boolean;
}

/** A declaration taken by phone: the device, the value, the day it was read, who called (docs/declared-readings.md). */
export function PhoneDialog({ devices, onClose }: { devices: readonly DeclarationDeviceRow[]; onClose: () => void }) {
  const { t } = useTranslation();
  const rule = useNumberRule();
  const now = useProviderNow();
  const [form] = Form.useForm<Values>();
  const save = useEnterPhoneDeclaration();
  return (
    <FormDialog<Values>
      title={t('declarationsOffice.phoneTitle')}
      form={form}
      pending={save.isPending}
      onSave={(v) =>
        save.mutateAsync({
          body: {
            deviceId: v.deviceId,
            value: v.value,
            day: v.day.format('YYYY-MM-DD'),
            callerName: v.callerName.trim(),
            ...(v.callerPhone?.trim() ? { callerPhone: v.callerPhone.trim() } : {}),
            ...(v.confirm ? { confirm: true } : {}),
          },
        })
      }
      onClose={onClose}
      formProps={{ initialValues: { day: now().startOf('day') } }}
    >
      <Form.Item
        name="deviceId"
        label={t('declarationsOffice.device')}
        rules={[{ required: true, message: t('declarationsOffice.deviceRequired') }]}
      >
        <Select
          autoFocus
          showSearch
          optionFilterProp="label"
          options={devices.map((d) => ({
            value: d.DeviceId,
            label: `${d.Address}, ${d.Flat} — ${d.DeviceCode}${d.OccupantName ? ` (${d.OccupantName})` : ''}`,
          }))}
        />
      </Form.Item>
      <Form.Item
        name="value"
        label={t('declarationsOffice.value')}
        rules={[
          { required: true, message: t('declarationsOffice.valueRequired') },
          rule({ min: 0, max: DECLARATION_VALUE_MAX }),
        ]}
      >
        <NumberInput />
      </Form.Item>
      <Form.Item name="day" label={t('declarationsOffice.day')} rules={[{ required: true }]}>
        <DatePicker
          allowClear={false}
          style={{ width: '100%' }}
          disabledDate={(d: Dayjs) => d.isAfter(now(), 'day') || d.isBefore(dayjs('1990-01-01'))}
        />
      </Form.Item>
      <Form.Item
        name="callerName"
        label={t('declarationsOffice.callerName')}
        rules={[{ required: true, whitespace: true, message: t('declarationsOffice.callerNameRequired') }]}
      >
        <Input maxLength={200} autoComplete="off" />
      </Form.Item>
      <Form.Item name="callerPhone" label={t('declarationsOffice.callerPhone')}>
        <Input maxLength={40} autoComplete="off" inputMode="tel" />
      </Form.Item>
      <Form.Item name="confirm" valuePropName="checked" extra={t('declarationsOffice.confirmHelp')}>
        <Checkbox>{t('declarationsOffice.confirm')}</Checkbox>
      </Form.Item>
    </FormDialog>
  );
}
