import { FileExcelOutlined, FileTextOutlined } from '@ant-design/icons';
import { App, Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadBlob, exportFile } from './export-file';
import type { ExportFormat, ExportInput } from './types';

interface ExportButtonProps {
  /** File name without extension, e.g. deviceInfo. */
  fileName: string;
  /** The data to export, asked for at click time (all filtered rows, visible columns). */
  getInput: () => ExportInput;
  disabled?: boolean;
}

/** "Excel" and "CSV" download buttons; the file is built in a Web Worker. */
export function ExportButton({ fileName, getInput, disabled }: ExportButtonProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      downloadBlob(await exportFile(getInput(), format), `${fileName}.${format}`);
    } catch (error) {
      message.error(`${t('export.failed')}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Space.Compact>
      {(['xlsx', 'csv'] as const).map((format) => (
        <Button
          key={format}
          icon={format === 'xlsx' ? <FileExcelOutlined /> : <FileTextOutlined />}
          loading={busy === format}
          disabled={disabled || (!!busy && busy !== format)}
          onClick={() => void run(format)}
        >
          {t(`export.${format}`)}
        </Button>
      ))}
    </Space.Compact>
  );
}
