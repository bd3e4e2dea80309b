import { ExclamationCircleFilled } from '@ant-design/icons';
import type { ReadingFlag } from '@rodmenys/contract';
import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

/** The reasons a row is flagged, as one translated sentence per flag. */
export function useFlagText() {
  const { t } = useTranslation();
  return (flag: ReadingFlag) => t(`deviceData.flags.${flag}`);
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
