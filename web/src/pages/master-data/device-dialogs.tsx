import {
  type DataLoadProc,
  DEVICE_CODE_MAX_LENGTH,
  isDeviceCode,
  LOCATION_LEVEL,
  MAX_READING,
  type MasterDevice,
  RATING_FACTOR_MAX,
  READ_METHODS,
} from '@rodmenys/contract';
import { Alert, App, DatePicker, Form, Input, Modal, Select } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeviceTypes } from '../../api/devices';
import { useAddDevice, useRemoveDevice, useReplaceDevice, useUpdateDevice } from '../../api/master-data';
import { placeRefusal } from '../../components/form-dialog';
import { useErrorText } from '../../components/load-error';
import { STATIC_MODAL, useDialogClose } from '../../components/modal-host';
import { NumberInput, useNumberRule } from '../../components/number-field';
import { useLanguage } from '../../i18n';
import { useProviderNow } from '../../session';
import { day, InboxHint, LastReading, ModelField, moment, type Values } from './device-dialog-fields';
import { RoleField, typeFitsLevel } from './device-role-field';
import { devEuiOf, LorawanFields } from './lorawan-fields';

/** What dialog is open: editing, removing or replacing a device, or adding one to a location. */
export type DeviceDialog =
  | { kind: 'edit' | 'remove' | 'replace'; device: MasterDevice }
  | { kind: 'add'; locationId: number; level: number };

const REFUSAL_FIELDS = {
  installedAt: 'at',
  removedAt: 'at',
  replacedAt: 'at',
  newCounterCode: 'counterCode',
  newModel: 'model',
  newDevEui: 'devEui',
  newDecoder: 'decoder',
} as const;

/** The add / edit / remove / replace dialogs of the location screen. */
export function DeviceDialogs({ dialog, onClose }: { dialog: DeviceDialog | null; onClose: () => void }) {
  return dialog ? <OneDeviceDialog dialog={dialog} onClose={onClose} /> : null;
}

/** One of them, shown while it is wanted; it closes as antd's own dialogs do (`useDialogClose`). */
function OneDeviceDialog({ dialog, onClose }: { dialog: DeviceDialog; onClose: () => void }) {
  const { close, modalProps } = useDialogClose(onClose);
  const { t } = useTranslation();
  const language = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [form] = Form.useForm<Values>();
  const [refusal, setRefusal] = useState<string | null>(null);
  const add = useAddDevice();
  const update = useUpdateDevice();
  const remove = useRemoveDevice();
  const replace = useReplaceDevice();
  const types = useDeviceTypes();
  const now = useProviderNow();
  const busy = add.isPending || update.isPending || remove.isPending || replace.isPending;
  const chosenType = Form.useWatch('deviceTypeId', form);
  const rule = useNumberRule();

  const required = [{ required: true, message: t('masterData.device.required') }];
  // The characters a serial or counter code may have (contract/src/device-codes.ts), checked as the server does.
  const codeRule = {
    validator: async (_: unknown, value: string | undefined) => {
      const code = value?.trim() ?? '';
      if (code !== '' && !isDeviceCode(code)) throw new Error(t('masterData.device.codeCharacters'));
    },
  };
  const serialRules = [...required, codeRule];
  const title =
    dialog.kind === 'add'
      ? t('masterData.tree.addDevice')
      : dialog.kind === 'edit'
        ? `${t('masterData.device.edit')} ${dialog.device.DeviceCode}`
        : t(`masterData.device.${dialog.kind}Title`, { code: dialog.device.DeviceCode });

  const submit = async (v: Values) => {
    setRefusal(null);
    try {
      if (dialog.kind === 'add') {
        await add.mutateAsync({
          body: {
            locationId: dialog.locationId,
            deviceTypeId: v.deviceTypeId!,
            deviceCode: v.deviceCode!.trim(),
            counterCode: v.counterCode?.trim() || null,
            description: v.description?.trim() || null,
            ratingFactor: v.ratingFactor ?? null,
            model: v.model?.trim() || null,
            installedAt: moment(v.at!),
            verifiedOn: day(v.verifiedOn),
            readMethod: v.readMethod ?? null,
            role: v.role ?? null,
            devEui: devEuiOf(v.devEui),
            decoder: v.decoder ?? null,
            ...(v.initialReading == null ? {} : { initialReading: v.initialReading }),
          },
        });
      } else if (dialog.kind === 'edit') {
        await update.mutateAsync({
          params: { id: dialog.device.DeviceId },
          body: {
            description: v.description?.trim() || null,
            ratingFactor: v.ratingFactor ?? null,
            counterCode: v.counterCode?.trim() || null,
            model: v.model?.trim() || null,
            verifiedOn: day(v.verifiedOn),
            readMethod: v.readMethod ?? null,
            devEui: devEuiOf(v.devEui),
            decoder: v.decoder ?? null,
          },
        });
      } else if (dialog.kind === 'remove') {
        await remove.mutateAsync({
          params: { id: dialog.device.DeviceId },
          body: { removedAt: moment(v.at!), finalReading: v.finalReading! },
        });
      } else {
        await replace.mutateAsync({
          params: { id: dialog.device.DeviceId },
          body: {
            replacedAt: moment(v.at!),
            finalReading: v.finalReading!,
            newDeviceCode: v.newDeviceCode!.trim(),
            initialReading: v.initialReading!,
            newCounterCode: v.counterCode?.trim() || null,
            newModel: v.model?.trim() || null,
            ...(v.verifiedOn ? { newVerifiedOn: day(v.verifiedOn)! } : {}),
            ...(v.readMethod ? { newReadMethod: v.readMethod } : {}),
            ...(v.keepDevEui ? { keepDevEui: true } : { newDevEui: devEuiOf(v.devEui) }),
            ...(v.decoder ? { newDecoder: v.decoder } : {}),
          },
        });
      }
      message.success(t('masterData.device.done'));
      close();
    } catch (error) {
      // Said in the dialog, on the field it names (the server's names where the form's differ).
      setRefusal(placeRefusal(form, error, errorText(error), REFUSAL_FIELDS));
    }
  };

  const device = dialog.kind === 'add' ? null : dialog.device;
  const typeOptions = (types.data ?? [])
    // A building heat meter (and a hot-water meter in its role) goes on a building, every other type on a flat.
    .filter((ty) => typeFitsLevel(ty.Id, dialog.kind === 'add' ? dialog.level : LOCATION_LEVEL.flat))
    .map((ty) => ({ value: ty.Id, label: language === 'en' ? ty.DeviceTypeNameEn : ty.DeviceTypeName }));
  // The unit of the readings: the device's, or in the add form the chosen type's.
  const loadProc: DataLoadProc | undefined =
    device?.DataLoadProc ?? types.data?.find((ty) => ty.Id === chosenType)?.DataLoadProc;
  const unit = loadProc ? t(`deviceData.units.${loadProc}`) : null;
  const readingLabel = (key: 'finalReading' | 'initialReading') =>
    unit
      ? t('masterData.device.withUnit', { label: t(`masterData.device.${key}`), unit })
      : t(`masterData.device.${key}`);
  const number = <NumberInput />;
  // A reading is 0 to MAX_READING; a rating factor above 0 (the server refuses 0 at the field).
  const reading = rule({ min: 0, max: MAX_READING });

  return (
    <Modal
      {...modalProps}
      destroyOnHidden
      {...STATIC_MODAL}
      title={title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onCancel={() => close()}
      onOk={() => form.submit()}
    >
      {refusal && <Alert type="error" showIcon role="alert" title={refusal} style={{ marginBottom: 12 }} />}
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          description: device?.DeviceDescription ?? undefined,
          ratingFactor: device?.RatingFactor ?? undefined,
          counterCode: dialog.kind === 'edit' ? (device?.CounterCode ?? undefined) : undefined,
          // A replacement is usually the same model: the old device's, to change if not.
          model: device?.Model ?? undefined,
          verifiedOn: dialog.kind === 'edit' && device?.VerifiedOn ? dayjs(device.VerifiedOn) : undefined,
          readMethod: device?.ReadMethod ?? undefined,
          devEui: dialog.kind === 'edit' ? (device?.DevEui ?? undefined) : undefined,
          decoder: device?.Decoder ?? undefined,
          at: now().second(0).millisecond(0),
        }}
      >
        {dialog.kind === 'add' && (
          <>
            <Form.Item name="deviceTypeId" label={t('masterData.device.type')} rules={required}>
              <Select options={typeOptions} />
            </Form.Item>
            <RoleField typeId={chosenType} level={dialog.level} />
            <Form.Item name="deviceCode" label={t('masterData.device.serial')} rules={serialRules}>
              <Input maxLength={DEVICE_CODE_MAX_LENGTH} />
            </Form.Item>
            <InboxHint form={form} />
          </>
        )}
        {(dialog.kind === 'add' || dialog.kind === 'edit') && (
          <>
            <Form.Item name="description" label={t('masterData.device.description')}>
              <Input maxLength={200} />
            </Form.Item>
            <Form.Item
              name="ratingFactor"
              label={t('masterData.device.ratingFactor')}
              rules={[rule({ min: 0, max: RATING_FACTOR_MAX })]}
            >
              {number}
            </Form.Item>
          </>
        )}
        {dialog.kind !== 'edit' && (
          <Form.Item
            name="at"
            label={t(
              dialog.kind === 'add'
                ? 'masterData.device.installedAt'
                : dialog.kind === 'remove'
                  ? 'masterData.device.removedAt'
                  : 'masterData.device.replacedAt',
            )}
            rules={required}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
          </Form.Item>
        )}
        {device && unit && (dialog.kind === 'remove' || dialog.kind === 'replace') && (
          <LastReading device={device} unit={unit} />
        )}
        {(dialog.kind === 'remove' || dialog.kind === 'replace') && (
          <Form.Item name="finalReading" label={readingLabel('finalReading')} rules={[...required, reading]}>
            {number}
          </Form.Item>
        )}
        {dialog.kind === 'replace' && (
          <Form.Item name="newDeviceCode" label={t('masterData.device.newSerial')} rules={serialRules}>
            <Input maxLength={64} />
          </Form.Item>
        )}
        {(dialog.kind === 'add' || dialog.kind === 'replace') && (
          <Form.Item
            name="initialReading"
            label={readingLabel('initialReading')}
            rules={dialog.kind === 'replace' ? [...required, reading] : [reading]}
          >
            {number}
          </Form.Item>
        )}
        {dialog.kind !== 'remove' && (
          <ModelField
            form={form}
            loadProc={loadProc}
            label={t(dialog.kind === 'replace' ? 'masterData.device.newModel' : 'masterData.device.model')}
          />
        )}
        {dialog.kind !== 'remove' && (
          <Form.Item
            name="counterCode"
            label={t(dialog.kind === 'replace' ? 'masterData.device.newCounterCode' : 'masterData.device.counterCode')}
            rules={[codeRule]}
          >
            <Input maxLength={DEVICE_CODE_MAX_LENGTH} />
          </Form.Item>
        )}
        {dialog.kind !== 'remove' && (
          <>
            <Form.Item
              name="verifiedOn"
              label={t('masterData.device.verifiedOn')}
              extra={t(
                dialog.kind === 'replace' ? 'masterData.device.verifiedOnNewHelp' : 'masterData.device.verifiedOnHelp',
              )}
            >
              <DatePicker format="YYYY-MM-DD" style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="readMethod" label={t('masterData.device.readMethod')}>
              <Select
                allowClear
                placeholder={t('masterData.device.readMethodNone')}
                options={READ_METHODS.map((m) => ({ value: m, label: t(`masterData.device.readMethods.${m}`) }))}
              />
            </Form.Item>
            <LorawanFields replacing={dialog.kind === 'replace' ? dialog.device : undefined} />
          </>
        )}
      </Form>
    </Modal>
  );
}
