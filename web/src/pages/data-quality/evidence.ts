import type { TFunction } from 'i18next';
import { formatDateTime } from '../../format';

/**
 * An anomaly's evidence (docs/data-quality.md) as the screen and the export show it: each key by its
 * translated name (`anomalies.evidenceKeys.<key>`), times in the provider's zone, shares as
 * percentages, status flags by their names, a reading as "time — value". Never the raw JSON.
 */
export function evidenceEntries(evidence: Record<string, unknown>, t: TFunction): [label: string, text: string][] {
  return Object.entries(evidence)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => [t(`anomalies.evidenceKeys.${key}`, { defaultValue: key }), valueText(key, value, t)]);
}

/** The evidence as one line: "Label: text; Label: text". */
export function evidenceText(evidence: Record<string, unknown>, t: TFunction): string {
  return evidenceEntries(evidence, t)
    .map(([label, text]) => `${label}: ${text}`)
    .join('; ');
}

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function valueText(key: string, value: unknown, t: TFunction): string {
  if (key === 'flags' && Array.isArray(value))
    return value.map((flag) => t(`statusFlags.${String(flag)}`, { defaultValue: String(flag) })).join(', ');
  // Why a device is due (docs/device-lifetime.md): its verification or its battery.
  if (key === 'reason' && typeof value === 'string') return t(`lifetime.reasons.${value}`, { defaultValue: value });
  // Why a building's heat split does not balance (docs/heat-method.md, "Unbalanced").
  if (key === 'unbalancedReason' && typeof value === 'string')
    return t(`anomalies.unbalancedReasons.${value}`, { defaultValue: value });
  if ((key === 'share' || key === 'ratio') && typeof value === 'number')
    return key === 'share' ? `${(value * 100).toFixed(1)} %` : `× ${value.toFixed(3)}`;
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(3);
  if (typeof value === 'string') return TIME.test(value) ? formatDateTime(value) : value;
  if (Array.isArray(value)) return value.map((v) => valueText(key, v, t)).join(', ');
  if (typeof value === 'object' && value) {
    const reading = value as { time?: unknown; value?: unknown };
    if ('time' in reading && 'value' in reading)
      return `${valueText('time', reading.time, t)} — ${valueText('value', reading.value, t)}`;
    return evidenceText(value as Record<string, unknown>, t);
  }
  return String(value);
}
