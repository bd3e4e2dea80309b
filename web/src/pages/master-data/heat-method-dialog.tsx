import {
  type BuildingHeatMethods,
  type HeatMethodBody,
  type HeatMethodVersion,
  HOT_WATER_HEAT,
  type HotWaterHeatMode,
  MAX_CIRCULATION_KWH,
} from '@rodmenys/contract';
import { Alert, App, Button, DatePicker, Form, Modal, Select, Space, Switch, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/call';
import { useSetBuildingHeatMethod } from '../../api/heat-methods';
import { placeRefusal } from '../../components/form-dialog';
import { useErrorText } from '../../components/load-error';
import { STATIC_MODAL, useDialogClose } from '../../components/modal-host';
import { NumberInput, type NumberInputProps, useNumberRule } from '../../components/number-field';
import { formatDecimal } from '../../format';
import { useLanguage } from '../../i18n';

/*
 * The dialog that sets a building's heat method from a month on (docs/heat-method.md, "Setting a
 * building's method"): the way hot water and circulation are found with their norms, the heating
 * season's periods, the shares, k_min, and each flat's position factor and circulation class.
 */

/** The mode chosen in the form: a method, or none (the plain rule). */
type Mode = HotWaterHeatMode | 'plainQrad';

interface Values {
  month: Dayjs;
  HotWaterHeat: Mode;
  KwhPerM3?: number | null;
  CirculationNorm?: number | null;
  HotWaterTemperature?: number | null;
  DistrictHeat?: boolean;
  Seasons: { From?: Dayjs | null; To?: Dayjs | null }[];
  /** In % (the API takes a fraction). */
  CommonShare?: number | null;
  /** In % (the API takes a fraction). */
  BaseShare?: number | null;
  MinimumShare?: number | null;
  Flats: { FlatId: number; PositionFactor?: number | null; CirculationClass?: number | null }[];
}

/** The design's defaults where a building has no version yet: q 51 warms 1 m³ from +8 to +52 °C; t_w 60 °C. */
const DEFAULTS = { KwhPerM3: 51, HotWaterTemperature: 60, DistrictHeat: true } as const;
const day = (d: Dayjs) => d.format('YYYY-MM-DD');
const percent = (fraction: number) => Number((fraction * 100).toFixed(4));
const fraction = (pct: number | null | undefined) => Number(((pct ?? 0) / 100).toFixed(6));

/** The form's values for a version (or the defaults), every flat of the building listed in its order. */
function initialValues(building: BuildingHeatMethods, version: HeatMethodVersion | null, month: string): Values {
  const own = new Map((version?.Flats ?? []).map((f) => [f.FlatId, f]));
  return {
    month: dayjs(`${month}-01`),
    HotWaterHeat: version ? (version.HotWaterHeat ?? 'plainQrad') : 'norm',
    KwhPerM3: version?.KwhPerM3 ?? DEFAULTS.KwhPerM3,
    // No circulation norm is invented for a provider: a new method asks for it.
    CirculationNorm: version?.CirculationNorm ?? null,
    HotWaterTemperature: version?.HotWaterTemperature ?? DEFAULTS.HotWaterTemperature,
    DistrictHeat: version?.DistrictHeat ?? DEFAULTS.DistrictHeat,
    Seasons: (version?.Seasons ?? []).map((s) => ({ From: dayjs(s.From), To: s.To ? dayjs(s.To) : null })),
    CommonShare: percent(version?.CommonShare ?? 0),
    BaseShare: percent(version?.BaseShare ?? 0),
    MinimumShare: version?.MinimumShare ?? 0,
    Flats: building.Flats.map((f) => ({
      FlatId: f.FlatId,
      PositionFactor: own.get(f.FlatId)?.PositionFactor ?? 1,
      CirculationClass: own.get(f.FlatId)?.CirculationClass ?? null,
    })),
  };
}

/** The API's body from the form's values (every value of the store, shown or not). */
function bodyOf(v: Values): HeatMethodBody {
  return {
    HotWaterHeat: v.HotWaterHeat === 'plainQrad' ? null : v.HotWaterHeat,
    KwhPerM3: v.KwhPerM3 ?? DEFAULTS.KwhPerM3,
    CirculationNorm: v.CirculationNorm ?? 0,
    HotWaterTemperature: v.HotWaterTemperature ?? DEFAULTS.HotWaterTemperature,
    DistrictHeat: v.DistrictHeat ?? DEFAULTS.DistrictHeat,
    Seasons: (v.Seasons ?? []).flatMap((s) => (s.From ? [{ From: day(s.From), To: s.To ? day(s.To) : null }] : [])),
    CommonShare: fraction(v.CommonShare),
    BaseShare: fraction(v.BaseShare),
    MinimumShare: v.MinimumShare ?? 0,
    Flats: (v.Flats ?? []).map((f) => ({
      FlatId: f.FlatId,
      PositionFactor: f.PositionFactor ?? 1,
      CirculationClass: f.CirculationClass ?? null,
    })),
  };
}

export interface HeatMethodEdit {
  /** The version to start from (null: the defaults). */
  version: HeatMethodVersion | null;
  /** The month the new version is valid from. */
  month: string;
}

/** Sets the building's method from a month on; the server's refusals are said at the fields they name. */
export function HeatMethodDialog({
  building,
  edit,
  onClose,
}: {
  building: BuildingHeatMethods;
  edit: HeatMethodEdit;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [form] = Form.useForm<Values>();
  const set = useSetBuildingHeatMethod();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [seasonsRefusal, setSeasonsRefusal] = useState<string | null>(null);
  const [initial] = useState(() => initialValues(building, edit.version, edit.month));
  const { close, modalProps } = useDialogClose(onClose);
  const mode: Mode = Form.useWatch('HotWaterHeat', form) ?? initial.HotWaterHeat;
  const required = [{ required: true, message: t('masterData.heatMethod.required') }];
  // A value outside its range is refused at its field, as typed (components/number-field.tsx).
  const rule = useNumberRule();
  const inRange = (min: number, max: number) => [...required, rule({ min, max })];
  const number = (extra: NumberInputProps = {}) => <NumberInput {...extra} />;

  const submit = async () => {
    setRefusal(null);
    setSeasonsRefusal(null);
    const v = form.getFieldsValue(true) as Values;
    try {
      await set.mutateAsync({ params: { id: building.BuildingId, month: v.month.format('YYYY-MM') }, body: bodyOf(v) });
      message.success(t('masterData.heatMethod.saved'));
      close();
    } catch (error) {
      // A refusal of the season as a whole (overlapping periods) is said under the periods; the rest at its field.
      const errors = error instanceof ApiError ? (error.errors ?? []) : [];
      const seasons = errors.filter((e) => e.field === 'Seasons');
      if (seasons.length && error instanceof ApiError) {
        setSeasonsRefusal(seasons.map((e) => e.message).join(' '));
        const rest = errors.filter((e) => e.field !== 'Seasons');
        if (rest.length) {
          const other = new ApiError(error.status, error.message, rest, error.retryAfter, error.code);
          setRefusal(placeRefusal(form, other, errorText(other)));
        }
        return;
      }
      setRefusal(placeRefusal(form, error, errorText(error)));
    }
  };

  const areaOf = new Map(building.Flats.map((f) => [f.FlatId, f]));
  return (
    <Modal
      {...modalProps}
      destroyOnHidden
      {...STATIC_MODAL}
      width={880}
      title={t('masterData.heatMethod.dialogTitle', { building: building.Path })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={set.isPending}
      onCancel={() => close()}
      onOk={() => form.submit()}
    >
      {refusal && <Alert type="error" showIcon role="alert" title={refusal} style={{ marginBottom: 12 }} />}
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={() => void submit()}
        onValuesChange={() => {
          setRefusal(null);
          setSeasonsRefusal(null);
        }}
      >
        <Space wrap size="middle" align="start">
          <Form.Item name="month" label={t('masterData.heatMethod.validFrom')} rules={required}>
            <DatePicker picker="month" format="YYYY-MM" allowClear={false} />
          </Form.Item>
          <Form.Item name="HotWaterHeat" label={t('fields.HotWaterHeat')} rules={required}>
            <Select
              style={{ minWidth: 320 }}
              options={(['plainQrad', ...HOT_WATER_HEAT] as const).map((m) => ({
                value: m,
                label: t(`masterData.heatMethod.modes.${m}`),
              }))}
            />
          </Form.Item>
        </Space>
        {mode === 'plainQrad' ? (
          <Typography.Paragraph type="secondary">{t('masterData.heatMethod.plainHelp')}</Typography.Paragraph>
        ) : (
          <>
            <Space wrap size="middle" align="start">
              {(mode === 'norm' || mode === 'meter') && (
                <Form.Item name="KwhPerM3" label={t('masterData.heatMethod.kwhPerM3')} rules={inRange(0, 200)}>
                  {number()}
                </Form.Item>
              )}
              {mode === 'norm' && (
                <Form.Item
                  name="CirculationNorm"
                  label={t('masterData.heatMethod.circulationNorm')}
                  extra={t('masterData.heatMethod.circulationHelp')}
                  rules={inRange(0, MAX_CIRCULATION_KWH)}
                >
                  {number()}
                </Form.Item>
              )}
              {mode === 'formulaDE' && (
                <>
                  <Form.Item
                    name="HotWaterTemperature"
                    label={t('masterData.heatMethod.temperature')}
                    rules={inRange(10, 100)}
                  >
                    {number()}
                  </Form.Item>
                  <Form.Item name="DistrictHeat" label={t('fields.DistrictHeat')} valuePropName="checked">
                    <Switch />
                  </Form.Item>
                </>
              )}
            </Space>
            <Space wrap size="middle" align="start">
              <Form.Item name="CommonShare" label={t('masterData.heatMethod.commonShare')} rules={inRange(0, 50)}>
                {number()}
              </Form.Item>
              <Form.Item name="BaseShare" label={t('masterData.heatMethod.baseShare')} rules={inRange(0, 50)}>
                {number()}
              </Form.Item>
              <Form.Item
                name="MinimumShare"
                label={t('masterData.heatMethod.minimumShare')}
                extra={t('masterData.heatMethod.minimumHelp')}
                rules={inRange(0, 1)}
              >
                {number({ step: 0.05 })}
              </Form.Item>
            </Space>
            <Typography.Title level={5} id="heat-method-seasons">
              {t('fields.Seasons')}
            </Typography.Title>
            <Form.List name="Seasons">
              {(fields, { add, remove }) => (
                <>
                  {fields.map((field, i) => (
                    <Space key={field.key} wrap align="start">
                      <Form.Item
                        name={[field.name, 'From']}
                        label={t('masterData.heatMethod.seasonFrom', { n: i + 1 })}
                        rules={required}
                      >
                        <DatePicker format="YYYY-MM-DD" />
                      </Form.Item>
                      <Form.Item
                        name={[field.name, 'To']}
                        label={t('masterData.heatMethod.seasonTo', { n: i + 1 })}
                        extra={t('masterData.heatMethod.seasonOpen')}
                      >
                        <DatePicker format="YYYY-MM-DD" />
                      </Form.Item>
                      <Form.Item label={<span className="visually-hidden">{t('common.actions')}</span>}>
                        <Button onClick={() => remove(field.name)}>
                          {t('masterData.heatMethod.seasonRemove', { n: i + 1 })}
                        </Button>
                      </Form.Item>
                    </Space>
                  ))}
                  {fields.length === 0 && (
                    <Typography.Paragraph type="secondary">{t('masterData.heatMethod.noSeason')}</Typography.Paragraph>
                  )}
                  {seasonsRefusal && (
                    <Typography.Paragraph type="danger" role="alert" id="heat-method-seasons-error">
                      {seasonsRefusal}
                    </Typography.Paragraph>
                  )}
                  <Button onClick={() => add({ From: null, To: null })} style={{ marginBottom: 16 }}>
                    {t('masterData.heatMethod.seasonAdd')}
                  </Button>
                </>
              )}
            </Form.List>
            <Typography.Title level={5}>{t('fields.Flats')}</Typography.Title>
            <Typography.Paragraph type="secondary">{t('masterData.heatMethod.flatsHelp')}</Typography.Paragraph>
            <Form.List name="Flats">
              {(fields) => (
                <Table
                  size="small"
                  rowKey="key"
                  dataSource={fields}
                  pagination={fields.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
                  columns={[
                    {
                      title: t('statements.flat'),
                      render: (_, field) => areaOf.get(form.getFieldValue(['Flats', field.name, 'FlatId']))?.Flat,
                    },
                    {
                      title: t('statements.areaM2'),
                      align: 'right',
                      render: (_, field) =>
                        formatDecimal(
                          areaOf.get(form.getFieldValue(['Flats', field.name, 'FlatId']))?.AreaM2,
                          language,
                        ),
                    },
                    {
                      title: t('fields.PositionFactor'),
                      render: (_, field) => (
                        <Form.Item
                          name={[field.name, 'PositionFactor']}
                          style={{ marginBottom: 0 }}
                          rules={[rule({ min: 0.1, max: 10 })]}
                        >
                          {number({
                            'aria-label': t('masterData.heatMethod.flatField', {
                              field: t('fields.PositionFactor'),
                              flat: areaOf.get(form.getFieldValue(['Flats', field.name, 'FlatId']))?.Flat,
                            }),
                          })}
                        </Form.Item>
                      ),
                    },
                    ...(mode === 'norm'
                      ? [
                          {
                            title: t('fields.CirculationClass'),
                            render: (_: unknown, field: { name: number }) => (
                              <Form.Item
                                name={[field.name, 'CirculationClass']}
                                style={{ marginBottom: 0 }}
                                rules={[rule({ min: 0, max: MAX_CIRCULATION_KWH })]}
                              >
                                {number({
                                  placeholder: t('masterData.heatMethod.byNorm'),
                                  'aria-label': t('masterData.heatMethod.flatField', {
                                    field: t('fields.CirculationClass'),
                                    flat: areaOf.get(form.getFieldValue(['Flats', field.name, 'FlatId']))?.Flat,
                                  }),
                                })}
                              </Form.Item>
                            ),
                          },
                        ]
                      : []),
                  ]}
                />
              )}
            </Form.List>
          </>
        )}
      </Form>
    </Modal>
  );
}
