/** TanStack Query hooks of devices over their lifetime (docs/device-lifetime.md), typed from the contract. */
import { getDueDevices, getRemoteRegister, getWalkByList, type QueryOf, setRemoteException } from '@rodmenys/contract';
import { useEndpointMutation, useEndpointQuery } from './query';

export const useDueDevices = (query: QueryOf<typeof getDueDevices>) =>
  useEndpointQuery(getDueDevices, { query }, { keepPrevious: true });
export const useRemoteRegister = () => useEndpointQuery(getRemoteRegister, {});
export const useWalkByList = (query: QueryOf<typeof getWalkByList>) =>
  useEndpointQuery(getWalkByList, { query }, { keepPrevious: true });
export const useSetRemoteException = () => useEndpointMutation(setRemoteException, [getRemoteRegister]);
