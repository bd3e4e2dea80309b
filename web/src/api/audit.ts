/** TanStack Query hook of the audit log (docs/master-data.md), typed from the contract. */
import { getAuditLog, type QueryOf } from '@rodmenys/contract';
import { useEndpointQuery } from './query';

export const useAuditLog = (query: QueryOf<typeof getAuditLog>) =>
  useEndpointQuery(getAuditLog, { query }, { keepPrevious: true });
