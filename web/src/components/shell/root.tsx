import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { type AlertState, useAlert } from '../alert';
import { PageSuspense } from '../page-spinner';

/** Clears the alert on every route change, or shows the one the navigation carries (e.g. "Registration successful"). */
export function Root() {
  const location = useLocation();
  const { setAlert } = useAlert();
  const carried = (location.state as { alert?: AlertState } | null)?.alert ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per navigation (location.key)
  useEffect(() => setAlert(carried), [location.key]);
  return (
    <PageSuspense>
      <Outlet />
    </PageSuspense>
  );
}
