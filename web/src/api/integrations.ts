/** TanStack Query hooks of the integration endpoints (docs/integration.md), typed from the contract. */
import {
  createBillingReceiver,
  createIntegrationKey,
  disableBillingReceiver,
  listBillingDeliveries,
  listBillingReceivers,
  listIntegrationKeys,
  revokeIntegrationKey,
} from '@rodmenys/contract';
import { useEndpointMutation, useEndpointQuery } from './query';

export const useIntegrationKeys = () => useEndpointQuery(listIntegrationKeys, {});
export const useCreateIntegrationKey = () => useEndpointMutation(createIntegrationKey, [listIntegrationKeys]);
export const useRevokeIntegrationKey = () => useEndpointMutation(revokeIntegrationKey, [listIntegrationKeys]);
export const useBillingReceivers = (enabled: boolean) => useEndpointQuery(listBillingReceivers, {}, { enabled });
export const useCreateBillingReceiver = () => useEndpointMutation(createBillingReceiver, [listBillingReceivers]);
export const useDisableBillingReceiver = () =>
  useEndpointMutation(disableBillingReceiver, [listBillingReceivers, listBillingDeliveries]);
export const useBillingDeliveries = (enabled: boolean) =>
  useEndpointQuery(listBillingDeliveries, { query: {} }, { enabled, refetchInterval: 30_000 });
