/** TanStack Query hooks of the degree-day endpoints (docs/data-quality.md), typed from the contract. */
import { type DegreeDaysImportResult, importDegreeDays, listDegreeDays, setDegreeDays } from '@rodmenys/contract';
import { useQueryClient } from '@tanstack/react-query';
import { uploadFile } from './call';
import { keyOf, useEndpointMutation, useEndpointQuery } from './query';

export const useDegreeDays = (year: number) =>
  useEndpointQuery(listDegreeDays, { query: { year } }, { keepPrevious: true });
export const useSetDegreeDays = () => useEndpointMutation(setDegreeDays, [listDegreeDays]);
/** Imports a degree-days CSV file (all or nothing), then refreshes the table. */
export function useUploadDegreeDays() {
  const client = useQueryClient();
  return async (file: File): Promise<DegreeDaysImportResult> => {
    const result = await uploadFile(importDegreeDays, file, 'text/csv');
    await client.invalidateQueries({ queryKey: keyOf(listDegreeDays) });
    return result;
  };
}
