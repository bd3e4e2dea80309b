/** TanStack Query hooks of LoRaWAN meters (docs/lorawan.md), typed from the contract. */
import {
  createLnsConnection,
  createLorawanMapping,
  deleteLnsConnection,
  deleteLorawanMapping,
  getLnsConnectionHealth,
  getLorawanDeviceHealth,
  listLnsConnections,
  listLorawanDecoders,
  listLorawanDevices,
  listLorawanMappings,
  listLorawanUnmatched,
  rotateLnsConnectionKey,
  updateLnsConnection,
  updateLorawanMapping,
} from '@rodmenys/contract';
import { useEndpointMutation, useEndpointQuery } from './query';

const CONNECTIONS = [listLnsConnections, getLnsConnectionHealth] as const;

export const useLnsConnections = () => useEndpointQuery(listLnsConnections, {}, { refetchInterval: 60_000 });
export const useCreateLnsConnection = () => useEndpointMutation(createLnsConnection, CONNECTIONS);
export const useUpdateLnsConnection = () => useEndpointMutation(updateLnsConnection, CONNECTIONS);
export const useDeleteLnsConnection = () => useEndpointMutation(deleteLnsConnection, CONNECTIONS);
export const useRotateLnsKey = () => useEndpointMutation(rotateLnsConnectionKey, CONNECTIONS);
export const useLnsConnectionHealth = (id: number | null) =>
  useEndpointQuery(
    getLnsConnectionHealth,
    { params: { id: id ?? 0 } },
    { enabled: id !== null, refetchInterval: 60_000 },
  );

/** The built-in decoders change only with the product: fetched once a session. */
export const useLorawanDecoders = (enabled = true) =>
  useEndpointQuery(listLorawanDecoders, {}, { enabled, staleTime: Number.POSITIVE_INFINITY });

export const useLorawanDevices = (query: { page: number; pageSize: number; search?: string }) =>
  useEndpointQuery(listLorawanDevices, { query }, { keepPrevious: true });
export const useLorawanDeviceHealth = (id: number | null) =>
  useEndpointQuery(getLorawanDeviceHealth, { params: { id: id ?? 0 } }, { enabled: id !== null });
export const useLorawanUnmatched = (query: { page: number; pageSize: number }) =>
  useEndpointQuery(listLorawanUnmatched, { query }, { keepPrevious: true });

export const useLorawanMappings = () => useEndpointQuery(listLorawanMappings, {});
export const useCreateLorawanMapping = () => useEndpointMutation(createLorawanMapping, [listLorawanMappings]);
export const useUpdateLorawanMapping = () => useEndpointMutation(updateLorawanMapping, [listLorawanMappings]);
export const useDeleteLorawanMapping = () => useEndpointMutation(deleteLorawanMapping, [listLorawanMappings]);
