import type { HeatParameterChange, StatementChange, StatementRow } from '@rodmenys/contract';
import { Alert, App, Checkbox, Modal, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePublishStatements, useStatementDifference } from '../../api/statements';
import { LoadError, useErrorText } from '../../components/load-error';
import { useDialogClose } from '../../components/modal-host';
import { usePagerNames } from '../../components/pagination';
import { useLanguage } from '../../i18n';
import { useParameterValue } from '../master-data/heat-method-summary';
import { addressOf, formatNumber, monthName } from './statement-format';

/** Publishing: what changes against the published figures, then publish (audited; mail to those who opted in). */
export function PublishDialog({
  month,
  locations,
  rows,
  onClose,
}: {
  month: string;
  locations: number[];
  /** The flats of the selection (every marker): the buildings the dialog names. */
  rows: readonly StatementRow[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { close, modalProps } = useDialogClose(onClose);
  const language = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const difference = useStatementDifference(
    { month, ...(locations.length ? { locationParentId: locations.join(',') } : {}) },
    true,
  );
  const publish = usePublishStatements();
  const [force, setForce] = useState(false);
  // A refusal is said in the dialog, never behind its backdrop.
  const [refusal, setRefusal] = useState<string | null>(null);
  const buildings = [...new Map(rows.map((r) => [r.BuildingId, addressOf(r)])).values()];
  const run = async () => {
    setRefusal(null);
    try {
      const r = await publish.mutateAsync({
        body: { month, ...(locations.length ? { locationIds: locations } : {}), ...(force ? { force } : {}) },
      });
      if (r.Buildings) message.success(t('statements.publishedDone', { buildings: r.Buildings, flats: r.Flats }));
      if (r.Unchanged) message.info(t('statements.unchangedDone', { buildings: r.Unchanged }));
      close();
    } catch (error) {
      setRefusal(errorText(error));
    }
  };
  const changes = difference.data?.Changes ?? [];
  const parameters = difference.data?.ParameterChanges ?? [];
  const changed = changes.length + parameters.length > 0;
  return (
    <Modal
      {...modalProps}
      title={t('statements.publishTitle', { month: monthName(month, language) })}
      okText={t('statements.publish')}
      cancelText={t('common.cancel')}
      onOk={() => void run()}
      confirmLoading={publish.isPending}
      onCancel={() => close()}
      width={760}
    >
      <Typography.Paragraph>{t('statements.publishHelp')}</Typography.Paragraph>
      {refusal && <Alert type="error" showIcon role="alert" title={refusal} style={{ marginBottom: 12 }} />}
      <Typography.Paragraph strong>
        {t('statements.publishWhat', { buildings: buildings.length, flats: rows.length })}
      </Typography.Paragraph>
      <ul className="publish-buildings">
        {buildings.slice(0, 10).map((b) => (
          <li key={b}>{b}</li>
        ))}
        {buildings.length > 10 && <li>{t('statements.andMore', { count: buildings.length - 10 })}</li>}
      </ul>
      {difference.error && <LoadError error={difference.error} onRetry={() => void difference.refetch()} />}
      {difference.data && difference.data.Published > 0 && (
        <>
          <Alert
            type={changed ? 'warning' : 'info'}
            showIcon
            style={{ marginBottom: 12 }}
            message={t(changed ? 'statements.republish' : 'statements.republishSame', {
              buildings: difference.data.Published,
              changes: changes.length,
            })}
          />
          {parameters.length > 0 && <ParameterChanges changes={parameters} />}
          {changes.length > 0 && <ChangesTable changes={changes} language={language} />}
          {!changed && (
            <Checkbox checked={force} onChange={(e) => setForce(e.target.checked)}>
              {t('statements.forceRepublish')}
            </Checkbox>
          )}
        </>
      )}
    </Modal>
  );
}

/** The heat method's parameters behind the published figures that changed (docs/heat-method.md). */
function ParameterChanges({ changes }: { changes: HeatParameterChange[] }) {
  const { t } = useTranslation();
  const value = useParameterValue();
  return (
    <div data-testid="parameter-changes">
      <Typography.Paragraph strong style={{ marginBottom: 4 }}>
        {t('statements.parametersChanged')}
      </Typography.Paragraph>
      <ul>
        {changes.map((c) => (
          <li key={`${c.BuildingId}.${c.FlatId ?? ''}.${c.Parameter}`}>
            {t('statements.parameterChange', {
              address: c.Address,
              parameter: t(`statements.parameterNames.${c.Parameter}`),
              published: value(c.Parameter, c.Published),
              live: value(c.Parameter, c.Live),
            })}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The figures a republish would change: published value against the live one. */
function ChangesTable({ changes, language }: { changes: StatementChange[]; language: string }) {
  const { t } = useTranslation();
  const pager = usePagerNames();
  return (
    <Table<StatementChange>
      size="small"
      rowKey={(c) => `${c.FlatId}.${c.Occupancy?.OccupancyId ?? ''}.${c.Kind}.${c.Field}.${c.Part ?? ''}`}
      dataSource={changes}
      pagination={{ ...pager, pageSize: 10 }}
      columns={[
        {
          title: t('statements.address'),
          dataIndex: 'Address',
          // An occupant's part of the flat's month (docs/occupancies.md): their account and days.
          render: (a: string, c) =>
            c.Occupancy
              ? `${a} · ${t('statements.changeOccupant', { code: c.Occupancy.ClientCode, from: c.Occupancy.From, till: c.Occupancy.Till })}`
              : a,
        },
        { title: t('statements.kind'), dataIndex: 'Kind', render: (k: string) => t(`statements.kinds.${k}`) },
        {
          title: t('statements.field'),
          dataIndex: 'Field',
          render: (f: string, c) => {
            const field = t(`statements.${f === 'Current' ? 'current' : f === 'Previous' ? 'previous' : 'lastYear'}`);
            // A part of the flat's heat by its building's method (docs/heat-method.md).
            return c.Part ? t('statements.changePart', { field, part: t(`statements.changeParts.${c.Part}`) }) : field;
          },
        },
        {
          title: t('statements.publishedValue'),
          dataIndex: 'Published',
          align: 'right',
          render: (v: number | null) => formatNumber(v, language),
        },
        {
          title: t('statements.liveValue'),
          dataIndex: 'Live',
          align: 'right',
          render: (v: number | null) => formatNumber(v, language),
        },
      ]}
    />
  );
}
