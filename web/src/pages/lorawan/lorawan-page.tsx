import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Connections } from './connections';
import { LorawanDevices, LorawanUnmatchedInbox } from './devices';
import { Mappings } from './mappings';

/**
 * Group 1: LoRaWAN meters (docs/lorawan.md): the network-server connections with their keys and
 * health, the devices with a DevEUI and their radio health, unknown DevEUIs, and the field
 * mappings of models no built-in decoder reads.
 */
export default function LorawanPage() {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('nav.lorawan')}
      </Typography.Title>
      <Connections />
      <LorawanDevices />
      <LorawanUnmatchedInbox />
      <Mappings />
    </>
  );
}
