/** TanStack Query hooks of the occupants' delivery log (docs/delivery.md), typed from the contract. */
import { listOccupantDeliveries, type QueryOf } from '@rodmenys/contract';
import { useEndpointQuery } from './query';

export const useOccupantDeliveries = (query: QueryOf<typeof listOccupantDeliveries>, enabled: boolean) =>
  useEndpointQuery(listOccupantDeliveries, { query }, { enabled, refetchInterval: 30_000 });
