import { Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The device data (readings) screen: built by its own issue (4) on this shell. */
export default function DeviceDataPage() {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Title level={3} className="page-title">
        {t('nav.deviceData')}
      </Typography.Title>
      <Empty />
    </>
  );
}
