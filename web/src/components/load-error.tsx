import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/call';

/**
 * The translated text for a failed call: "cannot reach the server", "too many attempts, wait…",
 * "server error", or else the server's error in the UI language (its code translated).
 */
export function useErrorText() {
  const { t } = useTranslation();
  return (error: unknown): string => {
    if (error instanceof ApiError) {
      if (error.status === 0) return t('errors.network');
      if (error.status === 403 && !error.code) return t('errors.forbidden');
      if (error.status === 429) {
        const seconds = error.retryAfter;
        if (seconds === undefined) return t('errors.tooMany');
        if (seconds < 120) return t('errors.tooManySeconds', { seconds });
        return t('errors.tooManyMinutes', { minutes: Math.ceil(seconds / 60) });
      }
      if (error.status >= 500) return t('errors.server');
      return error.message;
    }
    return t('errors.unknown');
  };
}

/** A failed data load with a way to retry (docs/domain.md §10: it does not sign the user out). */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return (
    <Alert
      role="alert"
      type="error"
      showIcon
      title={t('errors.loadFailed')}
      description={errorText(error)}
      action={
        <Button size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
      style={{ marginBottom: 16 }}
    />
  );
}
