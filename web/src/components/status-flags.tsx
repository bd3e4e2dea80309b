import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** A device's latest status flags (POWER_LOW, LEAK…) as tags, translated when known, else as sent. */
export function StatusFlags({ flags }: { flags: readonly string[] }) {
  const { t } = useTranslation();
  if (flags.length === 0) return <Tag color="success">{t('deviceStatus.ok')}</Tag>;
  return (
    <>
      {flags.map((flag) => (
        <Tag key={flag} color="warning" title={flag}>
          {t(`statusFlags.${flag}`, { defaultValue: flag })}
        </Tag>
      ))}
    </>
  );
}
