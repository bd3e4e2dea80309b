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

/** A red mark on a flagged row; hovering it (or a screen reader) tells why. */
export function FlagMarker({ flags }: { flags: readonly ReadingFlag[] }) {
  const flagText = useFlagText();
  if (flags.length === 0) return null;
  const text = flags.map(flagText).join('; ');
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
