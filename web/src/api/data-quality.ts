/** TanStack Query hooks of the data-quality endpoints (docs/data-quality.md), typed from the contract. */
import {
  acknowledgeAnomaly,
  clearMonthEnd,
  countAnomalies,
  getDigestSubscription,
  getMonthEnds,
  getUnmeasuredMonthEnds,
  listAnomalies,
  listDqSettings,
  listJobs,
  type QueryOf,
  type ResponseOf,
  resolveAnomaly,
  runJob,
  setMonthEnd,
  updateDigestSubscription,
  updateDqSetting,
} from '@rodmenys/contract';
import { useEndpointMutation, useEndpointQuery } from './query';

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
// A schedule setting reschedules its job: the job list goes stale too.
export const useUpdateDqSetting = () => useEndpointMutation(updateDqSetting, [listDqSettings, listJobs]);
/** The job list, read again every 30 s, or every 3 s while `busy` says a run is waiting or going on. */
export const useJobs = (
  enabled: boolean,
  busy: (rows: ResponseOf<typeof listJobs> | undefined) => boolean = () => false,
) => useEndpointQuery(listJobs, {}, { enabled, refetchInterval: (q) => (busy(q.state.data) ? 3_000 : 30_000) });
export const useRunJob = () => useEndpointMutation(runJob, [listJobs]);
export const useSetMonthEnd = () => useEndpointMutation(setMonthEnd, [getMonthEnds, getUnmeasuredMonthEnds]);
export const useClearMonthEnd = () => useEndpointMutation(clearMonthEnd, [getMonthEnds, getUnmeasuredMonthEnds]);
