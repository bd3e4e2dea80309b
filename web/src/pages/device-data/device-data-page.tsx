import { WarningOutlined } from '@ant-design/icons';
import { type DeviceRow, type DeviceTypeInSelection, GROUP, type ReadingRow } from '@rodmenys/contract';
import { Alert, Button, Card, Col, Row, Spin, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTypesInSelection } from '../../api/device-data';
import { useDeviceDataByUserId, useDevicesData } from '../../api/devices';
import { LoadError } from '../../components/load-error';
import { useChosenObject, useProviderNow, useSession } from '../../session';
import { FlaggedDevicesDialog } from './flagged-devices';
import { FoundDevices } from './found-devices';
import { HistoryModal } from './history-modal';
import { buildLocationTree, selectionOf } from './location-tree';
import { LocationTreeSelect } from './location-tree-select';
import { useMonthEndMarks } from './month-end-marks';
import { defaultPeriod, type Period, periodQuery } from './period';
import { PeriodPicker } from './period-picker';
import { ReadingsPanel } from './readings-panel';
import { TypesTable } from './types-table';
import './device-data.css';

/** More ticked places than this are not listed in the URL: the scope is read whole and filtered here. */
const MAX_PARENTS_IN_QUERY = 500;

/**
 * The device data (readings) screen (docs/domain.md §10): the chosen object, the device
 * types found in the selection, the location tree, the period, the found devices
 * and the detail panel for the selected ones.
 */
export default function DeviceDataPage() {
  const { t } = useTranslation();
  const user = useSession();
  const object = useChosenObject();
  const [treeValues, setTreeValues] = useState<string[]>([]);
  const now = useProviderNow();
  const [period, setPeriod] = useState<Period>(() => defaultPeriod(now()));
  const [type, setType] = useState<DeviceTypeInSelection | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [chartRow, setChartRow] = useState<ReadingRow | null>(null);
  const [flaggedOpen, setFlaggedOpen] = useState(false);

  const devices = useDeviceDataByUserId();
  const tree = useMemo(
    () =>
      buildLocationTree(
        devices.data ?? [],
        {
          flat: (flat) => t('deviceData.tree.flat', { flat }),
          device: (r: DeviceRow) => [r.DeviceCode, r.DeviceDescription].filter(Boolean).join(' · '),
        },
        object?.id ?? null,
      ),
    [devices.data, object?.id, t],
  );
  const selection = useMemo(() => selectionOf(tree, treeValues), [tree, treeValues]);
  const hasSelection = treeValues.length > 0 || object !== null;
  const parents = treeValues.length > 0 ? selection.parents : object ? [object.id] : [];
  const locationParentId = parents.length > 0 && parents.length <= MAX_PARENTS_IN_QUERY ? parents.join(',') : undefined;
  const range = periodQuery(period);

  const types = useTypesInSelection({ ...range, ...(locationParentId ? { locationParentId } : {}) });
  const readings = useDevicesData(
    { ...range, deviceTypeId: type?.Id ?? 0, ...(locationParentId ? { locationParentId } : {}) },
    type !== null && hasSelection,
  );
  const monthEnds = useMonthEndMarks(period, type?.Id ?? null, locationParentId, type !== null && hasSelection);
  // Ticked devices (not whole branches) narrow the answer for their flat to themselves.
  const keep = useCallback(
    (r: ReadingRow) => treeValues.length === 0 || selection.deviceIds.has(r.DeviceId),
    [treeValues.length, selection],
  );
  const rows = useMemo(() => (readings.data ?? []).filter(keep), [readings.data, keep]);
  const selectedRows = useMemo(() => {
    const chosen = new Set(selected);
    return rows.filter((r) => chosen.has(r.DeviceId));
  }, [rows, selected]);

  const changeTree = (values: string[]) => {
    setTreeValues(values);
    setSelected([]);
  };
  const pickType = (next: DeviceTypeInSelection) => {
    if (next.Id !== type?.Id) setSelected([]);
    setType(next);
  };

  // A device of the flagged list shown in the readings table: its type picked, only it selected.
  const showFlagged = (row: ReadingRow) => {
    const rowType = types.data?.find((x) => x.Id === row.DeviceTypeId);
    if (!rowType) return;
    setType(rowType);
    setSelected([row.DeviceId]);
    setFlaggedOpen(false);
  };

  const loading = devices.isLoading || readings.isFetching;
  return (
    <Spin spinning={loading} description={t('common.loading')} size="large">
      <div className="device-data">
        <Typography.Title level={1} className="page-title">
          {t('nav.deviceData')}
        </Typography.Title>
        {object && (
          <Alert
            type="info"
            showIcon
            title={t('deviceData.object', { path: object.path })}
            style={{ marginBottom: 16 }}
          />
        )}
        {devices.error && <LoadError error={devices.error} onRetry={() => void devices.refetch()} />}
        {types.error && <LoadError error={types.error} onRetry={() => void types.refetch()} />}
        {readings.error && <LoadError error={readings.error} onRetry={() => void readings.refetch()} />}

        <Row gutter={16}>
          <Col xs={24} xl={13}>
            <Card
              size="small"
              title={t('deviceData.types.title')}
              className="device-data-card"
              extra={
                <Button
                  size="small"
                  danger
                  icon={<WarningOutlined />}
                  disabled={!hasSelection}
                  title={hasSelection ? undefined : t('deviceData.flagged.hint')}
                  onClick={() => setFlaggedOpen(true)}
                >
                  {t('deviceData.flagged.open')}
                </Button>
              }
            >
              <TypesTable
                types={types.data ?? []}
                loading={types.isLoading}
                selected={type?.Id ?? null}
                onPick={pickType}
              />
            </Card>
          </Col>
          <Col xs={24} xl={11}>
            <Card size="small" title={t('deviceData.tree.label')} className="device-data-card">
              <LocationTreeSelect
                nodes={tree.nodes}
                value={treeValues}
                onChange={changeTree}
                loading={devices.isLoading}
              />
              {!hasSelection && (
                <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0' }}>
                  {t('deviceData.tree.hint')}
                </Typography.Paragraph>
              )}
            </Card>
          </Col>
        </Row>

        {hasSelection && (
          <Card
            size="small"
            className="device-data-card"
            title={t('deviceData.found.heading')}
            extra={<PeriodPicker value={period} onChange={setPeriod} />}
          >
            {type === null ? (
              <Typography.Text type="secondary">{t('deviceData.types.pick')}</Typography.Text>
            ) : (
              <FoundDevices rows={rows} selected={selected} onSelect={setSelected} failed={!!readings.error} />
            )}
          </Card>
        )}

        {type !== null && selectedRows.length > 0 && (
          <Card
            size="small"
            className="device-data-card"
            title={t('deviceData.detail.heading', { count: selectedRows.length })}
          >
            <ReadingsPanel
              key={type.Id}
              rows={selectedRows}
              type={type}
              groupId={user?.GroupId ?? GROUP.user}
              onChart={setChartRow}
              monthEnds={monthEnds}
            />
          </Card>
        )}
        <HistoryModal row={chartRow} period={period} onClose={() => setChartRow(null)} />
        <FlaggedDevicesDialog
          open={flaggedOpen}
          onClose={() => setFlaggedOpen(false)}
          period={period}
          locationParentId={locationParentId}
          keep={keep}
          types={types.data ?? []}
          onShow={showFlagged}
        />
      </div>
    </Spin>
  );
}
