import type { LocationRow } from '@rodmenys/contract';

/** "Street 12, City" for a building row. */
export const addressOf = (row: Pick<LocationRow, 'Street' | 'Building' | 'City'>) =>
  [[row.Street, row.Building].filter(Boolean).join(' '), row.City].filter(Boolean).join(', ');
