import { Button, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Unknown paths and the old client's template demo routes (docs/domain.md §10). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={
        <Typography.Title level={1} className="page-title">
          {t('notFound.title')}
        </Typography.Title>
      }
      subTitle={t('notFound.text')}
      extra={
        <Link to="/">
          <Button type="primary">{t('notFound.home')}</Button>
        </Link>
      }
    />
  );
}
