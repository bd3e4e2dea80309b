import {
  ANOMALY_STATES,
  type Anomaly,
  type AnomalyState,
  isOperator,
  RULE_CODES,
  type RuleCode,
} from '@rodmenys/contract';
import { DatePicker, Select, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAnomalies, useAnomalyCounts } from '../../api/data-quality';
import { useDeviceTypes } from '../../api/devices';
import { ExportButton } from '../../components/export';
import { LoadError } from '../../components/load-error';
import { useLanguage } from '../../i18n';
import { useSession } from '../../session';
import { AnomalyCounts } from './anomaly-counts';
import { AnomalyDrawer } from './anomaly-drawer';
import { anomalyExport, ruleNameOf } from './anomaly-format';
import { type AnomalyAction, AnomalyList } from './anomaly-list';
import { CommentDialog } from './comment-dialog';
import { DegreeDaysCard } from './degree-days-card';
import { JobsCard } from './jobs-card';
import { SettingsCard } from './operator-panels';

/**
 * After an acknowledgement the pressed button is gone: the focus goes to the same anomaly's
 * details button, or to the list when the anomaly has left it (filtered by state). Run after the
 * dialog has given the focus back, so it is not undone.
 */
function focusAfterAction(id: number) {
  setTimeout(() => {
    const target =
      document.querySelector<HTMLElement>(`[data-anomaly-details="${id}"]`) ?? document.getElementById('anomaly-list');
    target?.focus();
  }, 50);
}

/**
 * The data-quality screen (at /anomalies): counts per building and rule in the caller's scope,
 * the anomalies themselves with filters, a drill-down to the device, acknowledge and resolve, and
 * an export; the operator's settings, degree-days and jobs below. `?id=` (the digest's links)
 * opens one anomaly.
 */
export default function DataQualityPage() {
  const { t } = useTranslation();
  const operator = isOperator(useSession()?.GroupId ?? 0);
  const language = useLanguage();
  const [params, setParams] = useSearchParams();
  const types = useDeviceTypes();
  const [rule, setRule] = useState<RuleCode | undefined>();
  const [state, setState] = useState<AnomalyState | undefined>();
  const [deviceTypeId, setDeviceTypeId] = useState<number | undefined>();
  const [buildingId, setBuildingId] = useState<number | undefined>();
  const [dateFrom, setDateFrom] = useState<Dayjs | null>(null);
  const [dateTill, setDateTill] = useState<Dayjs | null>(null);
  const [opened, setOpened] = useState<Anomaly | null>(null);
  const [dialog, setDialog] = useState<{ action: AnomalyAction; anomaly: Anomaly } | null>(null);
  const filter = {
    rule,
    state,
    deviceTypeId,
    dateFrom: dateFrom?.format('YYYY-MM-DD'),
    dateTill: dateTill?.format('YYYY-MM-DD'),
  };
  const counts = useAnomalyCounts(filter);
  const list = useAnomalies({ ...filter, buildingId });

  const wanted = Number(params.get('id'));
  useEffect(() => {
    if (!wanted || !list.data) return;
    const found = list.data.find((a) => a.Id === wanted);
    if (found) setOpened(found);
  }, [wanted, list.data]);
  // The drawer follows the list after an acknowledgement.
  const current = useMemo(
    () => (opened ? (list.data?.find((a) => a.Id === opened.Id) ?? opened) : null),
    [opened, list.data],
  );

  const typeName = (id: number | null) => {
    const ty = types.data?.find((x) => x.Id === id);
    return ty ? (language === 'en' ? ty.DeviceTypeNameEn : ty.DeviceTypeName) : '';
  };

  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('anomalies.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('anomalies.intro')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          aria-label={t('anomalies.rule')}
          placeholder={t('anomalies.rule')}
          value={rule}
          onChange={setRule}
          options={RULE_CODES.map((c) => ({ value: c, label: ruleNameOf(c, language) }))}
          style={{ minWidth: 220 }}
        />
        <Select
          allowClear
          aria-label={t('anomalies.state')}
          placeholder={t('anomalies.state')}
          value={state}
          onChange={setState}
          options={ANOMALY_STATES.map((s) => ({ value: s, label: t(`anomalies.states.${s}`) }))}
          style={{ minWidth: 160 }}
        />
        <Select
          allowClear
          aria-label={t('anomalies.deviceType')}
          placeholder={t('anomalies.deviceType')}
          value={deviceTypeId}
          onChange={setDeviceTypeId}
          options={(types.data ?? []).map((ty) => ({ value: ty.Id, label: typeName(ty.Id) }))}
          style={{ minWidth: 200 }}
        />
        {/* Two fields, not a range picker: an empty range picker keeps Tab in its first field. */}
        <DatePicker
          aria-label={t('anomalies.periodFrom')}
          placeholder={t('anomalies.periodFrom')}
          value={dateFrom}
          onChange={setDateFrom}
          disabledDate={(d) => !!dateTill && d.isAfter(dateTill, 'day')}
        />
        <DatePicker
          aria-label={t('anomalies.periodTill')}
          placeholder={t('anomalies.periodTill')}
          value={dateTill}
          onChange={setDateTill}
          disabledDate={(d) => !!dateFrom && d.isBefore(dateFrom, 'day')}
        />
        <ExportButton
          fileName={t('anomalies.exportName')}
          disabled={!list.data?.length}
          getInput={() => anomalyExport(list.data ?? [], t, language)}
        />
      </Space>
      <AnomalyCounts
        counts={counts}
        buildingId={buildingId}
        rule={rule}
        onPick={(r) => {
          setBuildingId(r.BuildingId === buildingId ? undefined : r.BuildingId);
          setRule(r.BuildingId === buildingId ? rule : r.Rule);
        }}
      />
      {list.error && <LoadError error={list.error} onRetry={() => void list.refetch()} />}
      <section id="anomaly-list" tabIndex={-1} aria-label={t('anomalies.list')}>
        <AnomalyList
          rows={list.data ?? []}
          loading={list.isFetching}
          typeName={typeName}
          onOpen={setOpened}
          onAction={(action, anomaly) => setDialog({ action, anomaly })}
        />
      </section>
      <AnomalyDrawer
        anomaly={current}
        onClose={() => {
          setOpened(null);
          if (params.has('id')) setParams({});
        }}
      />
      {dialog && (
        <CommentDialog
          {...dialog}
          onClose={(done) => {
            setDialog(null);
            if (done) focusAfterAction(dialog.anomaly.Id);
          }}
        />
      )}
      {operator && (
        <>
          <SettingsCard />
          <DegreeDaysCard />
          <JobsCard />
        </>
      )}
    </>
  );
}
