import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { DEVICES_PAGE_SIZE, type UserObjectRow, type VisibleLocation } from '@rodmenys/contract';
import { App, Button, Card, Empty, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserLocationRights } from '../../api/devices';
import { useUserObjects } from '../../api/location-data';
import { FocusableScroll } from '../../components/focusable-scroll';
import { LoadError } from '../../components/load-error';
import { useServerPaging } from '../../components/pagination';
import { useChosenObject, useSession } from '../../session';
import { setChosenObject } from '../../storage';

const codeName = (code: string | null, name: string | null) => [code, name].filter(Boolean).join(' · ');

/** My objects: the chosen object, the selectable locations, and the flats of the chosen object (or all). */
export default function MyObjectsPage() {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const me = useSession()!;
  const chosen = useChosenObject();
  const locations = useUserLocationRights(me.Id);
  const { page, pageSize, setPage, tableProps } = useServerPaging(DEVICES_PAGE_SIZE);
  const objects = useUserObjects({ page, pageSize, locationId: chosen?.id });

  const choose = (location: VisibleLocation) => {
    setChosenObject({ path: location.VisibleLocationPath, id: location.VisibleLocationId });
    setPage(1);
    notification.success({ title: t('myObjects.selected'), description: location.VisibleLocationPath });
  };
  const clear = () => {
    setChosenObject(null);
    setPage(1);
  };

  const locationColumns: TableColumnsType<VisibleLocation> = [
    {
      title: t('myObjects.location'),
      dataIndex: 'VisibleLocationPath',
      render: (path: string, row) =>
        row.VisibleLocationId === 0 ? <Typography.Text strong>{path}</Typography.Text> : path,
    },
    {
      key: 'select',
      width: 140,
      align: 'right',
      render: (_, row) =>
        row.VisibleLocationId !== 0 &&
        (chosen?.id === row.VisibleLocationId ? (
          <Typography.Text type="success">
            <CheckOutlined /> {t('myObjects.chosenMark')}
          </Typography.Text>
        ) : (
          <Button
            size="small"
            onClick={() => choose(row)}
            aria-label={`${t('myObjects.select')}: ${row.VisibleLocationPath}`}
          >
            {t('myObjects.select')}
          </Button>
        )),
    },
  ];

  const objectColumns: TableColumnsType<UserObjectRow> = [
    { title: t('myObjects.flat'), dataIndex: 'Flat', render: (flat: string | null, row) => flat ?? row.Address },
    { title: t('myObjects.address'), dataIndex: 'Address', responsive: ['lg'] },
    { title: t('myObjects.object'), key: 'object', render: (_, r) => codeName(r.ObjectCode, r.ObjectName) },
    {
      title: t('myObjects.objectType'),
      key: 'objectType',
      responsive: ['xl'],
      render: (_, r) => codeName(r.ObjectTypeCode, r.ObjectTypeName),
    },
    { title: t('myObjects.client'), key: 'client', render: (_, r) => codeName(r.ClientCode, r.ClientName) },
    {
      title: t('myObjects.clientType'),
      key: 'clientType',
      responsive: ['xl'],
      render: (_, r) => codeName(r.ClientTypeCode, r.ClientTypeName),
    },
    {
      title: t('myObjects.category'),
      key: 'category',
      responsive: ['md'],
      render: (_, r) =>
        [codeName(r.ObjectCategoryCode, r.ObjectCategoryName), codeName(r.ClientCategoryCode, r.ClientCategoryName)]
          .filter(Boolean)
          .join(' / '),
    },
  ];

  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('myObjects.title')}
      </Typography.Title>
      <Card size="small" style={{ marginBottom: 16 }}>
        {chosen ? (
          <Space wrap>
            <Typography.Text type="secondary">{t('myObjects.chosen')}:</Typography.Text>
            <Typography.Text strong>{chosen.path}</Typography.Text>
            <Button size="small" icon={<CloseOutlined />} onClick={clear}>
              {t('myObjects.cancelChoice')}
            </Button>
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('myObjects.noneChosen')}</Typography.Text>
        )}
      </Card>
      <Card title={t('myObjects.locations')} size="small" style={{ marginBottom: 16 }}>
        {locations.isError ? (
          <LoadError error={locations.error} onRetry={() => void locations.refetch()} />
        ) : (
          <Table<VisibleLocation>
            rowKey={(r, i) => `${r.VisibleLocationId}-${i}`}
            size="small"
            columns={locationColumns}
            dataSource={locations.data}
            loading={locations.isFetching}
            pagination={false}
            locale={{ emptyText: <Empty description={t('myObjects.noLocations')} /> }}
          />
        )}
      </Card>
      <Card title={chosen ? t('myObjects.flatsOf', { path: chosen.path }) : t('myObjects.flats')} size="small">
        {objects.isError && <LoadError error={objects.error} onRetry={() => void objects.refetch()} />}
        <FocusableScroll label={chosen ? t('myObjects.flatsOf', { path: chosen.path }) : t('myObjects.flats')}>
          <Table<UserObjectRow>
            rowKey="LocationId"
            size="small"
            columns={objectColumns}
            {...tableProps(objects)}
            scroll={{ x: 'max-content' }}
          />
        </FocusableScroll>
      </Card>
    </>
  );
}
