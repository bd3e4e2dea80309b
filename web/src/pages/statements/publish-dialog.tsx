import type { StatementChange } from '@rodmenys/contract';
import { Alert, App, Modal, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePublishStatements, useStatementDifference } from '../../api/statements';
import { LoadError, useErrorText } from '../../components/load-error';
import { useLanguage } from '../../i18n';
import { formatNumber } from './statement-format';

/** Publishing: what changes against the published figures, then publish (audited; mail to those who opted in). */
export function PublishDialog({
  month,
  locations,
  onClose,
}: {
  month: string;
  locations: number[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const difference = useStatementDifference(
    { month, ...(locations.length ? { locationParentId: locations.join(',') } : {}) },
    true,
  );
  const publish = usePublishStatements();
  const run = async () => {
    try {
      const r = await publish.mutateAsync({ body: { month, ...(locations.length ? { locationIds: locations } : {}) } });
      message.success(t('statements.publishedDone', { buildings: r.Buildings, flats: r.Flats }));
      onClose();
    } catch (error) {
      message.error(errorText(error));
    }
  };
  const changes = difference.data?.Changes ?? [];
  return (
    <Modal
      open
      title={t('statements.publishTitle', { month })}
      okText={t('statements.publish')}
      cancelText={t('common.cancel')}
      onOk={() => void run()}
      confirmLoading={publish.isPending}
      onCancel={onClose}
      width={760}
    >
      <Typography.Paragraph>{t('statements.publishHelp')}</Typography.Paragraph>
      {difference.error && <LoadError error={difference.error} onRetry={() => void difference.refetch()} />}
      {difference.data && difference.data.Published > 0 && (
        <>
          <Alert
            type={changes.length ? 'warning' : 'info'}
            showIcon
            style={{ marginBottom: 12 }}
            message={t('statements.republish', { buildings: difference.data.Published, changes: changes.length })}
          />
          {changes.length > 0 && <ChangesTable changes={changes} language={language} />}
        </>
      )}
    </Modal>
  );
}

/** The figures a republish would change: published value against the live one. */
function ChangesTable({ changes, language }: { changes: StatementChange[]; language: string }) {
  const { t } = useTranslation();
  return (
    <Table<StatementChange>
      size="small"
      rowKey={(c) => `${c.FlatId}.${c.Kind}.${c.Field}`}
      dataSource={changes}
      pagination={{ pageSize: 10 }}
      columns={[
        { title: t('statements.address'), dataIndex: 'Address' },
        { title: t('statements.kind'), dataIndex: 'Kind', render: (k: string) => t(`statements.kinds.${k}`) },
        {
          title: t('statements.field'),
          dataIndex: 'Field',
          render: (f: string) =>
            t(`statements.${f === 'Current' ? 'current' : f === 'Previous' ? 'previous' : 'lastYear'}`),
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
