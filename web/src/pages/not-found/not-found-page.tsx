import { StatusPage } from '../../components/status-page';

/** Unknown paths and the old client's template demo routes (docs/domain.md §10). */
export default function NotFoundPage() {
  return <StatusPage status="404" texts="notFound" />;
}
