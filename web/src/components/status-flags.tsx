import type { ReadingRow } from '@rodmenys/contract';
import type { TFunction } from 'i18next';

/**
 * A device's meter status as the readings table and its export show it: the status flags of its
 * last report (POWER_LOW, LEAK…); "OK" only when it reported in time without any; "unknown" when
 * the row is flagged NO_READING or STALE, since a silent device's state is not known.
 */
export type MeterStatus = { kind: 'ok' } | { kind: 'silent' } | { kind: 'flags'; flags: readonly string[] };

export function meterStatus(row: Pick<ReadingRow, 'StatusFlags' | 'Flags'>): MeterStatus {
  if (row.StatusFlags.length > 0) return { kind: 'flags', flags: row.StatusFlags };
  if (row.Flags.includes('NO_READING') || row.Flags.includes('STALE')) return { kind: 'silent' };
  return { kind: 'ok' };
}

const flagName = (flag: string, t: TFunction) => t(`statusFlags.${flag}`, { defaultValue: flag });

/** The meter status as text (the export, the filter): the translated flags, "OK" or "Unknown". */
export function meterStatusText(row: Pick<ReadingRow, 'StatusFlags' | 'Flags'>, t: TFunction): string {
  const status = meterStatus(row);
  if (status.kind === 'ok') return t('deviceStatus.ok');
  if (status.kind === 'silent') return t('deviceStatus.silent');
  return status.flags.map((flag) => flagName(flag, t)).join(', ');
}

/** The meter status as tags. Plain elements, no hooks: a table draws one per row. */
export function statusFlags(row: Pick<ReadingRow, 'StatusFlags' | 'Flags'>, t: TFunction) {
  const status = meterStatus(row);
  if (status.kind === 'ok') return <span className="status-tag status-tag-ok">{t('deviceStatus.ok')}</span>;
  if (status.kind === 'silent')
    return (
      <span className="status-tag status-tag-unknown" title={t('deviceStatus.silentHint')}>
        {t('deviceStatus.silent')}
      </span>
    );
  return status.flags.map((flag) => (
    <span key={flag} className="status-tag status-tag-warning" title={flag}>
      {flagName(flag, t)}
    </span>
  ));
}
