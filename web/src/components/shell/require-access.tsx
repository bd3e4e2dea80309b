import type { ReactNode } from 'react';
import { canOpen, type Screen } from '../../access';
import { NotAllowedPage } from '../../pages/not-allowed/not-allowed-page';
import { useSession } from '../../session';

/** A screen of the route table behind the access table: the screen, or the "not allowed" page. */
export function RequireAccess({ screen, children }: { screen: Screen; children: ReactNode }) {
  const user = useSession();
  return canOpen(user, screen) ? children : <NotAllowedPage />;
}
