import type { Anomaly } from '@rodmenys/contract';
import { Descriptions, Drawer, Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';
import { ruleNameOf, STATE_COLOR } from './anomaly-format';
import { DeviceDrillDown } from './device-drill-down';
import { evidenceEntries } from './evidence';

/** Where an anomaly is: the building's address, and the flat when it is about one. */
const placeOf = (a: Anomaly, t: TFunction) =>
  a.Flat ? `${a.Address}, ${t('anomalies.flat').toLocaleLowerCase()} ${a.Flat}` : a.Address;

/** One anomaly opened: its state, who handled it, the evidence, and the device's readings and month ends. */
export function AnomalyDrawer({ anomaly, onClose }: { anomaly: Anomaly | null; onClose: () => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Drawer
      open={anomaly !== null}
      width={860}
      destroyOnHidden
      title={anomaly ? `${ruleNameOf(anomaly.Rule, language)} · ${placeOf(anomaly, t)}` : ''}
      onClose={onClose}
      rootClassName="anomaly-drawer"
      afterOpenChange={(open) => {
        // The body scrolls: it takes the focus too, so a keyboard can scroll it (it may hold no button).
        const body = document.querySelector<HTMLElement>('.anomaly-drawer .ant-drawer-body');
        if (open && body) {
          body.tabIndex = 0;
          body.setAttribute('role', 'region');
          body.setAttribute('aria-label', t('anomalies.drawerBody'));
        }
      }}
    >
      {anomaly && (
        <>
          <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('anomalies.state')}>
              <Tag color={STATE_COLOR[anomaly.State]}>{t(`anomalies.states.${anomaly.State}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('anomalies.device')}>{anomaly.DeviceCode ?? ''}</Descriptions.Item>
            <Descriptions.Item label={t('anomalies.openedAt')}>{formatDateTime(anomaly.OpenedAt)}</Descriptions.Item>
            <Descriptions.Item label={t('anomalies.lastSeenAt')}>
              {formatDateTime(anomaly.LastSeenAt)}
            </Descriptions.Item>
            <Descriptions.Item label={t('anomalies.comment')}>{anomaly.Comment ?? ''}</Descriptions.Item>
            <Descriptions.Item label={t('anomalies.acknowledgedBy')}>{anomaly.AcknowledgedBy ?? '–'}</Descriptions.Item>
            <Descriptions.Item label={t('anomalies.evidence')} span={2}>
              <dl className="anomaly-evidence">
                {evidenceEntries(anomaly.Evidence, t).map(([label, text]) => (
                  <div key={label}>
                    <dt>{label}</dt>
                    <dd>{text}</dd>
                  </div>
                ))}
              </dl>
            </Descriptions.Item>
          </Descriptions>
          <DeviceDrillDown anomaly={anomaly} />
        </>
      )}
    </Drawer>
  );
}
