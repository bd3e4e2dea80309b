import { DownOutlined, RightOutlined } from '@ant-design/icons';
import { ADDRESS_LEVELS, type AddressLevel, LOCATIONS_PAGE_SIZE, type LocationRow } from '@rodmenys/contract';
import {
  type Breakpoint,
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Row,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAllObjects } from '../../api/location-data';
import { LoadError } from '../../components/load-error';
import { useServerPaging } from '../../components/pagination';
import { addressOf } from './address';
import { LocationDevices } from './location-devices';
import { TypeaheadFilter } from './typeahead-filter';

type Filters = Partial<Record<AddressLevel, string>>;

/**
 * Location data (docs/domain.md §10): server-paged buildings with type-ahead filters; a click opens one
 * row at a time and shows its devices below; changing a filter clears the selection.
 */
export default function LocationDataPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<Filters>({});
  const [selected, setSelected] = useState<LocationRow | null>(null);
  const { page, pageSize, setPage, tableProps } = useServerPaging(LOCATIONS_PAGE_SIZE);
  const objects = useAllObjects({
    page,
    pageSize,
    country: filters.Country,
    county: filters.County,
    region: filters.Region,
    city: filters.City,
    street: filters.Street,
    building: filters.Building,
  });

  const setFilter = (level: AddressLevel, value: string) => {
    if ((filters[level] ?? '') === value) return;
    setFilters((f) => ({ ...f, [level]: value || undefined }));
    setSelected(null);
    setPage(1);
  };
  const toggle = (row: LocationRow) => setSelected((s) => (s?.Id === row.Id ? null : row));

  // On a phone the upper levels give way to city, street and building.
  const wideOnly = new Set<AddressLevel>(['Country', 'County', 'Region']);
  const columns: TableColumnsType<LocationRow> = [
    ...ADDRESS_LEVELS.map((level) => ({
      key: level,
      dataIndex: level,
      title: t(`locationData.${level}`),
      responsive: wideOnly.has(level) ? (['lg'] satisfies Breakpoint[]) : undefined,
    })),
    {
      key: 'actions',
      title: t('locationData.actions'),
      render: (_, row) => {
        const open = selected?.Id === row.Id;
        return (
          <Button
            size="small"
            type={open ? 'primary' : 'default'}
            icon={open ? <DownOutlined /> : <RightOutlined />}
            aria-expanded={open}
            onClick={(e) => {
              e.stopPropagation();
              toggle(row);
            }}
          >
            {t('locationData.devices')}
          </Button>
        );
      },
    },
  ];

  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('locationData.title')}
      </Typography.Title>
      <Card size="small" style={{ marginBottom: 16 }}>
        <Form layout="vertical" component="div">
          <Row gutter={[12, 12]}>
            {ADDRESS_LEVELS.map((level) => (
              <Col key={level} xs={12} md={8} xl={4}>
                <TypeaheadFilter level={level} onChange={(value) => setFilter(level, value)} />
              </Col>
            ))}
          </Row>
        </Form>
      </Card>
      {objects.isError && <LoadError error={objects.error} onRetry={() => void objects.refetch()} />}
      <Table<LocationRow>
        rowKey="Id"
        size="middle"
        columns={columns}
        {...tableProps(objects)}
        onRow={(row) => ({ onClick: () => toggle(row), style: { cursor: 'pointer' } })}
        rowClassName={(row) => (row.Id === selected?.Id ? 'ant-table-row-selected' : '')}
        expandable={{
          expandedRowKeys: selected ? [selected.Id] : [],
          showExpandColumn: false,
          expandedRowRender: (row) => (
            <Descriptions size="small" column={{ xs: 1, md: 3 }}>
              <Descriptions.Item label={t('locationData.address')}>{addressOf(row)}</Descriptions.Item>
              <Descriptions.Item label={t('locationData.objectCode')}>{row.ObjectCode}</Descriptions.Item>
              <Descriptions.Item label={t('locationData.objectName')}>{row.ObjectName}</Descriptions.Item>
              <Descriptions.Item label={t('locationData.County')}>{row.County}</Descriptions.Item>
              <Descriptions.Item label={t('locationData.Region')}>{row.Region}</Descriptions.Item>
              <Descriptions.Item label={t('locationData.Country')}>{row.Country}</Descriptions.Item>
            </Descriptions>
          ),
        }}
      />
      {selected && <LocationDevices key={selected.Id} location={selected} />}
    </>
  );
}
