import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { AlertMessage } from '../alert';
import { LanguageSelector } from '../language-selector';
import './auth-layout.css';

/** The frame of the sign-in and registration pages: brand, language selector, alert, form card. */
export default function AuthLayout() {
  const { t } = useTranslation();
  return (
    <main className="auth-page">
      <div className="auth-box">
        <div className="auth-top">
          {/* The brand, not a heading: the page's h1 is the form's title. */}
          <div className="auth-brand">{t('app.name')}</div>
          <LanguageSelector />
        </div>
        <Typography.Paragraph type="secondary">{t('app.tagline')}</Typography.Paragraph>
        <AlertMessage />
        <Card>
          <Outlet />
        </Card>
      </div>
    </main>
  );
}
