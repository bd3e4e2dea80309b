import { UploadOutlined } from '@ant-design/icons';
import type { MeterKeyImportResult, MeterKeyLine, MeterKeyProblem } from '@rodmenys/contract';
import { Alert, Button, Card, Space, Table, Tag, Typography, Upload } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useImportMeterKeys } from '../../api/collectors';
import { useErrorText } from '../../components/load-error';

/**
 * Meter keys from the manufacturer's file (`manufacturer;meter id;key`): checked first,
 * every bad line named; stored only when every line is good. Keys are never shown.
 */
export function MeterKeyImport() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const send = useImportMeterKeys();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<MeterKeyImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The answer takes the focus (a chosen file leaves it nowhere): a check's heading, or the stored result.
  const heading = useRef<HTMLHeadingElement>(null);
  const stored = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result) (result.Applied ? stored : heading).current?.focus();
  }, [result]);

  const run = async (f: File, apply: boolean) => {
    setBusy(true);
    setError(null);
    try {
      setResult(await send(f, apply));
      setFile(f);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const canApply = !!file && !!result && !result.Applied && result.ProblemCount === 0 && result.Lines > 0;
  return (
    <Card title={t('meterKeys.title')} style={{ marginBottom: 24 }}>
      <Typography.Paragraph type="secondary">{t('meterKeys.help')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 12 }}>
        <Upload
          accept=".csv,.txt,text/csv"
          showUploadList={false}
          beforeUpload={(f) => {
            void run(f, false);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={busy && !canApply}>
            {t('meterKeys.choose')}
          </Button>
        </Upload>
        {canApply && (
          <Button type="primary" loading={busy} onClick={() => void run(file, true)}>
            {t('meterKeys.apply', { count: result.New + result.Changed })}
          </Button>
        )}
      </Space>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      {result && file && (
        <>
          <Typography.Title level={2} className="section-title" tabIndex={-1} ref={heading}>
            {t(result.Applied ? 'meterKeys.storedTitle' : 'meterKeys.checkedTitle', {
              name: file.name,
              interpolation: { escapeValue: false },
            })}
          </Typography.Title>
          <div tabIndex={-1} ref={stored}>
            <Alert
              type={result.ProblemCount > 0 ? 'error' : result.Applied ? 'success' : 'info'}
              showIcon
              style={{ marginBottom: 12 }}
              title={
                result.ProblemCount > 0
                  ? t('meterKeys.refused', { count: result.ProblemCount })
                  : result.Applied
                    ? t('meterKeys.applied', { new: result.New, changed: result.Changed, unchanged: result.Unchanged })
                    : t('meterKeys.preview', { new: result.New, changed: result.Changed, unchanged: result.Unchanged })
              }
            />
          </div>
          {result.Problems.length > 0 && (
            <Table<MeterKeyProblem>
              rowKey="Line"
              size="small"
              pagination={{ pageSize: 20, hideOnSinglePage: true }}
              dataSource={result.Problems}
              columns={[
                { title: t('meterKeys.line'), dataIndex: 'Line', align: 'right' },
                { title: t('fleet.meter'), dataIndex: 'MeterId', render: (id: string | null) => id ?? '—' },
                {
                  title: t('meterKeys.problem'),
                  dataIndex: 'Problem',
                  render: (p: MeterKeyProblem['Problem']) => t(`meterKeys.problems.${p}`),
                },
              ]}
              style={{ marginBottom: 12 }}
            />
          )}
          {result.ProblemCount === 0 && result.Rows.length > 0 && (
            <Table<MeterKeyLine>
              rowKey="Line"
              size="small"
              pagination={{ pageSize: 20, hideOnSinglePage: true }}
              dataSource={result.Rows}
              columns={[
                { title: t('meterKeys.line'), dataIndex: 'Line', align: 'right' },
                { title: t('meterKeys.manufacturer'), dataIndex: 'Manufacturer' },
                { title: t('fleet.meter'), dataIndex: 'MeterId', render: (id: string) => <code>{id}</code> },
                {
                  title: t('meterKeys.change'),
                  dataIndex: 'Change',
                  render: (c: MeterKeyLine['Change']) => (
                    <Tag color={c === 'changed' ? 'warning' : c === 'new' ? 'processing' : 'default'}>
                      {t(`meterKeys.changes.${c}`)}
                    </Tag>
                  ),
                },
              ]}
            />
          )}
        </>
      )}
    </Card>
  );
}
