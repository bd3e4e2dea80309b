import { FileExcelOutlined, FileTextOutlined } from '@ant-design/icons';
import { App, Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../i18n';
import { CSV_COMMA, CSV_SEMICOLON } from './build-file';
import { downloadBlob, exportFile } from './export-file';
import type { ExportFormat, ExportInput } from './types';

interface ExportButtonProps<R> {
  /** File name without extension, e.g. deviceInfo. */
  fileName: string;
  /** The data to export, asked for at click time (all filtered rows, visible columns). */
  getInput: () => ExportInput<R>;
  disabled?: boolean;
}

/**
 * "Excel" and "CSV" download buttons; the file is built in a Web Worker. The CSV follows the
 * UI language the way Excel reads it there: Lithuanian `;` and a decimal comma, English `,` and a point.
 */
export function ExportButton<R>({ fileName, getInput, disabled }: ExportButtonProps<R>) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      const csv = language === 'lt' ? CSV_SEMICOLON : CSV_COMMA;
      downloadBlob(await exportFile(getInput(), format, csv), `${fileName}.${format}`);
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
          icon={format === 'xlsx' ? <FileExcelOutlined aria-hidden /> : <FileTextOutlined aria-hidden />}
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
