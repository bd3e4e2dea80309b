/** TanStack Query hooks of the statement endpoints (docs/statements.md), typed from the contract. */
import {
  getFlatStatement,
  getStatementDifference,
  getStatementFigures,
  getStatementNotification,
  listBillingDeliveries,
  listOccupantDeliveries,
  listStatementDeliveries,
  publishStatements,
  type QueryOf,
  updateStatementNotification,
} from '@rodmenys/contract';
import { useEndpointMutation, useEndpointQuery } from './query';

export const useStatementFigures = (query: QueryOf<typeof getStatementFigures>) =>
  useEndpointQuery(getStatementFigures, { query }, { keepPrevious: true });
export const useFlatStatement = (flatId: number | null, month: string) =>
  useEndpointQuery(getFlatStatement, { params: { flatId: flatId ?? 0 }, query: { month } }, { enabled: !!flatId });
export const useStatementDifference = (query: QueryOf<typeof getStatementDifference>, enabled: boolean) =>
  useEndpointQuery(getStatementDifference, { query }, { enabled });
// Publishing queues the occupants' notices and letters and the billing receivers' deliveries in
// its transaction (docs/delivery.md): their logs show them at once, not at their next 30-second poll.
export const usePublishStatements = () =>
  useEndpointMutation(publishStatements, [
    getStatementFigures,
    getFlatStatement,
    getStatementDifference,
    listStatementDeliveries,
    listOccupantDeliveries,
    listBillingDeliveries,
  ]);
export const useStatementDeliveries = (month: string, enabled: boolean) =>
  useEndpointQuery(listStatementDeliveries, { query: { month } }, { enabled, refetchInterval: 30_000 });
export const useStatementNotification = () => useEndpointQuery(getStatementNotification, {});
export const useUpdateStatementNotification = () =>
  useEndpointMutation(updateStatementNotification, [getStatementNotification]);
