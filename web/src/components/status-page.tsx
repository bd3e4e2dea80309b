import { Button, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** A whole-page answer (403, 404): its h1 title, a sentence and the way home, from `<texts>.title/text/home`. */
export function StatusPage({ status, texts }: { status: '403' | '404'; texts: 'notAllowed' | 'notFound' }) {
  const { t } = useTranslation();
  return (
    <Result
      status={status}
      title={
        <Typography.Title level={1} className="page-title">
          {t(`${texts}.title`)}
        </Typography.Title>
      }
      subTitle={t(`${texts}.text`)}
      extra={
        <Link to="/">
          <Button type="primary">{t(`${texts}.home`)}</Button>
        </Link>
      }
    />
  );
}
