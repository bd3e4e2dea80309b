import { DownloadOutlined } from '@ant-design/icons';
import {
  AUDIT_KINDS,
  type AuditEntry,
  auditChanges,
  auditEntityLabel,
  auditFieldLabel,
  auditValueText,
  exportAuditLog,
} from '@rodmenys/contract';
import { App, Button, DatePicker, Input, Select, Space, Table, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuditLog } from '../../api/audit';
import { downloadFile } from '../../api/call';
import { LoadError, useErrorText } from '../../components/load-error';
import { useAllowClear } from '../../components/use-clear';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';

const PAGE_SIZE = 20;

/** What an entry changed, field by field, with the fields' names in the UI language. */
function Changes({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const changes = auditChanges(entry.Before, entry.After);
  if (changes.length === 0) return <Typography.Text type="secondary">{t('audit.noChanges')}</Typography.Text>;
  const created = entry.Before == null;
  return (
    <ul className="audit-changes">
      {changes.map((c) => (
        <li key={c.field}>
          <Typography.Text strong>{auditFieldLabel(c.field, lang)}</Typography.Text>:{' '}
          {!created && (
            <>
              <Typography.Text delete type="secondary">
                {auditValueText(c.before, lang, c.field)}
              </Typography.Text>
              {' → '}
            </>
          )}
          <span>{auditValueText(c.after, lang, c.field)}</span>
        </li>
      ))}
    </ul>
  );
}

/** The audit log (group 1): who changed what and when, filtered, paged, exportable. */
export default function AuditPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const allowClear = useAllowClear();
  const [actor, setActor] = useState('');
  const [kinds, setKinds] = useState<string[]>([]);
  const [period, setPeriod] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [page, setPage] = useState(1);
  const filter = {
    actor: actor.trim() || undefined,
    kind: kinds.length ? kinds.join(',') : undefined,
    dateFrom: period?.[0]?.format('YYYY-MM-DD'),
    dateTill: period?.[1]?.format('YYYY-MM-DD'),
  };
  const log = useAuditLog({ ...filter, page, pageSize: PAGE_SIZE });
  const exportAs = (format: 'xlsx' | 'csv') =>
    downloadFile(exportAuditLog, { query: { ...filter, format, lang } }, `auditLog.${format}`).catch((error) =>
      message.error(errorText(error)),
    );
  const kindLabel = (kind: string) => t(`audit.kinds.${kind}`, { defaultValue: kind });

  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('audit.title')}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          aria-label={t('audit.actor')}
          placeholder={t('audit.actor')}
          onSearch={(value) => {
            setActor(value);
            setPage(1);
          }}
          style={{ width: 200 }}
        />
        <Select
          mode="multiple"
          allowClear={allowClear}
          aria-label={t('audit.kind')}
          placeholder={t('audit.kind')}
          value={kinds}
          onChange={(value) => {
            setKinds(value);
            setPage(1);
          }}
          options={AUDIT_KINDS.map((k) => ({ value: k, label: kindLabel(k) }))}
          style={{ minWidth: 260 }}
        />
        <DatePicker.RangePicker
          aria-label={t('audit.period')}
          value={period}
          onChange={(value) => {
            setPeriod(value);
            setPage(1);
          }}
        />
        <Button icon={<DownloadOutlined />} onClick={() => exportAs('xlsx')}>
          {t('audit.exportXlsx')}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={() => exportAs('csv')}>
          {t('audit.exportCsv')}
        </Button>
      </Space>
      {log.error && <LoadError error={log.error} onRetry={() => log.refetch()} />}
      <Table<AuditEntry>
        size="small"
        rowKey="Id"
        loading={log.isFetching}
        dataSource={log.data?.Data ?? []}
        scroll={{ x: true }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: log.data?.Total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
          showTotal: (total, [from, to]) => t('common.total', { from, to, total }),
        }}
        columns={[
          { title: t('audit.at'), dataIndex: 'At', width: 150, render: formatDateTime },
          { title: t('audit.actor'), dataIndex: 'ActorUsername', render: (u: string | null) => u ?? t('audit.system') },
          { title: t('audit.kind'), dataIndex: 'Kind', render: kindLabel },
          {
            title: t('audit.entity'),
            render: (_, e) => (
              <>
                <Typography.Text type="secondary">{auditEntityLabel(e.Entity, lang)}</Typography.Text>
                <br />
                {e.EntityName ?? e.EntityId ?? ''}
              </>
            ),
          },
          { title: t('audit.changes'), key: 'changes', render: (_, e) => <Changes entry={e} /> },
        ]}
      />
    </>
  );
}
