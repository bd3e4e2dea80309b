/** TanStack Query hooks of the device endpoints (readings, types, a user's devices), typed from the contract. */
import {
  getDeviceDataByUserId,
  getDevicesByLocationId,
  getDevicesByParams,
  getDevicesData,
  getDeviceTypeLookUp,
  type QueryOf,
  userLocationRights,
} from '@rodmenys/contract';
import { useLanguage } from '../i18n';
import { useEndpointQuery } from './query';

export const useDeviceDataByUserId = () => useEndpointQuery(getDeviceDataByUserId, {});
export const useDeviceTypes = () => useEndpointQuery(getDeviceTypeLookUp, {}, { staleTime: Number.POSITIVE_INFINITY });

/** A device type's name in the UI language, by its id (the id itself while the names are not known). */
export function useDeviceTypeName() {
  const language = useLanguage();
  const types = useDeviceTypes();
  return (id: number | string) => {
    const type = types.data?.find((ty) => ty.Id === Number(id));
    return type ? (language === 'en' ? type.DeviceTypeNameEn : type.DeviceTypeName) : String(id);
  };
}
export const useDevicesData = (query: QueryOf<typeof getDevicesData>, enabled = true) =>
  useEndpointQuery(getDevicesData, { query }, { enabled });
export const useDevicesByParams = (query: QueryOf<typeof getDevicesByParams>) =>
  useEndpointQuery(getDevicesByParams, { query });
export const useDevicesByLocationId = (locationId: number | undefined) =>
  useEndpointQuery(getDevicesByLocationId, { query: { locationId: locationId ?? 0 } }, { enabled: !!locationId });
export const useUserLocationRights = (userId: number) => useEndpointQuery(userLocationRights, { params: { userId } });
