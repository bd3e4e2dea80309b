import type { DeviceTypeId, GroupId } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/db.js';
import { makeDevice, makePlace, makeReadings, makeSignedIn, type ReadingInput, type SignedIn } from './factories.js';

/**
 * @deprecated The helpers of the first test files, kept as thin wrappers while test
 * files written beside the harness land; new tests use factories.ts.
 */

export { lastSeenMismatches } from './factories.js';

/** @deprecated makePlace / makeBuilding / makeFlat. */
export const createPath = async (db: Queryable, names: string[], flatOrder?: number): Promise<number[]> =>
  (await makePlace(db, names, flatOrder)).path;

/** @deprecated makeBuilding({ city, street, number }). */
export const address = (city: string, street: string, building: string, flat?: string) => [
  'Lietuva',
  `${city} apskritis`,
  `${city} m. sav.`,
  city,
  street,
  building,
  ...(flat ? [flat] : []),
];

/** @deprecated makeDevice(db, place, overrides) with DeviceOverrides. */
export interface DeviceInput {
  typeId: DeviceTypeId;
  locationId: number;
  code: string;
  ratingFactor?: number | null;
  description?: string;
  installedAt?: string | null;
  removedAt?: string | null;
}

/** @deprecated makeDevice(db, place, overrides). */
export const createDevice = (db: Queryable, d: DeviceInput) => makeDevice(db, d.locationId, d);

/** @deprecated makeReadings. */
export const addReadings = (db: Queryable, deviceId: number, readings: ReadingInput[]) =>
  makeReadings(db, deviceId, readings);

/** @deprecated makeSignedIn(app, overrides). */
export const createUser = (
  app: FastifyInstance,
  options: { groupId: GroupId; rights?: number[]; username?: string; password?: string },
): Promise<SignedIn> => makeSignedIn(app, options);
