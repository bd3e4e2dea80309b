/** Hooks and file helpers for master data (docs/master-data.md) and the audit log, typed from the contract. */
import {
  addDevice,
  applyRegisterImport,
  type Endpoint,
  getAuditLog,
  getDeviceDataByUserId,
  getDevicesData,
  getLocation,
  type ImportReport,
  previewRegisterImport,
  type QueryOf,
  removeDevice,
  replaceDevice,
  setFlatClient,
  updateDevice,
  updateLocation,
} from '@rodmenys/contract';
import { downloadBlob } from '../components/export';
import { API_BASE, ApiError, authHeaders, forgetEndedSession, queryString, retryAfterOf } from './call';
import { useEndpointMutation, useEndpointQuery } from './query';

const changesDevices: Endpoint[] = [getLocation, getDeviceDataByUserId, getDevicesData, getAuditLog];

export const useLocation = (id: number | undefined) =>
  useEndpointQuery(getLocation, { params: { id: id ?? 0 } }, { enabled: !!id });
export const useUpdateLocation = () => useEndpointMutation(updateLocation, changesDevices);
export const useSetFlatClient = () => useEndpointMutation(setFlatClient, changesDevices);
export const useAddDevice = () => useEndpointMutation(addDevice, changesDevices);
export const useUpdateDevice = () => useEndpointMutation(updateDevice, changesDevices);
export const useRemoveDevice = () => useEndpointMutation(removeDevice, changesDevices);
export const useReplaceDevice = () => useEndpointMutation(replaceDevice, changesDevices);
export const useAuditLog = (query: QueryOf<typeof getAuditLog>) =>
  useEndpointQuery(getAuditLog, { query }, { keepPrevious: true });

async function failure(endpoint: Endpoint, response: Response): Promise<ApiError> {
  forgetEndedSession(endpoint, response.status);
  return ApiError.fromBody(
    response.status,
    await response.json().catch(() => undefined),
    response.statusText,
    retryAfterOf(response),
  );
}

/** Sends a file as the raw body of an upload endpoint; the answer is the endpoint's JSON. */
export async function uploadFile<T>(endpoint: Endpoint, file: File, contentType: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${endpoint.path}`, {
      method: 'POST',
      headers: { ...authHeaders(), 'Content-Type': contentType, 'X-File-Name': encodeURIComponent(file.name) },
      body: file,
    });
  } catch (error) {
    throw new ApiError(0, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) throw await failure(endpoint, response);
  return (await response.json()) as T;
}

/** Sends a register file as the raw body to the preview or apply endpoint. */
export const uploadRegister = (mode: 'preview' | 'apply', file: File) =>
  uploadFile<ImportReport>(
    mode === 'preview' ? previewRegisterImport : applyRegisterImport,
    file,
    'application/octet-stream',
  );

/** Downloads a file endpoint (template, export) with the bearer token and saves it under `fileName`. */
export async function downloadFile<E extends Endpoint>(endpoint: E, query: QueryOf<E>, fileName: string) {
  const response = await fetch(`${API_BASE}${endpoint.path}${queryString(query as object)}`, {
    headers: authHeaders(),
  });
  if (!response.ok) throw await failure(endpoint, response);
  downloadBlob(await response.blob(), fileName);
}
