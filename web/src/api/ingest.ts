/** TanStack Query hooks of the collector endpoints (keys, unmatched meters), typed from the contract. */
import {
  createCollectorKey,
  listCollectorKeys,
  listUnmatchedMeters,
  type QueryOf,
  revokeCollectorKey,
} from '@rodmenys/contract';
import { useEndpointMutation, useEndpointQuery } from './query';

export const useCollectorKeys = () => useEndpointQuery(listCollectorKeys, {});
export const useCreateCollectorKey = () => useEndpointMutation(createCollectorKey, [listCollectorKeys]);
export const useRevokeCollectorKey = () => useEndpointMutation(revokeCollectorKey, [listCollectorKeys]);
export const useUnmatchedMeters = (query: QueryOf<typeof listUnmatchedMeters>) =>
  useEndpointQuery(listUnmatchedMeters, { query }, { keepPrevious: true });
