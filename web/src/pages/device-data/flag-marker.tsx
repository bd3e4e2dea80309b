import { ExclamationCircleFilled, SwapOutlined } from '@ant-design/icons';
import type { ReadingFlag, ReadingRow } from '@rodmenys/contract';
import { Tooltip } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format';

/** The reasons a row is flagged, as one translated sentence per flag. */
export function useFlagText() {
  const { t } = useTranslation();
  return useCallback((flag: ReadingFlag) => t(`deviceData.flags.${flag}`), [t]);
}

/**
 * Why a row says NO_READING while LastSeen shows the device reported: its
 * readings before the installation time do not count, or what it sent carried
 * no value (or came after the period). Null when there is nothing to explain.
 */
export function noReadingReason(
  t: (key: string, values?: Record<string, string>) => string,
  flags: readonly ReadingFlag[],
  row: Pick<ReadingRow, 'LastSeen' | 'InstalledAt'> | undefined,
): string | null {
  if (!row?.LastSeen || !flags.includes('NO_READING')) return null;
  const lastSeen = formatDateTime(row.LastSeen);
  if (row.InstalledAt && Date.parse(row.LastSeen) < Date.parse(row.InstalledAt)) {
    return t('deviceData.flags.beforeInstallation', { lastSeen, installed: formatDateTime(row.InstalledAt) });
  }
  return t('deviceData.flags.seenWithoutValue', { lastSeen });
}

/** A red mark on a flagged row; hovering it (or a screen reader) tells why. */
export function FlagMarker({
  flags,
  row,
}: {
  flags: readonly ReadingFlag[];
  row?: Pick<ReadingRow, 'LastSeen' | 'InstalledAt'>;
}) {
  const { t } = useTranslation();
  const flagText = useFlagText();
  if (flags.length === 0) return null;
  const reason = noReadingReason(t, flags, row);
  const text = [...flags.map(flagText), ...(reason ? [reason] : [])].join('; ');
  return (
    <Tooltip title={text}>
      <ExclamationCircleFilled className="reading-flag" role="img" aria-label={text} />
    </Tooltip>
  );
}

/**
 * Marks a meter taken out and replaced inside or before the period, and its
 * successor (docs/domain.md §8): each shows its own consumption, the flat total is both.
 */
export function ReplacementMarker({
  row,
}: {
  row: Pick<ReadingRow, 'ReplacedBy' | 'Replaces' | 'RemovedAt' | 'InstalledAt'>;
}) {
  const { t } = useTranslation();
  const parts: string[] = [];
  if (row.ReplacedBy !== null)
    parts.push(t('deviceData.replacement.replaced', { time: formatDateTime(row.RemovedAt) }));
  if (row.Replaces !== null)
    parts.push(t('deviceData.replacement.replacing', { time: formatDateTime(row.InstalledAt) }));
  if (parts.length === 0) return null;
  const text = parts.join('; ');
  return (
    <Tooltip title={text}>
      <SwapOutlined className="reading-replacement" role="img" aria-label={text} />
    </Tooltip>
  );
}
