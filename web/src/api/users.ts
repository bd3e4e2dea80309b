/** TanStack Query hooks of the user endpoints (sign-in, accounts, rights), typed from the contract. */
import {
  authenticate,
  deleteUser,
  getAllUsers,
  getUser,
  getUserRights,
  logout,
  type QueryOf,
  register,
  setUserRights,
  signOutEverywhere,
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

export const useUserRights = (id: number | undefined) =>
  useEndpointQuery(getUserRights, { params: { id: id ?? 0 } }, { enabled: !!id });
export const useSetUserRights = () =>
  useEndpointMutation(setUserRights, [getUserRights, userLocationRights, getAllUsers]);
