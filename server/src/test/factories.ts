import { DEVICE_TYPE, type DeviceRole, type DeviceTypeId, GROUP, type GroupId } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/db.js';
import { makePlace, type Place } from '../services/locations/make-place.js';
import { registerUser } from '../services/users/register-user.js';

/**
 * World factories for tests: each makes one real row (or a few) through plain SQL
 * on the real schema, with defaults for everything the test does not care about
 * and overrides for what it does. Names that must be unique get a counter.
 */

let counter = 0;
const next = () => ++counter;

export { makePlace, type Place } from '../services/locations/make-place.js';

export interface BuildingOverrides {
  country?: string;
  /** The city; its county and municipality are named after it ("Kaunas apskritis", "Kaunas m. sav."). */
  city?: string;
  street?: string;
  /** The building's number, its name at level 6 (default: a new one). */
  number?: string;
}

/** A building in Lietuva, Vilnius, Gedimino pr. unless overridden; found if it exists. */
export function makeBuilding(db: Queryable, overrides: BuildingOverrides = {}): Promise<Place> {
  const { country = 'Lietuva', city = 'Vilnius', street = 'Gedimino pr.', number = `B${next()}` } = overrides;
  return makePlace(db, [country, `${city} apskritis`, `${city} m. sav.`, city, street, number]);
}

export interface FlatOverrides {
  /** The flat's name (default: a new one). */
  name?: string;
  /** Its place in the building's order of flats. */
  order?: number;
}

/** A flat of a building. */
export function makeFlat(db: Queryable, building: Place, overrides: FlatOverrides = {}): Promise<Place> {
  return makePlace(db, [...building.names, overrides.name ?? `F${next()}`], overrides.order);
}

export interface DeviceOverrides {
  /** Device type (default 1, an allocator). */
  typeId?: DeviceTypeId;
  /** The serial number (default: a new one). */
  code?: string;
  /** The radio id (default `C-` and the serial). */
  counterCode?: string | null;
  ratingFactor?: number | null;
  description?: string;
  installedAt?: string | null;
  removedAt?: string | null;
  /** A building-level role in the heat split (docs/heat-method.md, "Devices"). */
  role?: DeviceRole | null;
}

/** A device at a place (a flat, or a building for type 11); returns its id. */
export async function makeDevice(db: Queryable, at: Place | number, overrides: DeviceOverrides = {}): Promise<number> {
  const code = overrides.code ?? `DEV-${next()}`;
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO device (device_type_id, location_id, device_code, counter_code, description, rating_factor, installed_at, removed_at,
                         role)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      overrides.typeId ?? DEVICE_TYPE.allocator,
      typeof at === 'number' ? at : at.id,
      code,
      overrides.counterCode === undefined ? `C-${code}` : overrides.counterCode,
      overrides.description ?? null,
      overrides.ratingFactor ?? null,
      overrides.installedAt ?? null,
      overrides.removedAt ?? null,
      overrides.role ?? null,
    ],
  );
  return rows[0]!.id;
}

/** One reading: [ts, value] or [ts, value, meterTs]; times with an explicit offset. */
export type ReadingInput = readonly [string, number | string, string?];

/** Readings of a device, stored as every path that stores readings does (LastSeen kept, migration 030). */
export async function makeReadings(db: Queryable, deviceId: number, readings: readonly ReadingInput[]): Promise<void> {
  await db.query(
    `INSERT INTO reading (device_id, ts, value, meter_ts)
     SELECT $1, t.ts, t.value, t.meter_ts FROM unnest($2::timestamptz[], $3::numeric[], $4::timestamptz[]) AS t(ts, value, meter_ts)`,
    [deviceId, readings.map((r) => r[0]), readings.map((r) => String(r[1])), readings.map((r) => r[2] ?? null)],
  );
  await db.query('SELECT keep_last_seen(ARRAY[$1::int])', [deviceId]);
}

export interface UserOverrides {
  /** GROUP.operator, GROUP.admin or GROUP.user (default). */
  groupId?: GroupId;
  /** Granted locations. */
  rights?: ReadonlyArray<Place | number>;
  username?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
}

/** An account as a test knows it: enough to sign in as it. */
export interface TestUser {
  id: number;
  groupId: GroupId;
  username: string;
  password: string;
}

/** An account, registered as the product registers one, with its rights granted. */
export async function makeUser(db: Queryable, overrides: UserOverrides = {}): Promise<TestUser> {
  const groupId = overrides.groupId ?? GROUP.user;
  const username = overrides.username ?? `user${next()}_${groupId}`;
  const password = overrides.password ?? 'password1';
  const user = await registerUser(
    db,
    { firstName: overrides.firstName ?? 'Test', lastName: overrides.lastName ?? 'User', username, password },
    groupId,
  );
  for (const right of overrides.rights ?? []) {
    await db.query('INSERT INTO location_right (user_id, location_id) VALUES ($1, $2)', [
      user.Id,
      typeof right === 'number' ? right : right.id,
    ]);
  }
  return { id: user.Id, groupId, username, password };
}

/** A signed-in account: the user and its bearer token. */
export interface SignedIn extends TestUser {
  token: string;
}

/** Signs in through the API, as a person does. */
export async function signIn(app: FastifyInstance, user: TestUser): Promise<SignedIn> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/users/authenticate',
    payload: { username: user.username, password: user.password },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
  return { ...user, token: res.json().Token };
}

/** makeUser, then signIn. */
export async function makeSignedIn(app: FastifyInstance, overrides: UserOverrides = {}): Promise<SignedIn> {
  return signIn(app, await makeUser(app.db, overrides));
}

/**
 * Devices whose device_status.last_seen (LastSeen) is not their latest reading
 * or telegram: every path that inserts either must keep it (migration 030).
 */
export async function lastSeenMismatches(db: Queryable) {
  const { rows } = await db.query<{ id: number; kept: string | null; latest: string | null }>(
    `SELECT d.id, iso(ds.last_seen) AS kept, iso(x.latest) AS latest
       FROM device d
       LEFT JOIN device_status ds ON ds.device_id = d.id
      CROSS JOIN LATERAL (SELECT greatest((SELECT max(ts) FROM reading WHERE device_id = d.id),
                                          (SELECT max(ts) FROM telegram WHERE device_id = d.id)) AS latest) x
      WHERE ds.last_seen IS DISTINCT FROM x.latest
      ORDER BY d.id`,
  );
  return rows;
}

export interface OccupancyOverrides {
  clientCode?: string;
  name?: string;
  email?: string | null;
  language?: 'lt' | 'en' | null;
  /** First day (null: since before the records). */
  moveIn?: string | null;
  /** First day no longer there (null: still there). */
  moveOut?: string | null;
  consentAt?: string | null;
  consentChannel?: 'email' | 'portal' | 'paper' | null;
}

/** An occupancy of a flat (docs/occupancies.md), with its client made if new; returns its id. */
export async function makeOccupancy(
  db: Queryable,
  flat: Place | number,
  overrides: OccupancyOverrides = {},
): Promise<number> {
  const n = next();
  const name = overrides.name ?? `Occupant ${n}`;
  const { rows } = await db.query<{ id: number }>(
    `WITH c AS (INSERT INTO client (code, name) VALUES ($2, $3)
                ON CONFLICT (code) DO UPDATE SET code = excluded.code RETURNING id)
     INSERT INTO occupancy (location_id, client_id, name, email, language, move_in, move_out, consent_at, consent_channel)
     SELECT $1, c.id, $3, $4, $5, $6, $7, $8, $9 FROM c RETURNING id`,
    [
      typeof flat === 'number' ? flat : flat.id,
      overrides.clientCode ?? `OCC-${n}`,
      name,
      overrides.email ?? null,
      overrides.language ?? null,
      overrides.moveIn ?? null,
      overrides.moveOut ?? null,
      overrides.consentAt ?? null,
      overrides.consentChannel ?? null,
    ],
  );
  return rows[0]!.id;
}
