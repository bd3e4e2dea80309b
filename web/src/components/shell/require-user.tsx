import { Navigate, Outlet } from 'react-router';
import { useSession } from '../../session';

/** The route guard: every screen but /login and /register needs a signed-in user. */
export function RequireUser() {
  const user = useSession();
  return user ? <Outlet /> : <Navigate to="/login" replace />;
}
