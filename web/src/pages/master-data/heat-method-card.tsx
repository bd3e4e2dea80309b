import type { HeatMethodVersion } from '@rodmenys/contract';
import { Button, Card, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBuildingHeatMethods } from '../../api/heat-methods';
import { LoadError } from '../../components/load-error';
import { formatDateTime } from '../../format';
import { useProviderNow } from '../../session';
import { HeatMethodDialog, type HeatMethodEdit } from './heat-method-dialog';
import { useParameterSummary } from './heat-method-summary';

/*
 * A building's heat method on Master data (docs/heat-method.md): its versions, each valid from its
 * month until the next one's, with their parameters; group 1 sets a version from a month on. A
 * building without one keeps the plain rule, plainQrad.
 */

/** A version's parameters in one line, in the UI language. */
function useSummary() {
  const { t } = useTranslation();
  const parameters = useParameterSummary();
  return (v: HeatMethodVersion) => {
    if (v.HotWaterHeat === null) return t('masterData.heatMethod.modes.plainQrad');
    const parts = [t(`masterData.heatMethod.modes.${v.HotWaterHeat}`), ...parameters(v.HotWaterHeat, v)];
    const own = v.Flats.filter((f) => f.PositionFactor !== 1 || f.CirculationClass !== null).length;
    if (own) parts.push(t('masterData.heatMethod.summary.flats', { count: own }));
    return parts.join(' · ');
  };
}

/** The building's method versions; `canEdit` (group 1) offers setting a version. */
export function HeatMethodCard({ buildingId, canEdit }: { buildingId: number; canEdit: boolean }) {
  const { t } = useTranslation();
  const methods = useBuildingHeatMethods(buildingId);
  const now = useProviderNow();
  const summary = useSummary();
  const [edit, setEdit] = useState<HeatMethodEdit | null>(null);
  if (methods.error) return <LoadError error={methods.error} onRetry={() => methods.refetch()} />;
  if (!methods.data) return <Card size="small" loading title={t('masterData.heatMethod.title')} />;
  const versions = methods.data.Versions;
  const latest = versions.at(-1) ?? null;
  return (
    <Card
      size="small"
      title={t('masterData.heatMethod.title')}
      extra={
        canEdit && (
          <Button onClick={() => setEdit({ version: latest, month: now().format('YYYY-MM') })}>
            {t('masterData.heatMethod.setFrom')}
          </Button>
        )
      }
    >
      {versions.length === 0 ? (
        <Typography.Paragraph style={{ marginBottom: 0 }}>{t('masterData.heatMethod.none')}</Typography.Paragraph>
      ) : (
        <Table<HeatMethodVersion>
          size="small"
          rowKey="ValidFrom"
          pagination={false}
          dataSource={versions}
          scroll={{ x: true }}
          columns={[
            { title: t('masterData.heatMethod.validFrom'), dataIndex: 'ValidFrom' },
            { title: t('masterData.heatMethod.parameters'), render: (_, v) => summary(v) },
            {
              title: t('masterData.heatMethod.changedBy'),
              dataIndex: 'ChangedBy',
              render: (by: string | null) => by ?? '–',
            },
            { title: t('masterData.heatMethod.changedAt'), dataIndex: 'ChangedAt', render: formatDateTime },
            ...(canEdit
              ? [
                  {
                    title: t('common.actions'),
                    key: 'actions',
                    render: (_: unknown, v: HeatMethodVersion) => (
                      <Button size="small" type="link" onClick={() => setEdit({ version: v, month: v.ValidFrom })}>
                        {t('masterData.heatMethod.editVersion', { month: v.ValidFrom })}
                      </Button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      {edit && <HeatMethodDialog building={methods.data} edit={edit} onClose={() => setEdit(null)} />}
    </Card>
  );
}
