import { STATEMENT_MARKERS, type StatementMarker, type TreeNode } from '@rodmenys/contract';
import { Card, Col, DatePicker, Form, Row, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useProviderNow } from '../../session';
import { BuildingPicker } from './building-picker';

/** The Statements filters: the month, the buildings (none ticked: all) and the markers a flat must carry. */
export function StatementsFilters({
  month,
  onMonth,
  tree,
  treeLoading,
  locations,
  onLocations,
  markers,
  onMarkers,
}: {
  month: string;
  onMonth: (month: string) => void;
  tree: readonly TreeNode[];
  treeLoading: boolean;
  locations: number[];
  onLocations: (ids: number[]) => void;
  markers: StatementMarker[];
  onMarkers: (markers: StatementMarker[]) => void;
}) {
  const { t } = useTranslation();
  const now = useProviderNow();
  return (
    <Card size="small">
      <Form layout="vertical" component="div">
        <Row gutter={[16, 12]} align="bottom">
          <Col xs={24} md={6}>
            <Form.Item label={t('statements.month')} htmlFor="statements-month" style={{ marginBottom: 0 }}>
              <DatePicker
                id="statements-month"
                picker="month"
                allowClear={false}
                style={{ width: '100%' }}
                value={dayjs(`${month}-01`)}
                disabledDate={(d: Dayjs) => d.isAfter(now(), 'month')}
                onChange={(d) => d && onMonth(d.format('YYYY-MM'))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={10}>
            <BuildingPicker nodes={tree} loading={treeLoading} value={locations} onChange={onLocations} />
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label={t('statements.filterMarkers')} htmlFor="statements-markers" style={{ marginBottom: 0 }}>
              <Select<StatementMarker[]>
                id="statements-markers"
                mode="multiple"
                allowClear
                style={{ width: '100%' }}
                value={markers}
                onChange={onMarkers}
                options={STATEMENT_MARKERS.map((m) => ({ value: m, label: t(`statements.marker.${m}`) }))}
                placeholder={t('statements.allFlats')}
              />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Card>
  );
}
