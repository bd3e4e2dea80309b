import type { TFunction } from 'i18next';

/**
 * A device's latest status flags (POWER_LOW, LEAK…) as tags, translated when known, else as sent;
 * one "OK" tag when there are none. Plain elements, no hooks: a table draws one per row.
 */
export function statusFlags(flags: readonly string[], t: TFunction) {
  if (flags.length === 0) return <span className="status-tag status-tag-ok">{t('deviceStatus.ok')}</span>;
  return flags.map((flag) => (
    <span key={flag} className="status-tag status-tag-warning" title={flag}>
      {t(`statusFlags.${flag}`, { defaultValue: flag })}
    </span>
  ));
}
