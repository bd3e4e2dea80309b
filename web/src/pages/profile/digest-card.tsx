import { isOperator } from '@rodmenys/contract';
import { Alert, App, Card, Checkbox, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDigestSubscription, useUpdateDigestSubscription } from '../../api/data-quality';
import { useStatementNotification, useUpdateStatementNotification } from '../../api/statements';
import { LoadError, useErrorText } from '../../components/load-error';
import { formatDateTime } from '../../format';
import { useLanguage } from '../../i18n';
import { useSession } from '../../session';

interface MailOptIn {
  data?: { OptIn: boolean; MailConfigured: boolean; Email: string | null };
  error: unknown;
  refetch: () => unknown;
}
interface MailOptInUpdate {
  isPending: boolean;
  mutateAsync: (input: { body: { optIn: boolean; language: 'en' | 'lt' } }) => Promise<unknown>;
}

/** One e-mail opt-in: a checkbox saved in the language in use, a warning when the server cannot send mail. */
function MailOptInCard(props: {
  title: string;
  help: string;
  label: string;
  query: MailOptIn;
  update: MailOptInUpdate;
  /** What opting in and out mean for the person ({{email}}: their address). */
  optedIn: string;
  optedOut: string;
  footer?: ReactNode;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const { query, update } = props;
  const operator = isOperator(useSession()?.GroupId ?? 0);
  const change = async (optIn: boolean) => {
    try {
      await update.mutateAsync({ body: { optIn, language } });
      const later = optIn && !query.data?.MailConfigured ? t('mailOptIn.later') : '';
      message.success(
        `${t(optIn ? props.optedIn : props.optedOut, { email: query.data?.Email ?? '', interpolation: { escapeValue: false } })}${later}`,
      );
    } catch (error) {
      message.error(errorText(error));
    }
  };
  return (
    <Card title={props.title}>
      {query.error != null && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      {query.data && (
        <>
          {!query.data.MailConfigured && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 12 }}
              message={t('mailOptIn.notConfigured')}
              description={operator ? t('mailOptIn.operatorHint') : undefined}
            />
          )}
          <Typography.Paragraph type="secondary">{props.help}</Typography.Paragraph>
          <Checkbox
            checked={query.data.OptIn}
            disabled={update.isPending}
            onChange={(e) => void change(e.target.checked)}
          >
            {props.label}
          </Checkbox>
          {props.footer}
        </>
      )}
    </Card>
  );
}

/** Opting in to the daily anomaly digest by e-mail. */
export function DigestCard() {
  const { t } = useTranslation();
  const digest = useDigestSubscription();
  const lastSent = digest.data?.LastSentAt;
  return (
    <MailOptInCard
      title={t('digest.title')}
      help={t('digest.help')}
      label={t('digest.optIn')}
      query={digest}
      update={useUpdateDigestSubscription()}
      optedIn="mailOptIn.digestOn"
      optedOut="mailOptIn.digestOff"
      footer={
        lastSent && (
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
            {t('digest.lastSent', { time: formatDateTime(lastSent) })}
          </Typography.Paragraph>
        )
      }
    />
  );
}

/** Opting in to the e-mail sent when the statements of one's flats are published (docs/statements.md). */
export function StatementMailCard() {
  const { t } = useTranslation();
  return (
    <MailOptInCard
      title={t('statements.mail.title')}
      help={t('statements.mail.help')}
      label={t('statements.mail.optIn')}
      query={useStatementNotification()}
      update={useUpdateStatementNotification()}
      optedIn="mailOptIn.statementsOn"
      optedOut="mailOptIn.statementsOff"
    />
  );
}
