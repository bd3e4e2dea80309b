/** TanStack Query hooks of the back office's declarations (docs/declared-readings.md), typed from the contract. */
import {
  decideDeclaration,
  enterPhoneDeclaration,
  listDeclarationDevices,
  listDeclarations,
  type QueryOf,
} from '@rodmenys/contract';
import { useEndpointMutation, useEndpointQuery } from './query';

export const useDeclarations = (query: QueryOf<typeof listDeclarations>, enabled = true) =>
  useEndpointQuery(listDeclarations, { query }, { keepPrevious: true, enabled });
export const useDeclarationDevices = (query: QueryOf<typeof listDeclarationDevices>) =>
  useEndpointQuery(listDeclarationDevices, { query }, { keepPrevious: true });
export const useEnterPhoneDeclaration = () =>
  useEndpointMutation(enterPhoneDeclaration, [listDeclarations, listDeclarationDevices]);
export const useDecideDeclaration = () =>
  useEndpointMutation(decideDeclaration, [listDeclarations, listDeclarationDevices]);
