/** TanStack Query hooks of the collector endpoints (keys, unmatched meters), typed from the contract. */
import {
  createCollectorKey,
  listCollectorHealth,
  listCollectorKeys,
  listCollectorMeters,
  listUnmatchedMeters,
  type QueryOf,
  revokeCollectorKey,
} from '@rodmenys/contract';
import { useEndpointMutation, useEndpointQuery } from './query';

export const useCollectorKeys = () => useEndpointQuery(listCollectorKeys, {});
// A key is a row of the fleet's health table too: it appears (or leaves) there at once, not at the next minute's poll.
export const useCreateCollectorKey = () =>
  useEndpointMutation(createCollectorKey, [listCollectorKeys, listCollectorHealth]);
export const useRevokeCollectorKey = () =>
  useEndpointMutation(revokeCollectorKey, [listCollectorKeys, listCollectorHealth, listCollectorMeters]);
export const useUnmatchedMeters = (query: QueryOf<typeof listUnmatchedMeters>) =>
  useEndpointQuery(listUnmatchedMeters, { query }, { keepPrevious: true });
