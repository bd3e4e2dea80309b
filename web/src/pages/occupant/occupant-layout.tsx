import { LogoutOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { signOutOccupantSession } from '../../api/occupant';
import { AlertMessage } from '../../components/alert';
import { LanguageSelector } from '../../components/language-selector';
import { PageSuspense } from '../../components/page-spinner';
import { changeLanguage } from '../../i18n';
import { useOccupantSession } from '../../occupant-session';
import { getLanguageChoice } from '../../storage';
import { readerLanguage } from './reader-language';
import './occupant.css';

/**
 * The frame of the occupant's pages (docs/occupant-access.md, "The occupant's pages"): the
 * product's name, the language switch and, once signed in, "Sign out"; it opens in the reader's
 * language. No menu and nothing of the back office: an occupant reaches only these pages.
 */
export default function OccupantLayout() {
  const { t, i18n } = useTranslation();
  const session = useOccupantSession();
  const client = useQueryClient();
  const { search } = useLocation();
  // The reader's language: `?lang=`, their earlier choice, or the browser's (reader-language.ts).
  useEffect(() => {
    const language = readerLanguage(search, getLanguageChoice(), navigator.languages ?? [navigator.language]);
    if (language !== i18n.resolvedLanguage) void changeLanguage(language);
  }, [search, i18n]);
  return (
    <div className="occupant-page">
      <header className="occupant-header">
        <div className="occupant-brand">{t('app.name')}</div>
        <div className="occupant-header-tools">
          <LanguageSelector />
          {session && (
            <Button
              type="text"
              size="small"
              icon={<LogoutOutlined aria-hidden />}
              // The pages behind the session then show the code page, saying "signed out".
              onClick={() => void signOutOccupantSession(client)}
            >
              {t('occupant.signOut')}
            </Button>
          )}
        </div>
      </header>
      <main className="occupant-main">
        <AlertMessage />
        <PageSuspense>
          <Outlet />
        </PageSuspense>
      </main>
    </div>
  );
}
