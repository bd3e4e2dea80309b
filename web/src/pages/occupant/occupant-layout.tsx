import { LogoutOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { signOutOccupantSession } from '../../api/occupant';
import { AlertMessage } from '../../components/alert';
import { LanguageSelector } from '../../components/language-selector';
import { PageSuspense } from '../../components/page-spinner';
import { useOccupantSession } from './occupant-session';
import './occupant.css';

/**
 * The frame of the occupant's pages (docs/occupant-access.md, "The occupant's pages"): the
 * product's name, the language switch and, once signed in, "Sign out". No menu and nothing of
 * the back office: an occupant reaches only these pages.
 */
export default function OccupantLayout() {
  const { t } = useTranslation();
  const session = useOccupantSession();
  const client = useQueryClient();
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
