import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export default function LocationDataPage() {
  const { t } = useTranslation();
  return (
    <Typography.Title level={3} className="page-title">
      {t('nav.locationData')}
    </Typography.Title>
  );
}
