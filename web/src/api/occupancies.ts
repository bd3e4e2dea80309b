/** Hooks for a flat's occupants and moving-day values (docs/occupancies.md), typed from the contract. */
import {
  clearMoveValue,
  getAuditLog,
  getDeviceMoveValues,
  getFlatOccupancies,
  getLocation,
  getOccupantAccess,
  recordMove,
  reissueOccupantAccess,
  revokeOccupantAccess,
  setMoveValue,
  updateOccupancy,
} from '@rodmenys/contract';
import { useEndpointMutation, useEndpointQuery } from './query';

const changesOccupancies = [getFlatOccupancies, getDeviceMoveValues, getLocation, getAuditLog];

export const useFlatOccupancies = (id: number) => useEndpointQuery(getFlatOccupancies, { params: { id } });
export const useDeviceMoveValues = (deviceId: number | undefined) =>
  useEndpointQuery(getDeviceMoveValues, { params: { deviceId: deviceId ?? 0 } }, { enabled: !!deviceId });
export const useRecordMove = () => useEndpointMutation(recordMove, changesOccupancies);
export const useUpdateOccupancy = () => useEndpointMutation(updateOccupancy, changesOccupancies);
export const useSetMoveValue = () => useEndpointMutation(setMoveValue, changesOccupancies);
export const useClearMoveValue = () => useEndpointMutation(clearMoveValue, changesOccupancies);

// The occupant's link and letter code (docs/occupant-access.md, "The back office").
const changesAccess = [getOccupantAccess, getAuditLog];
export const useOccupantAccess = (id: number) => useEndpointQuery(getOccupantAccess, { params: { id } });
export const useRevokeOccupantAccess = () => useEndpointMutation(revokeOccupantAccess, changesAccess);
export const useReissueOccupantAccess = () => useEndpointMutation(reissueOccupantAccess, changesAccess);
