import { Alert, App, Button, Input, Modal, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { STATIC_MODAL } from '../../components/modal-host';

/**
 * A secret just created (a key, or a webhook's signing secret), shown once with a copy button;
 * `children` say where it goes (an address, a header), below it.
 */
export function SecretModal({
  title,
  secret,
  onClose,
  children,
}: {
  title: string;
  secret: string | null;
  onClose: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = async () => {
    if (!secret) return;
    await navigator.clipboard?.writeText(secret);
    message.success(t('integrations.copied'));
  };
  return (
    <Modal
      open={!!secret}
      {...STATIC_MODAL}
      title={title}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('common.close')}</Button>}
    >
      <Alert type="warning" showIcon title={t('integrations.shownOnce')} style={{ marginBottom: 12 }} />
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly value={secret ?? ''} aria-label={title} onFocus={(e) => e.target.select()} />
        <Button type="primary" onClick={copy}>
          {t('integrations.copy')}
        </Button>
      </Space.Compact>
      {children}
    </Modal>
  );
}
