import type { DeviceTypeInSelection, ReadingRow } from '@rodmenys/contract';
import { Button, Modal, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFlaggedDevices } from '../../api/device-data';
import { FocusableScroll } from '../../components/focusable-scroll';
import { LoadError } from '../../components/load-error';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';
import { useFlagText } from './flag-marker';
import { type Period, periodQuery } from './period';

interface FlaggedDevicesProps {
  open: boolean;
  onClose: () => void;
  period: Period;
  /** The selection as GetDevicesData takes it (undefined: the whole scope). */
  locationParentId: string | undefined;
  /** Ticked devices narrow their flats to themselves, as on the screen. */
  keep: (row: ReadingRow) => boolean;
  types: readonly DeviceTypeInSelection[];
  /** Opens a row's device in the readings table: its type picked, the device selected. */
  onShow: (row: ReadingRow) => void;
}

const place = (r: ReadingRow) => [[r.Street, r.Building].filter(Boolean).join(' '), r.Flat].filter(Boolean).join(' – ');

/**
 * Every flagged device of the selection, all device types at once, with the reason
 * (GET /devices/flagged): the silent and the negative ones without picking each type.
 */
export function FlaggedDevicesDialog({
  open,
  onClose,
  period,
  locationParentId,
  keep,
  types,
  onShow,
}: FlaggedDevicesProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const flagText = useFlagText();
  const flagged = useFlaggedDevices(
    { ...periodQuery(period), ...(locationParentId ? { locationParentId } : {}) },
    open,
  );
  const rows = (flagged.data ?? []).filter(keep);
  const typeName = (id: number) => {
    const type = types.find((x) => x.Id === id);
    return type ? (language === 'en' ? type.DeviceTypeNameEn : type.DeviceTypeName) : String(id);
  };
  const title = t('deviceData.flagged.title', {
    from: period[0].format('YYYY-MM-DD'),
    till: period[1].format('YYYY-MM-DD'),
  });
  return (
    <Modal open={open} onCancel={onClose} footer={null} width={1000} title={title} destroyOnHidden>
      {flagged.error ? (
        <LoadError error={flagged.error} onRetry={() => void flagged.refetch()} />
      ) : (
        <>
          <Typography.Paragraph strong>{t('deviceData.flagged.count', { count: rows.length })}</Typography.Paragraph>
          <FocusableScroll label={title}>
            <Table<ReadingRow>
              className="flagged-table"
              size="small"
              rowKey="DeviceId"
              loading={flagged.isFetching}
              dataSource={rows}
              pagination={rows.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
              scroll={{ x: 860, y: 480 }}
              locale={{ emptyText: t('deviceData.flagged.empty') }}
              columns={[
                {
                  key: 'type',
                  title: t('deviceData.flagged.type'),
                  width: 170,
                  render: (_, r) => typeName(r.DeviceTypeId),
                },
                { key: 'place', title: t('deviceData.found.place'), width: 200, render: (_, r) => place(r) },
                { key: 'code', title: t('deviceData.columns.DeviceCode'), dataIndex: 'DeviceCode', width: 120 },
                {
                  key: 'reason',
                  title: t('deviceData.flagged.reason'),
                  render: (_, r) => <span className="reading-flag-text">{r.Flags.map(flagText).join('; ')}</span>,
                },
                {
                  key: 'till',
                  title: t('deviceData.columns.TimeTill'),
                  width: 140,
                  render: (_, r) => formatDateTime(r.TimeTill),
                },
                {
                  key: 'show',
                  title: t('deviceData.flagged.show'),
                  width: 90,
                  render: (_, r) => (
                    <Button
                      size="small"
                      aria-label={t('deviceData.flagged.showDevice', { code: r.DeviceCode })}
                      onClick={() => onShow(r)}
                    >
                      {t('deviceData.flagged.show')}
                    </Button>
                  ),
                },
              ]}
            />
          </FocusableScroll>
        </>
      )}
    </Modal>
  );
}
