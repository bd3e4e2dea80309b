/** TanStack Query hooks of the device data screen's own endpoints, typed from the contract. */
import { getDeviceHistory, getDeviceTypesInSelection, getFlaggedDevices, type QueryOf } from '@rodmenys/contract';
import { useEndpointQuery } from './query';

export const useTypesInSelection = (query: QueryOf<typeof getDeviceTypesInSelection>, enabled = true) =>
  useEndpointQuery(getDeviceTypesInSelection, { query }, { enabled, keepPrevious: true });

export const useDeviceHistory = (id: number, query: QueryOf<typeof getDeviceHistory>) =>
  useEndpointQuery(getDeviceHistory, { params: { id }, query });

export const useFlaggedDevices = (query: QueryOf<typeof getFlaggedDevices>, enabled: boolean) =>
  useEndpointQuery(getFlaggedDevices, { query }, { enabled });
