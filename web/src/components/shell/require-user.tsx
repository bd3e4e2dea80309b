import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../../session';
import { sessionEndReason } from '../../storage';
import type { AlertState } from '../alert';

/** Where sign-in returns to: the page asked for, if it is a page of this app (never another site, never /login). */
export function returnPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/login'))
    return '/';
  return from;
}

/**
 * The route guard: every screen but /login and /register needs a signed-in user. Without one it
 * shows sign-in, remembering the page asked for, and says why when the server ended the session
 * (a deactivated account, an expired session).
 */
export function RequireUser() {
  const user = useSession();
  const location = useLocation();
  const { t } = useTranslation();
  if (user) return <Outlet />;
  const reason = sessionEndReason();
  const alert: AlertState | undefined = reason
    ? { type: 'warning', message: t(`serverErrors.${reason}`, { defaultValue: t('serverErrors.sessionEnded') }) }
    : undefined;
  return (
    <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}${location.hash}`, alert }} />
  );
}
