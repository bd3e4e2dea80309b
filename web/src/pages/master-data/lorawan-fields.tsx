import { isDevEui, LNS_MAPPING_DECODER, type MasterDevice } from '@rodmenys/contract';
import { Checkbox, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLorawanDecoders } from '../../api/lorawan';

/* A LoRaWAN meter's fields in the device dialogs (docs/lorawan.md): its DevEUI and its decoder. */

/** A DevEUI as the server takes it: trimmed, upper case; empty is none. */
export const devEuiOf = (text: string | undefined): string | null => {
  const eui = text?.trim().toUpperCase() ?? '';
  return eui === '' ? null : eui;
};

/** The DevEUI and decoder fields; in a replacement, the new device's, and whether the old one's moves with it. */
export function LorawanFields({ replacing }: { replacing?: MasterDevice }) {
  const { t, i18n } = useTranslation();
  const decoders = useLorawanDecoders();
  const keep = Form.useWatch('keepDevEui');
  const devEuiRule = {
    validator: async (_: unknown, value: string | undefined) => {
      const eui = value?.trim() ?? '';
      if (eui !== '' && !isDevEui(eui)) throw new Error(t('masterData.device.devEuiInvalid'));
    },
  };
  const decoderOptions = [
    ...(decoders.data ?? []).map((d) => ({
      value: d.Id,
      label: i18n.exists(`lorawan.decoders.${d.Id}`) ? t(`lorawan.decoders.${d.Id}`) : d.Name,
    })),
    { value: LNS_MAPPING_DECODER, label: t('masterData.device.decoderMapping') },
  ];
  return (
    <>
      {replacing?.DevEui && (
        <Form.Item name="keepDevEui" valuePropName="checked" extra={t('masterData.device.keepDevEuiHelp')}>
          <Checkbox>{t('masterData.device.keepDevEui', { devEui: replacing.DevEui })}</Checkbox>
        </Form.Item>
      )}
      {!keep && (
        <Form.Item
          name="devEui"
          label={t(replacing ? 'masterData.device.newDevEui' : 'masterData.device.devEui')}
          extra={t('masterData.device.devEuiHelp')}
          rules={[devEuiRule]}
        >
          <Input maxLength={16} spellCheck={false} autoComplete="off" style={{ fontFamily: 'monospace' }} />
        </Form.Item>
      )}
      <Form.Item name="decoder" label={t('masterData.device.decoder')}>
        <Select
          allowClear
          loading={decoders.isLoading}
          placeholder={t('masterData.device.decoderByModel')}
          options={decoderOptions}
        />
      </Form.Item>
    </>
  );
}
