/** TanStack Query hooks of exchange campaigns (docs/device-lifetime.md, "Exchange campaigns"), typed from the contract. */
import {
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  planCampaignVisit,
  recordNoAccess,
  sendCampaignNotices,
  updateCampaign,
} from '@rodmenys/contract';
import { useEndpointMutation, useEndpointQuery } from './query';

export const useCampaigns = () => useEndpointQuery(listCampaigns, {});
export const useCampaign = (id: number) => useEndpointQuery(getCampaign, { params: { id } });
const changes = [listCampaigns, getCampaign] as const;
export const useCreateCampaign = () => useEndpointMutation(createCampaign, changes);
export const useUpdateCampaign = () => useEndpointMutation(updateCampaign, changes);
export const useDeleteCampaign = () => useEndpointMutation(deleteCampaign, [listCampaigns]);
export const usePlanVisit = () => useEndpointMutation(planCampaignVisit, changes);
export const useSendNotices = () => useEndpointMutation(sendCampaignNotices, changes);
export const useRecordNoAccess = () => useEndpointMutation(recordNoAccess, changes);
