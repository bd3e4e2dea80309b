import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ImportPanel } from './import-panel';
import { LocationPanel } from './location-panel';

/** Master data (group 1): register import, and the location tree with its devices. */
export default function MasterDataPage() {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('masterData.title')}
      </Typography.Title>
      <Tabs
        items={[
          { key: 'import', label: t('masterData.tabImport'), children: <ImportPanel /> },
          { key: 'tree', label: t('masterData.tabTree'), children: <LocationPanel /> },
        ]}
      />
    </>
  );
}
