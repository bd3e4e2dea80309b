import { ID_PATTERN } from '@rodmenys/contract';
import { badRequest } from '../errors.js';

const ONE_ID = new RegExp(`^(${ID_PATTERN})$`);

/**
 * The ids of an id list (`12,40`, the contract's IdList, or repeated parameters joined by
 * the route), each once; null when none is given. An id outside 1..2147483647 is a 400
 * naming the field (the schema refuses it first; a command line has no schema).
 */
export function parseIdList(value: string | undefined, field = 'locationParentId'): number[] | null {
  if (value === undefined || value === '') return null;
  const parts = value.split(',');
  if (!parts.every((part) => ONE_ID.test(part))) throw badRequest('invalid', { field }, field);
  return [...new Set(parts.map(Number))];
}
