/** One TanStack Query hook per API endpoint, typed from the contract. */
import {
  type AddressLevel,
  authenticate,
  createCollectorKey,
  deleteUser,
  getAllObjects,
  getAllUsers,
  getDeviceDataByUserId,
  getDevicesByLocationId,
  getDevicesByParams,
  getDevicesData,
  getDeviceTypeLookUp,
  getLocationTree,
  getUser,
  getUserObjects,
  getUserRights,
  listCollectorKeys,
  listUnmatchedMeters,
  logout,
  type QueryOf,
  register,
  revokeCollectorKey,
  setUserRights,
  signOutEverywhere,
  typeaheadEndpoints,
  updateUser,
  userLocationRights,
} from '@rodmenys/contract';
import { useEndpointMutation, useEndpointQuery } from './query';

export const useAuthenticate = () => useEndpointMutation(authenticate);
export const useRegister = () => useEndpointMutation(register);
export const useLogout = () => useEndpointMutation(logout);

export const useUser = (id: number) => useEndpointQuery(getUser, { params: { id } });
export const useUsers = (query: QueryOf<typeof getAllUsers>) =>
  useEndpointQuery(getAllUsers, { query }, { keepPrevious: true });
export const useUpdateUser = () => useEndpointMutation(updateUser, [getAllUsers, getUser]);
export const useDeleteUser = () => useEndpointMutation(deleteUser, [getAllUsers]);
export const useSignOutEverywhere = () => useEndpointMutation(signOutEverywhere);

export const useDeviceDataByUserId = () => useEndpointQuery(getDeviceDataByUserId, {});
export const useDeviceTypes = () => useEndpointQuery(getDeviceTypeLookUp, {}, { staleTime: Number.POSITIVE_INFINITY });
export const useDevicesData = (query: QueryOf<typeof getDevicesData>, enabled = true) =>
  useEndpointQuery(getDevicesData, { query }, { enabled });
export const useDevicesByParams = (query: QueryOf<typeof getDevicesByParams>) =>
  useEndpointQuery(getDevicesByParams, { query });
export const useDevicesByLocationId = (locationId: number | undefined) =>
  useEndpointQuery(getDevicesByLocationId, { query: { locationId: locationId ?? 0 } }, { enabled: !!locationId });
export const useUserLocationRights = (userId: number) => useEndpointQuery(userLocationRights, { params: { userId } });

export const useAllObjects = (query: QueryOf<typeof getAllObjects>) =>
  useEndpointQuery(getAllObjects, { query }, { keepPrevious: true });
export const useUserObjects = (query: QueryOf<typeof getUserObjects>) =>
  useEndpointQuery(getUserObjects, { query }, { keepPrevious: true });
export const useTypeahead = (level: AddressLevel, search: string, enabled: boolean) =>
  useEndpointQuery(typeaheadEndpoints[level], { query: { search } }, { enabled, staleTime: 60_000 });
export const useLocationTree = (maxLevel: number, enabled = true) =>
  useEndpointQuery(getLocationTree, { query: { maxLevel } }, { enabled, staleTime: 5 * 60_000 });

export const useUserRights = (id: number | undefined) =>
  useEndpointQuery(getUserRights, { params: { id: id ?? 0 } }, { enabled: !!id });
export const useSetUserRights = () =>
  useEndpointMutation(setUserRights, [getUserRights, userLocationRights, getAllUsers]);

export const useCollectorKeys = () => useEndpointQuery(listCollectorKeys, {});
export const useCreateCollectorKey = () => useEndpointMutation(createCollectorKey, [listCollectorKeys]);
export const useRevokeCollectorKey = () => useEndpointMutation(revokeCollectorKey, [listCollectorKeys]);
export const useUnmatchedMeters = (query: QueryOf<typeof listUnmatchedMeters>) =>
  useEndpointQuery(listUnmatchedMeters, { query }, { keepPrevious: true });
