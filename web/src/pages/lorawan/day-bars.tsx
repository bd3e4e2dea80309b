import { useTranslation } from 'react-i18next';

/** Uplinks per day as small bars; the numbers are in its spoken name (and in the table beside it). */
export function DayBars({ days }: { days: Array<{ Day: string; Count: number }> }) {
  const { t } = useTranslation();
  const max = Math.max(1, ...days.map((d) => d.Count));
  const total = days.reduce((s, d) => s + d.Count, 0);
  const label = t('lorawan.perDayLabel', { days: days.length, total, last: days.at(-1)?.Count ?? 0 });
  return (
    <svg width={days.length * 6} height={24} role="img" aria-label={label} style={{ display: 'block' }}>
      <title>{label}</title>
      {days.map((d, i) => {
        const h = d.Count === 0 ? 1 : Math.max(2, Math.round((d.Count / max) * 22));
        return (
          <rect key={d.Day} x={i * 6} y={24 - h} width={5} height={h} fill={d.Count === 0 ? '#8c8c8c' : '#1668dc'} />
        );
      })}
    </svg>
  );
}

/** A signal as people read it: dBm for RSSI, dB for SNR, a dash when unknown. */
export const dbm = (v: number | null) => (v === null ? '—' : `${Math.round(v)} dBm`);
export const db = (v: number | null, language: string) =>
  v === null ? '—' : `${v.toLocaleString(language, { maximumFractionDigits: 1 })} dB`;
