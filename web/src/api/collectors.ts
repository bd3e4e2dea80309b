/** TanStack Query hooks of the collector fleet (docs/collectors.md), typed from the contract. */
import {
  importMeterKeys,
  listCollectorHealth,
  listCollectorMeters,
  type MeterKeyImportResult,
  setCollectorLocations,
} from '@rodmenys/contract';
import { useQueryClient } from '@tanstack/react-query';
import { uploadFile } from './call';
import { keyOf, useEndpointMutation, useEndpointQuery } from './query';

export const useCollectorHealth = () => useEndpointQuery(listCollectorHealth, {}, { refetchInterval: 60_000 });
export const useCollectorMeters = (id: number) => useEndpointQuery(listCollectorMeters, { params: { id } });
export const useSetCollectorLocations = () =>
  useEndpointMutation(setCollectorLocations, [listCollectorHealth, listCollectorMeters]);

/** Sends a meter key file to be checked (`apply` false) or stored; the answer never holds a key. */
export function useImportMeterKeys() {
  const client = useQueryClient();
  return async (file: File, apply: boolean): Promise<MeterKeyImportResult> => {
    const result = await uploadFile(importMeterKeys, file, 'text/csv', apply ? { apply: true } : {});
    if (result.Applied) await client.invalidateQueries({ queryKey: keyOf(listCollectorMeters) });
    return result;
  };
}
