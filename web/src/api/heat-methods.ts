/** Hooks of a building's heat method (docs/heat-method.md), typed from the contract. */
import {
  getBuildingHeatMethods,
  getFlatStatement,
  getStatementDifference,
  getStatementFigures,
  setBuildingHeatMethod,
} from '@rodmenys/contract';
import { useEndpointMutation, useEndpointQuery } from './query';

export const useBuildingHeatMethods = (id: number) => useEndpointQuery(getBuildingHeatMethods, { params: { id } });
// A new version changes the live statements of its months.
export const useSetBuildingHeatMethod = () =>
  useEndpointMutation(setBuildingHeatMethod, [
    getBuildingHeatMethods,
    getStatementFigures,
    getFlatStatement,
    getStatementDifference,
  ]);
