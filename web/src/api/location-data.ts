/** TanStack Query hooks of the location endpoints (object lists, type-ahead, the location tree), typed from the contract. */
import {
  type AddressLevel,
  getAllObjects,
  getLocationTree,
  getUserObjects,
  type QueryOf,
  typeaheadEndpoints,
} from '@rodmenys/contract';
import { useEndpointQuery } from './query';

export const useAllObjects = (query: QueryOf<typeof getAllObjects>) =>
  useEndpointQuery(getAllObjects, { query }, { keepPrevious: true });
export const useUserObjects = (query: QueryOf<typeof getUserObjects>) =>
  useEndpointQuery(getUserObjects, { query }, { keepPrevious: true });
export const useTypeahead = (level: AddressLevel, search: string, enabled: boolean) =>
  useEndpointQuery(typeaheadEndpoints[level], { query: { search } }, { enabled, staleTime: 60_000 });
export const useLocationTree = (maxLevel: number, enabled = true) =>
  useEndpointQuery(getLocationTree, { query: { maxLevel } }, { enabled, staleTime: 5 * 60_000 });
