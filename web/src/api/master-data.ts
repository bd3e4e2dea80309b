/** Hooks and file helpers for master data (issue 6) and the audit log, typed from the contract. */
import {
  addDevice,
  type Endpoint,
  getAuditLog,
  getDeviceDataByUserId,
  getDevicesData,
  getLocation,
  type ImportReport,
  listLocationChildren,
  type QueryOf,
  removeDevice,
  replaceDevice,
  searchClients,
  setFlatClient,
  updateDevice,
  updateLocation,
} from '@rodmenys/contract';
import { getSession } from '../storage';
import { API_BASE, ApiError } from './call';
import { useEndpointMutation, useEndpointQuery } from './query';

const changesDevices: Endpoint[] = [
  getLocation,
  listLocationChildren,
  getDeviceDataByUserId,
  getDevicesData,
  getAuditLog,
];

export const useLocationChildren = (parentId: number | undefined) =>
  useEndpointQuery(listLocationChildren, { query: { parentId } });
export const useLocation = (id: number | undefined) =>
  useEndpointQuery(getLocation, { params: { id: id ?? 0 } }, { enabled: !!id });
export const useUpdateLocation = () => useEndpointMutation(updateLocation, changesDevices);
export const useSetFlatClient = () => useEndpointMutation(setFlatClient, changesDevices);
export const useSearchClients = (search: string) =>
  useEndpointQuery(searchClients, { query: { search } }, { staleTime: 10_000 });
export const useAddDevice = () => useEndpointMutation(addDevice, changesDevices);
export const useUpdateDevice = () => useEndpointMutation(updateDevice, changesDevices);
export const useRemoveDevice = () => useEndpointMutation(removeDevice, changesDevices);
export const useReplaceDevice = () => useEndpointMutation(replaceDevice, changesDevices);
export const useAuditLog = (query: QueryOf<typeof getAuditLog>) =>
  useEndpointQuery(getAuditLog, { query }, { keepPrevious: true });

const authHeaders = (): Record<string, string> => {
  const token = getSession()?.Token;
  return token ? { Authorization: `Bearer ${token}` } : {};
};

async function failure(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as { message?: string; errors?: ApiError['errors'] };
  return new ApiError(response.status, body.message || response.statusText, body.errors);
}

/** Sends a register file as the raw body to the preview or apply endpoint. */
export async function uploadRegister(mode: 'preview' | 'apply', file: File): Promise<ImportReport> {
  const endpoint = mode === 'preview' ? '/masterData/register/preview' : '/masterData/register/apply';
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${endpoint}`, {
      method: 'POST',
      headers: {
        ...authHeaders(),
        'Content-Type': 'application/octet-stream',
        'X-File-Name': encodeURIComponent(file.name),
      },
      body: file,
    });
  } catch (error) {
    throw new ApiError(0, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) throw await failure(response);
  return (await response.json()) as ImportReport;
}

/** Downloads a file endpoint (template, export) with the bearer token and saves it under `fileName`. */
export async function downloadFile(path: string, query: Record<string, string | undefined>, fileName: string) {
  const search = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => !!e[1]));
  const response = await fetch(`${API_BASE}${path}?${search}`, { headers: authHeaders() });
  if (!response.ok) throw await failure(response);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
