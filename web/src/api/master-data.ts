/** Hooks and the register upload of master data (docs/master-data.md), typed from the contract. */
import {
  addDevice,
  applyRegisterImport,
  type Endpoint,
  getAuditLog,
  getDeviceDataByUserId,
  getDevicesData,
  getLocation,
  previewRegisterImport,
  removeDevice,
  replaceDevice,
  searchLocations,
  updateDevice,
  updateLocation,
} from '@rodmenys/contract';
import { uploadFile } from './call';
import { useEndpointMutation, useEndpointQuery } from './query';

const changesDevices: Endpoint[] = [getLocation, getDeviceDataByUserId, getDevicesData, getAuditLog, searchLocations];

export const useLocation = (id: number | undefined) =>
  useEndpointQuery(getLocation, { params: { id: id ?? 0 } }, { enabled: !!id });
/** Buildings and flats by address words (the search above the Master data tree). */
export const useSearchLocations = (text: string, enabled: boolean) =>
  useEndpointQuery(searchLocations, { query: { text } }, { enabled, staleTime: 30_000 });
export const useUpdateLocation = () => useEndpointMutation(updateLocation, changesDevices);
export const useAddDevice = () => useEndpointMutation(addDevice, changesDevices);
export const useUpdateDevice = () => useEndpointMutation(updateDevice, changesDevices);
export const useRemoveDevice = () => useEndpointMutation(removeDevice, changesDevices);
export const useReplaceDevice = () => useEndpointMutation(replaceDevice, changesDevices);

/** Sends a register file as the raw body to the preview or apply endpoint. */
export const uploadRegister = (mode: 'preview' | 'apply', file: File) =>
  uploadFile(mode === 'preview' ? previewRegisterImport : applyRegisterImport, file, 'application/octet-stream');
