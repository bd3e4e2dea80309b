/** TanStack Query hooks of the data-quality endpoints (docs/data-quality.md), typed from the contract. */
import {
  acknowledgeAnomaly,
  clearMonthEnd,
  countAnomalies,
  type DegreeDaysImportResult,
  getDigestSubscription,
  getMonthEnds,
  getUnmeasuredMonthEnds,
  importDegreeDays,
  listAnomalies,
  listDegreeDays,
  listDqSettings,
  listJobs,
  type QueryOf,
  resolveAnomaly,
  setDegreeDays,
  setMonthEnd,
  updateDigestSubscription,
  updateDqSetting,
} from '@rodmenys/contract';
import { useQueryClient } from '@tanstack/react-query';
import { uploadFile } from './master-data';
import { keyOf, useEndpointMutation, useEndpointQuery } from './query';

export const useAnomalies = (query: QueryOf<typeof listAnomalies>) =>
  useEndpointQuery(listAnomalies, { query }, { keepPrevious: true });
export const useAnomalyCounts = (query: QueryOf<typeof countAnomalies>) =>
  useEndpointQuery(countAnomalies, { query }, { keepPrevious: true });
export const useAcknowledgeAnomaly = () => useEndpointMutation(acknowledgeAnomaly, [listAnomalies, countAnomalies]);
export const useResolveAnomaly = () => useEndpointMutation(resolveAnomaly, [listAnomalies, countAnomalies]);
export const useMonthEnds = (deviceId: number, query: QueryOf<typeof getMonthEnds>, enabled = true) =>
  useEndpointQuery(getMonthEnds, { params: { deviceId }, query }, { enabled });
export const useUnmeasuredMonthEnds = (query: QueryOf<typeof getUnmeasuredMonthEnds>, enabled: boolean) =>
  useEndpointQuery(getUnmeasuredMonthEnds, { query }, { enabled });
export const useDigestSubscription = () => useEndpointQuery(getDigestSubscription, {});
export const useUpdateDigestSubscription = () => useEndpointMutation(updateDigestSubscription, [getDigestSubscription]);
export const useDqSettings = (enabled: boolean) => useEndpointQuery(listDqSettings, {}, { enabled });
export const useUpdateDqSetting = () => useEndpointMutation(updateDqSetting, [listDqSettings]);
export const useJobs = (enabled: boolean) => useEndpointQuery(listJobs, {}, { enabled, refetchInterval: 30_000 });
export const useSetMonthEnd = () => useEndpointMutation(setMonthEnd, [getMonthEnds, getUnmeasuredMonthEnds]);
export const useClearMonthEnd = () => useEndpointMutation(clearMonthEnd, [getMonthEnds, getUnmeasuredMonthEnds]);

export const useDegreeDays = (year: number) =>
  useEndpointQuery(listDegreeDays, { query: { year } }, { keepPrevious: true });
export const useSetDegreeDays = () => useEndpointMutation(setDegreeDays, [listDegreeDays]);
/** Imports a degree-days CSV file (all or nothing), then refreshes the table. */
export function useUploadDegreeDays() {
  const client = useQueryClient();
  return async (file: File): Promise<DegreeDaysImportResult> => {
    const result = await uploadFile<DegreeDaysImportResult>(importDegreeDays, file, 'text/csv');
    await client.invalidateQueries({ queryKey: keyOf(listDegreeDays) });
    return result;
  };
}
