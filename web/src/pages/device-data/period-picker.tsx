import { DatePicker, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useProviderNow } from '../../session';
import { type Period, periodPresets } from './period';

/**
 * The period: Monday-first calendar in the UI language with the presets of docs/domain.md §10 (days of the
 * provider's clock). The presets are also a select beside it: the calendar's own preset list is
 * reachable only with a mouse, the select with the keyboard too.
 */
export function PeriodPicker({ value, onChange }: { value: Period; onChange: (period: Period) => void }) {
  const { t } = useTranslation();
  const now = useProviderNow();
  const presets = periodPresets(now()).map((p) => ({
    key: p.key,
    label: t(`deviceData.period.${p.key}`),
    value: p.value,
  }));
  const current = presets.find((p) => p.value[0].isSame(value[0], 'day') && p.value[1].isSame(value[1], 'day'));
  return (
    <Space wrap size={8}>
      <Select<string>
        aria-label={t('deviceData.period.preset')}
        placeholder={t('deviceData.period.preset')}
        style={{ minWidth: 170 }}
        value={current?.key}
        options={presets.map((p) => ({ value: p.key, label: p.label }))}
        onChange={(key) => {
          const preset = presets.find((p) => p.key === key);
          if (preset) onChange(preset.value);
        }}
      />
      <DatePicker.RangePicker
        aria-label={t('deviceData.period.label')}
        value={value}
        allowClear={false}
        format="YYYY-MM-DD"
        presets={presets.map((p) => ({ label: p.label, value: p.value }))}
        onChange={(range) => {
          if (range?.[0] && range[1]) onChange([range[0], range[1]]);
        }}
      />
    </Space>
  );
}
