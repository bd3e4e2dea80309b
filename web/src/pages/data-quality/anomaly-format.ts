import { type Anomaly, type AnomalyState, RULE_NAMES, type RuleCode } from '@rodmenys/contract';
import type { TFunction } from 'i18next';
import type { ExportColumn, ExportInput } from '../../components/export/types';
import { evidenceText } from './evidence';

export const STATE_COLOR: Record<AnomalyState, string> = { open: 'red', acknowledged: 'gold', resolved: 'green' };

/** A rule's name in the UI language. */
export const ruleNameOf = (code: RuleCode, language: 'lt' | 'en') => RULE_NAMES[code][language];

/** What the export button writes: the listed anomalies, rule and state in words, evidence as text. */
export function anomalyExport(rows: Anomaly[], t: TFunction, language: 'lt' | 'en'): ExportInput<Anomaly> {
  const columns: ExportColumn[] = [
    { key: 'Id', title: 'Id', type: 'number' },
    { key: 'Rule', title: t('anomalies.rule'), type: 'text' },
    { key: 'State', title: t('anomalies.state'), type: 'text' },
    { key: 'Address', title: t('anomalies.building'), type: 'text' },
    { key: 'Flat', title: t('anomalies.flat'), type: 'text' },
    { key: 'DeviceCode', title: t('anomalies.device'), type: 'text' },
    { key: 'Month', title: t('anomalies.month'), type: 'text' },
    { key: 'OpenedAt', title: t('anomalies.openedAt'), type: 'text' },
    { key: 'Comment', title: t('anomalies.comment'), type: 'text' },
    { key: 'Evidence', title: t('anomalies.evidence'), type: 'text' },
  ];
  return {
    sheetName: t('anomalies.title'),
    columns,
    rows,
    value: (row, column) =>
      column.key === 'Rule'
        ? ruleNameOf(row.Rule, language)
        : column.key === 'State'
          ? t(`anomalies.states.${row.State}`)
          : column.key === 'Evidence'
            ? evidenceText(row.Evidence, t)
            : (row as unknown as Record<string, unknown>)[column.key],
  };
}
