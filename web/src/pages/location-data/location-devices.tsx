import { DEVICES_PAGE_SIZE, type LocationRow, PAGE_SIZES } from '@rodmenys/contract';
import { Collapse, Empty, Space, Spin, Table } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDevicesByLocationId, useDeviceTypes } from '../../api/devices';
import { ExportButton } from '../../components/export';
import { LoadError } from '../../components/load-error';
import { useLanguage } from '../../i18n';
import { addressOf } from './address';
import { deviceExportColumns, deviceTableColumns, withTypeNames } from './device-columns';

/** The devices of the selected location in a collapsible box, with a loader and the deviceInfo export. */
export function LocationDevices({ location }: { location: LocationRow }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const devices = useDevicesByLocationId(location.LocationId);
  const types = useDeviceTypes();
  const rows = useMemo(
    () => withTypeNames(devices.data ?? [], types.data, language),
    [devices.data, types.data, language],
  );
  const title = t('locationData.devicesOf', { address: addressOf(location) });
  return (
    <Collapse
      defaultActiveKey={['devices']}
      style={{ marginTop: 16, background: '#fff' }}
      items={[
        {
          key: 'devices',
          label: title,
          children: devices.isError ? (
            <LoadError error={devices.error} onRetry={() => void devices.refetch()} />
          ) : (
            <Spin spinning={devices.isFetching} description={t('common.loading')}>
              <Space orientation="vertical" style={{ width: '100%' }}>
                <ExportButton
                  fileName="deviceInfo"
                  disabled={!rows.length}
                  getInput={() => ({ sheetName: t('locationData.devices'), columns: deviceExportColumns(t), rows })}
                />
                <Table
                  rowKey="DeviceId"
                  size="small"
                  columns={deviceTableColumns(t)}
                  dataSource={rows}
                  scroll={{ x: 'max-content' }}
                  locale={{ emptyText: <Empty description={t('locationData.noDevices')} /> }}
                  pagination={{
                    defaultPageSize: DEVICES_PAGE_SIZE,
                    pageSizeOptions: PAGE_SIZES.map(String),
                    showSizeChanger: true,
                    showTotal: (total, [from, to]) => t('common.total', { from, to, total }),
                  }}
                />
              </Space>
            </Spin>
          ),
        },
      ]}
    />
  );
}
