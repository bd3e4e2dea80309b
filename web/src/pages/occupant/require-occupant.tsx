import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import type { AlertState } from '../../components/alert';
import { occupantEndReason, useOccupantSession } from './occupant-session';
import { OCCUPANT_HOME } from './paths';

/** The pages behind an occupant session: without one, the code page, saying why (ended, or never started). */
export function RequireOccupant() {
  const { t } = useTranslation();
  const session = useOccupantSession();
  const location = useLocation();
  if (session) return <Outlet />;
  const reason = occupantEndReason();
  const alert: AlertState =
    reason === 'signedOut'
      ? { type: 'success', message: t('occupant.signedOut') }
      : {
          type: 'warning',
          message: t(`serverErrors.${reason ?? 'occupantSignInFirst'}`, {
            defaultValue: t('serverErrors.occupantSessionEnded'),
          }),
        };
  return <Navigate to={OCCUPANT_HOME} replace state={{ alert, from: location.pathname }} />;
}
