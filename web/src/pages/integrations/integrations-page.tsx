import { isOperator } from '@rodmenys/contract';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../session';
import { Deliveries } from './deliveries';
import { IntegrationKeys } from './integration-keys';
import { Receivers } from './receivers';

/**
 * The billing system's access (docs/integration.md): integration keys (groups 1 and 2, group 2 within its
 * scope) and, for group 1, the receivers told when a month is published and their delivery log.
 */
export default function IntegrationsPage() {
  const { t } = useTranslation();
  const user = useSession();
  const operator = !!user && isOperator(user.GroupId);
  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('nav.integrations')}
      </Typography.Title>
      <IntegrationKeys />
      {operator && <Receivers />}
      {operator && <Deliveries />}
    </>
  );
}
