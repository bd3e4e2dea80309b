import {
  ANONYMISED,
  CLIENT_CODE_MAX_LENGTH,
  CONSENT_CHANNELS,
  DEVICE_TYPE,
  exportOccupantData,
  MAX_READING,
  type MoveValueRow,
  OCCUPANT_LANGUAGES,
  type OccupancyRow,
  type OccupantBody,
} from '@rodmenys/contract';
import { Alert, App, Button, Card, DatePicker, Form, Input, Select, Space, Table, Tag, Timeline } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../api/call';
import { useDeviceTypes } from '../../api/devices';
import {
  useClearMoveValue,
  useFlatOccupancies,
  useRecordMove,
  useSetMoveValue,
  useUpdateOccupancy,
} from '../../api/occupancies';
import { FormDialog } from '../../components/form-dialog';
import { LoadError, useErrorText } from '../../components/load-error';
import { useDialogClose } from '../../components/modal-host';
import { NumberField } from '../../components/number-field';
import { formatNumber } from '../../format';
import { useLanguage } from '../../i18n';
import { type LetterAddress, OccupantAccessDialog } from './occupant-access';

interface OccupantFields {
  day?: Dayjs;
  moveIn?: Dayjs | null;
  moveOut?: Dayjs | null;
  clientCode: string;
  name: string;
  email?: string;
  phone?: string;
  language?: 'lt' | 'en' | null;
  consentAt?: Dayjs | null;
  consentChannel?: (typeof CONSENT_CHANNELS)[number] | null;
}

/** An allocator counts whole units; a meter's value has three decimals. */
const digitsOf = (typeId: number) => (typeId === DEVICE_TYPE.allocator ? 0 : 3);

const dayText = (d: Dayjs | null | undefined) => (d ? d.format('YYYY-MM-DD') : null);
const dayOf = (s: string | null) => (s ? dayjs(s) : null);

/** The occupant's fields as the API takes them. */
const occupant = (v: OccupantFields): OccupantBody => ({
  clientCode: v.clientCode.trim(),
  name: v.name.trim(),
  email: v.email?.trim() || null,
  phone: v.phone?.trim() || null,
  language: v.language ?? null,
  consentAt: dayText(v.consentAt),
  consentChannel: v.consentChannel ?? null,
});

/**
 * A flat's occupants as a timeline, oldest first (docs/occupancies.md), with "Record a move" (the
 * one there moves out, the new one moves in, one step), each occupancy's edit form, and under each
 * moving day its devices' values with their source, settable by hand with a reason.
 */
export function OccupantsCard({ flatId, address = null }: { flatId: number; address?: LetterAddress | null }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const data = useFlatOccupancies(flatId);
  const [editing, setEditing] = useState<OccupancyRow | 'move' | null>(null);
  const [settingValue, setSettingValue] = useState<MoveValueRow | null>(null);
  const [accessOf, setAccessOf] = useState<OccupancyRow | null>(null);

  // An access request (docs/personal-data.md): everything kept about the occupant, as a file.
  const exportData = async (o: OccupancyRow) => {
    try {
      const code = o.ClientCode.replace(/[^\p{L}\p{N}._-]+/gu, '_');
      await downloadFile(
        exportOccupantData,
        { params: { id: o.Id } },
        t('occupancies.personalData.fileName', { code, interpolation: { escapeValue: false } }),
      );
      message.success(t('occupancies.personalData.exported'));
    } catch (error) {
      message.error(errorText(error));
    }
  };

  if (data.error) return <LoadError error={data.error} onRetry={() => data.refetch()} />;
  const period = (o: OccupancyRow) =>
    `${o.MoveIn ?? t('occupancies.sinceBefore')} – ${o.MoveOut ?? t('occupancies.stillThere')}`;

  const open = (target: OccupancyRow | 'move') => setEditing(target);

  return (
    <Card
      size="small"
      title={t('occupancies.title')}
      loading={!data.data}
      extra={<Button onClick={() => open('move')}>{t('occupancies.recordMove')}</Button>}
    >
      {data.data && (
        <Space direction="vertical" style={{ width: '100%' }}>
          {data.data.Occupancies.length === 0 ? (
            t('occupancies.none')
          ) : (
            <Timeline
              items={data.data.Occupancies.map((o) => ({
                color: o.MoveOut ? 'gray' : 'green',
                children: (
                  <Space wrap>
                    <strong>{period(o)}</strong>
                    <span>
                      {o.ClientCode} {o.Name === ANONYMISED ? '' : o.Name}
                    </span>
                    {o.Name === ANONYMISED && <Tag>{t('occupancies.personalData.removed')}</Tag>}
                    {o.Email && <span>{o.Email}</span>}
                    {o.Phone && <span>{o.Phone}</span>}
                    <Button size="small" type="link" onClick={() => open(o)}>
                      {t('occupancies.edit', { name: o.Name })}
                    </Button>
                    <Button
                      size="small"
                      type="link"
                      // The spoken name starts with the visible text (WCAG 2.5.3); the request it serves is its description.
                      aria-label={t('occupancies.personalData.exportNamed', { name: o.Name, code: o.ClientCode })}
                      title={t('occupancies.personalData.exportOf', { name: o.Name, code: o.ClientCode })}
                      onClick={() => void exportData(o)}
                    >
                      {t('occupancies.personalData.export')}
                    </Button>
                    {o.Name !== ANONYMISED && (
                      <Button
                        size="small"
                        type="link"
                        aria-label={t('occupantAccess.openOf', { name: o.Name })}
                        onClick={() => setAccessOf(o)}
                      >
                        {t('occupantAccess.open')}
                      </Button>
                    )}
                  </Space>
                ),
              }))}
            />
          )}
          {data.data.Moves.map((m) => (
            <MoveValues key={m.Day} day={m.Day} values={m.Values} onSet={setSettingValue} />
          ))}
        </Space>
      )}
      {editing !== null && <OccupantDialog flatId={flatId} editing={editing} onClose={() => setEditing(null)} />}
      <MoveValueDialog value={settingValue} onClose={() => setSettingValue(null)} />
      {accessOf && <OccupantAccessDialog occupancy={accessOf} address={address} onClose={() => setAccessOf(null)} />}
    </Card>
  );
}

/** The occupant's form: "Record a move" (the new occupant from `day`) or an occupancy's edit. */
function OccupantDialog({
  flatId,
  editing,
  onClose,
}: {
  flatId: number;
  editing: OccupancyRow | 'move';
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const recordMove = useRecordMove();
  const updateOccupancy = useUpdateOccupancy();
  const [form] = Form.useForm<OccupantFields>();
  const initialValues = (target: OccupancyRow | 'move'): Partial<OccupantFields> =>
    target === 'move'
      ? {}
      : {
          clientCode: target.ClientCode,
          name: target.Name,
          email: target.Email ?? '',
          phone: target.Phone ?? '',
          language: target.Language,
          moveIn: dayOf(target.MoveIn),
          moveOut: dayOf(target.MoveOut),
          consentAt: dayOf(target.ConsentAt),
          consentChannel: target.ConsentChannel,
        };
  // A refusal stays in the dialog, on the field it names (FormDialog); only success is a message.
  const save = async (v: OccupantFields) => {
    if (editing === 'move') {
      await recordMove.mutateAsync({ params: { id: flatId }, body: { day: dayText(v.day)!, ...occupant(v) } });
      message.success(t('occupancies.moved'));
    } else if (editing) {
      await updateOccupancy.mutateAsync({
        params: { id: editing.Id },
        body: { ...occupant(v), moveIn: dayText(v.moveIn), moveOut: dayText(v.moveOut) },
      });
      message.success(t('masterData.tree.saved'));
    }
  };

  return (
    <FormDialog<OccupantFields>
      title={editing === 'move' ? t('occupancies.recordMove') : t('occupancies.editTitle')}
      form={form}
      pending={recordMove.isPending || updateOccupancy.isPending}
      onSave={save}
      onClose={onClose}
      formProps={{ name: 'occupant', initialValues: initialValues(editing) }}
    >
      {editing === 'move' ? (
        <Form.Item name="day" label={t('occupancies.day')} rules={[{ required: true }]}>
          <DatePicker format="YYYY-MM-DD" style={{ width: '100%' }} />
        </Form.Item>
      ) : (
        <Space>
          <Form.Item name="moveIn" label={t('occupancies.moveIn')}>
            <DatePicker format="YYYY-MM-DD" />
          </Form.Item>
          <Form.Item name="moveOut" label={t('occupancies.moveOut')}>
            <DatePicker format="YYYY-MM-DD" />
          </Form.Item>
        </Space>
      )}
      <Form.Item
        name="clientCode"
        label={t('occupancies.clientCode')}
        rules={[
          { required: true, whitespace: true },
          { max: CLIENT_CODE_MAX_LENGTH, message: t('occupancies.clientCodeTooLong', { max: CLIENT_CODE_MAX_LENGTH }) },
        ]}
      >
        {/* Not cut at the limit without a word: the count shows it and the rule says it. */}
        <Input count={{ show: true, max: CLIENT_CODE_MAX_LENGTH }} />
      </Form.Item>
      <Form.Item name="name" label={t('occupancies.name')} rules={[{ required: true, whitespace: true }]}>
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="email" label={t('occupancies.email')} rules={[{ type: 'email' }]}>
        <Input maxLength={254} />
      </Form.Item>
      <Form.Item name="phone" label={t('occupancies.phone')}>
        <Input maxLength={40} />
      </Form.Item>
      <Form.Item name="language" label={t('occupancies.language')}>
        <Select
          allowClear
          options={OCCUPANT_LANGUAGES.map((l) => ({ value: l, label: t(`occupancies.languages.${l}`) }))}
        />
      </Form.Item>
      <Space>
        <Form.Item name="consentAt" label={t('occupancies.consentAt')}>
          <DatePicker format="YYYY-MM-DD" />
        </Form.Item>
        <Form.Item name="consentChannel" label={t('occupancies.consentChannel')}>
          <Select
            allowClear
            style={{ minWidth: 140 }}
            options={CONSENT_CHANNELS.map((c) => ({ value: c, label: t(`occupancies.channels.${c}`) }))}
          />
        </Form.Item>
      </Space>
    </FormDialog>
  );
}

/** The devices' values at 00:00 of a moving day, with their source. */
function MoveValues({ day, values, onSet }: { day: string; values: MoveValueRow[]; onSet: (v: MoveValueRow) => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const types = useDeviceTypes();
  const typeName = (typeId: number) => {
    const type = types.data?.find((ty) => ty.Id === typeId);
    return type ? (language === 'en' ? type.DeviceTypeNameEn : type.DeviceTypeName) : String(typeId);
  };
  return (
    <Table<MoveValueRow>
      size="small"
      rowKey="DeviceId"
      pagination={false}
      title={() => t('occupancies.valuesTitle', { day })}
      locale={{ emptyText: t('occupancies.noValues') }}
      dataSource={values}
      columns={[
        { title: t('masterData.device.serial'), dataIndex: 'DeviceCode' },
        { title: t('masterData.device.type'), dataIndex: 'DeviceTypeId', render: typeName },
        {
          title: t('anomalies.value'),
          dataIndex: 'Value',
          align: 'right',
          render: (v: number, row) => formatNumber(v, language, digitsOf(row.DeviceTypeId)),
        },
        {
          title: t('anomalies.source'),
          render: (_, v) => (
            <Space size={4} wrap>
              <Tag color={v.Source === 'measured' ? 'green' : v.Source === 'manual' ? 'purple' : 'orange'}>
                {t(`anomalies.sources.${v.Source}`)}
              </Tag>
              {v.Reason && <span>{v.Reason}</span>}
            </Space>
          ),
        },
        {
          title: t('common.actions'),
          render: (_, v) => (
            <Button size="small" type="link" onClick={() => onSet(v)}>
              {t('occupancies.setByHand', { code: v.DeviceCode })}
            </Button>
          ),
        },
      ]}
    />
  );
}

/** Sets (or removes) a moving-day value by hand, with a reason; a refusal is said in the dialog. */
function MoveValueDialog({ value, onClose }: { value: MoveValueRow | null; onClose: () => void }) {
  // One dialog per value (its own closing and form).
  return value ? <MoveValueForm key={`${value.DeviceId}-${value.Day}`} value={value} onClose={onClose} /> : null;
}

function MoveValueForm({ value, onClose }: { value: MoveValueRow; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const set = useSetMoveValue();
  const clear = useClearMoveValue();
  const [form] = Form.useForm<{ value: number; reason: string }>();
  const [clearError, setClearError] = useState<string | null>(null);
  const closing = useDialogClose<boolean>(onClose);
  const params = { deviceId: value.DeviceId, day: value.Day };
  const removeManual = async () => {
    setClearError(null);
    try {
      await clear.mutateAsync({ params });
      message.success(t('masterData.tree.saved'));
      closing.close(true);
    } catch (error) {
      setClearError(errorText(error));
    }
  };
  return (
    <FormDialog<{ value: number; reason: string }>
      closing={closing}
      title={t('occupancies.setTitle', { code: value.DeviceCode, day: value.Day })}
      form={form}
      pending={set.isPending}
      onSave={async (v) => {
        await set.mutateAsync({ params, body: { value: v.value, reason: v.reason.trim() } });
        message.success(t('masterData.tree.saved'));
      }}
      onClose={onClose}
      formProps={{ name: 'moveValue', initialValues: { value: value.Value, reason: '' } }}
      intro={clearError && <Alert type="error" showIcon role="alert" title={clearError} style={{ marginBottom: 12 }} />}
      footer={(buttons) => (
        <>
          {value.Source === 'manual' && (
            <Button danger loading={clear.isPending} onClick={() => void removeManual()}>
              {t('occupancies.clearManual')}
            </Button>
          )}
          {buttons}
        </>
      )}
    >
      <NumberField
        name="value"
        label={t('anomalies.value')}
        rules={[{ required: true }]}
        range={{ min: -MAX_READING, max: MAX_READING, integer: digitsOf(value.DeviceTypeId) === 0 }}
      />
      <Form.Item name="reason" label={t('occupancies.reason')} rules={[{ required: true, whitespace: true }]}>
        <Input.TextArea maxLength={500} />
      </Form.Item>
    </FormDialog>
  );
}
