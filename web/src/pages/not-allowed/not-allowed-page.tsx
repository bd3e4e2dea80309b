import { StatusPage } from '../../components/status-page';

/** What every screen the user's group may not open shows (web/src/access.ts): one page, one message. */
export function NotAllowedPage() {
  return <StatusPage status="403" texts="notAllowed" />;
}
