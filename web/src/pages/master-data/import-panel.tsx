import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { type ImportReport, type ImportRowError, REGISTER_COLUMNS, registerTemplate } from '@rodmenys/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../api/call';
import { uploadRegister } from '../../api/master-data';
import { useErrorText } from '../../components/load-error';
import { useLanguage } from '../../i18n';

type Entity = 'Locations' | 'Objects' | 'Clients' | 'Devices';
const ENTITIES: Entity[] = ['Locations', 'Objects', 'Clients', 'Devices'];

/** Register import: template download, file choice, preview (counts and bad rows), apply. */
export function ImportPanel() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { message, modal } = App.useApp();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [busy, setBusy] = useState<'preview' | 'apply' | null>(null);

  const run = async (mode: 'preview' | 'apply') => {
    if (!file) return;
    setBusy(mode);
    try {
      const result = await uploadRegister(mode, file);
      setReport(result);
      if (mode === 'apply') {
        if (result.Applied) {
          message.success(t('masterData.import.applied'));
          await queryClient.invalidateQueries();
        } else message.error(t('masterData.import.notApplied'));
      }
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setBusy(null);
    }
  };
  const confirmApply = () =>
    modal.confirm({
      title: t('masterData.import.apply'),
      content: t('masterData.import.confirmApply'),
      okText: t('masterData.import.apply'),
      cancelText: t('common.cancel'),
      onOk: () => run('apply'),
    });
  const template = (format: 'xlsx' | 'csv') =>
    downloadFile(registerTemplate, { query: { lang, format } }, `register.${format}`).catch((error) =>
      message.error(errorText(error)),
    );

  const columnHeader = (key: unknown) => {
    const column = REGISTER_COLUMNS.find((c) => c.key === key);
    return column ? column[lang] : String(key ?? '');
  };
  const reason = (e: ImportRowError) =>
    t(`masterData.errors.${e.Code}`, {
      ...e.Params,
      column: columnHeader(e.Params.column),
      defaultValue: e.Message,
    });

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Paragraph>{t('masterData.import.intro')}</Typography.Paragraph>
      <Space wrap>
        <Button icon={<DownloadOutlined />} onClick={() => template('xlsx')}>
          {t('masterData.import.templateXlsx')}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={() => template('csv')}>
          {t('masterData.import.templateCsv')}
        </Button>
      </Space>
      <Space wrap align="start">
        <Upload
          accept=".xlsx,.csv"
          maxCount={1}
          beforeUpload={(chosen) => {
            setFile(chosen);
            setReport(null);
            return false;
          }}
          onRemove={() => {
            setFile(null);
            setReport(null);
          }}
          fileList={file ? [{ uid: 'register', name: file.name, status: 'done' }] : []}
        >
          <Button icon={<UploadOutlined />}>{t('masterData.import.chooseFile')}</Button>
        </Upload>
        <Button type="primary" disabled={!file} loading={busy === 'preview'} onClick={() => run('preview')}>
          {t('masterData.import.preview')}
        </Button>
        <Button
          danger
          disabled={!file || !report || report.ErrorCount > 0 || report.Applied}
          loading={busy === 'apply'}
          onClick={confirmApply}
        >
          {t('masterData.import.apply')}
        </Button>
      </Space>
      {report && (
        <>
          {report.Applied && <Alert type="success" showIcon title={t('masterData.import.applied')} />}
          <Typography.Text>{t('masterData.import.rows', { count: report.Rows })}</Typography.Text>
          <Table
            size="small"
            pagination={false}
            rowKey="entity"
            aria-label={t('masterData.import.preview')}
            dataSource={ENTITIES.map((entity) => ({ entity, ...report[entity] }))}
            columns={[
              {
                title: t('masterData.import.entity'),
                dataIndex: 'entity',
                render: (e: Entity) => t(`masterData.import.${e}`),
              },
              { title: t('masterData.import.created'), dataIndex: 'Created', align: 'right' },
              { title: t('masterData.import.changed'), dataIndex: 'Changed', align: 'right' },
              { title: t('masterData.import.unchanged'), dataIndex: 'Unchanged', align: 'right' },
            ]}
          />
          {report.ErrorCount === 0 ? (
            !report.Applied && <Alert type="info" showIcon title={t('masterData.import.noErrors')} />
          ) : (
            <>
              <Typography.Title level={2} className="section-title">
                {t('masterData.import.errorsTitle', { count: report.ErrorCount })}
              </Typography.Title>
              <Table
                size="small"
                rowKey={(e) => `${e.Line}-${e.Code}-${String(e.Params.column ?? '')}`}
                dataSource={report.Errors}
                pagination={{ pageSize: 20, showSizeChanger: false }}
                columns={[
                  {
                    title: t('masterData.import.line'),
                    dataIndex: 'Line',
                    width: 90,
                    render: (line: number) => (line === 0 ? t('masterData.import.wholeFile') : line),
                  },
                  {
                    title: t('masterData.import.column'),
                    width: 180,
                    render: (_, e) => (e.Params.column ? columnHeader(e.Params.column) : ''),
                  },
                  { title: t('masterData.import.reason'), render: (_, e) => reason(e) },
                ]}
              />
            </>
          )}
        </>
      )}
    </Space>
  );
}
