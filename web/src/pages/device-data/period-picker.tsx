import { DatePicker } from 'antd';
import { useTranslation } from 'react-i18next';
import { useProviderNow } from '../../session';
import { type Period, periodPresets } from './period';

/** The period: Monday-first calendar in the UI language with the presets of docs/domain.md §10 (days of the provider's clock). */
export function PeriodPicker({ value, onChange }: { value: Period; onChange: (period: Period) => void }) {
  const { t } = useTranslation();
  const now = useProviderNow();
  return (
    <DatePicker.RangePicker
      aria-label={t('deviceData.period.label')}
      value={value}
      allowClear={false}
      format="YYYY-MM-DD"
      presets={periodPresets(now()).map((p) => ({
        label: t(`deviceData.period.${p.key}`),
        value: p.value,
      }))}
      onChange={(range) => {
        if (range?.[0] && range[1]) onChange([range[0], range[1]]);
      }}
    />
  );
}
