import type { LnsConnectionHealth, LorawanDeviceHealth } from '@rodmenys/contract';
import { Table, type TableColumnsType, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FocusableScroll } from '../../components/focusable-scroll';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';
import { db, dbm } from './day-bars';

type ConnectionGateway = LnsConnectionHealth['Gateways'][number];
type DeviceGateway = LorawanDeviceHealth['Gateways'][number];

/**
 * The gateways that heard a connection's devices (with how many devices) or one device (with its
 * signal at each), under their heading (docs/lorawan.md, "Health"): one table for both drawers,
 * its scrolling part reachable by keyboard.
 */
export function GatewaysTable(
  props: { of: 'connection'; gateways: ConnectionGateway[] } | { of: 'device'; gateways: DeviceGateway[] },
) {
  const { t } = useTranslation();
  const language = useLanguage();
  const title = t('lorawan.health.gateways');
  const first: TableColumnsType<ConnectionGateway | DeviceGateway> = [
    { title: t('lorawan.gateway'), dataIndex: 'GatewayId', render: (g: string) => <code>{g}</code> },
    { title: t('lorawan.lastSeen'), dataIndex: 'LastSeen', render: formatDateTime },
  ];
  const middle: TableColumnsType<ConnectionGateway | DeviceGateway> =
    props.of === 'connection'
      ? [{ title: t('lorawan.health.gatewayDevices'), dataIndex: 'Devices', align: 'right' }]
      : [
          { title: 'RSSI', dataIndex: 'Rssi', align: 'right', render: dbm },
          { title: 'SNR', dataIndex: 'Snr', align: 'right', render: (v: number | null) => db(v, language) },
        ];
  return (
    <>
      <Typography.Title level={3} style={{ fontSize: 16, marginTop: 16 }}>
        {title}
      </Typography.Title>
      <FocusableScroll label={title}>
        <Table<ConnectionGateway | DeviceGateway>
          rowKey="GatewayId"
          size="small"
          pagination={false}
          dataSource={props.gateways}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('lorawan.health.noGateways') }}
          columns={[
            ...first,
            ...middle,
            { title: t('lorawan.health.gatewayUplinks'), dataIndex: 'Uplinks', align: 'right' },
          ]}
        />
      </FocusableScroll>
    </>
  );
}
