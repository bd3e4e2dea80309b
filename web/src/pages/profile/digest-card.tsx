import { Alert, App, Card, Checkbox, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDigestSubscription, useUpdateDigestSubscription } from '../../api/data-quality';
import { LoadError, useErrorText } from '../../components/load-error';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';

/** Opting in to the daily anomaly digest by e-mail, in the language in use; says when the server cannot send mail. */
export function DigestCard() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const digest = useDigestSubscription();
  const update = useUpdateDigestSubscription();
  const change = async (optIn: boolean) => {
    try {
      await update.mutateAsync({ body: { optIn, language } });
      message.success(t('digest.saved'));
    } catch (error) {
      message.error(errorText(error));
    }
  };
  return (
    <Card title={t('digest.title')}>
      {digest.error && <LoadError error={digest.error} onRetry={() => void digest.refetch()} />}
      {digest.data && (
        <>
          {!digest.data.MailConfigured && (
            <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t('digest.noMail')} />
          )}
          <Typography.Paragraph type="secondary">{t('digest.help')}</Typography.Paragraph>
          <Checkbox
            checked={digest.data.OptIn}
            disabled={update.isPending}
            onChange={(e) => void change(e.target.checked)}
          >
            {t('digest.optIn')}
          </Checkbox>
          {digest.data.LastSentAt && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
              {t('digest.lastSent', { time: formatDateTime(digest.data.LastSentAt) })}
            </Typography.Paragraph>
          )}
        </>
      )}
    </Card>
  );
}
