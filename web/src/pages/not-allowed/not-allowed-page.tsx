import { Button, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** What every screen the user's group may not open shows (web/src/access.ts): one page, one message. */
export function NotAllowedPage() {
  const { t } = useTranslation();
  return (
    <Result
      status="403"
      title={
        <Typography.Title level={1} className="page-title">
          {t('notAllowed.title')}
        </Typography.Title>
      }
      subTitle={t('notAllowed.text')}
      extra={
        <Link to="/">
          <Button type="primary">{t('notAllowed.home')}</Button>
        </Link>
      }
    />
  );
}
