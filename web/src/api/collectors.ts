/** TanStack Query hooks of the collector fleet (docs/collectors.md), typed from the contract. */
import {
  importMeterKeys,
  listCollectorHealth,
  listCollectorMeters,
  type MeterKeyImportResult,
  setCollectorLocations,
} from '@rodmenys/contract';
import { useQueryClient } from '@tanstack/react-query';
import { API_BASE, ApiError, authHeaders, forgetEndedSession } from './call';
import { keyOf, useEndpointMutation, useEndpointQuery } from './query';

export const useCollectorHealth = () => useEndpointQuery(listCollectorHealth, {}, { refetchInterval: 60_000 });
export const useCollectorMeters = (id: number) => useEndpointQuery(listCollectorMeters, { params: { id } });
export const useSetCollectorLocations = () =>
  useEndpointMutation(setCollectorLocations, [listCollectorHealth, listCollectorMeters]);

/** Sends a meter key file to be checked (`apply` false) or stored; the answer never holds a key. */
export function useImportMeterKeys() {
  const client = useQueryClient();
  return async (file: File, apply: boolean): Promise<MeterKeyImportResult> => {
    let response: Response;
    try {
      response = await fetch(`${API_BASE}${importMeterKeys.path}${apply ? '?apply=true' : ''}`, {
        method: 'POST',
        headers: { ...authHeaders(), 'Content-Type': 'text/csv' },
        body: file,
      });
    } catch (error) {
      throw new ApiError(0, error instanceof Error ? error.message : String(error));
    }
    const body = await response.json().catch(() => undefined);
    if (!response.ok) {
      forgetEndedSession(importMeterKeys, response.status, body?.code);
      throw ApiError.fromBody(response.status, body, response.statusText);
    }
    if (apply) await client.invalidateQueries({ queryKey: keyOf(listCollectorMeters) });
    return body as MeterKeyImportResult;
  };
}
