import { seesEverything } from '@rodmenys/contract';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserRights } from '../api/users';
import { useSession } from '../session';

/**
 * For an account without any location (a new self-registered one): what happens next, instead
 * of empty pages. Group 1 sees everything and never waits.
 */
export function NoAccessNotice() {
  const { t } = useTranslation();
  const user = useSession();
  const waits = !!user && !seesEverything(user.GroupId);
  const rights = useUserRights(waits ? user.Id : undefined);
  if (!waits || !rights.data || rights.data.length > 0) return null;
  return (
    <Alert
      type="info"
      showIcon
      className="no-access-notice"
      role="status"
      title={t('access.waitingTitle')}
      description={t('access.waitingText')}
      style={{ marginBottom: 16 }}
    />
  );
}
