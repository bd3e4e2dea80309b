import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/db.js';
import { registerUser } from '../services/users/register-user.js';

/**
 * Hand-built test data. Everything goes through plain SQL on the real schema,
 * so a fixture means exactly what it says.
 */

const LEVEL_COLUMNS = ['country', 'county', 'region', 'city', 'street', 'building', 'flat'] as const;

/** Creates (or finds) a location path from the country down: ['Lietuva', 'Vilniaus apskritis', …]. Returns the ids. */
export async function createPath(db: Queryable, names: string[], flatOrder?: number): Promise<number[]> {
  const ids: number[] = [];
  let parent: { id: number; path: number[]; address: Record<string, string | null> } | undefined;
  for (const [i, name] of names.entries()) {
    const level = i + 1;
    const found = await db.query<{ id: number; path: number[] }>(
      'SELECT id, path FROM location WHERE coalesce(parent_id, 0) = $1 AND lower(name) = lower($2)',
      [parent?.id ?? 0, name],
    );
    const address: Record<string, string | null> = { ...(parent?.address ?? {}), [LEVEL_COLUMNS[i]!]: name };
    let row = found.rows[0];
    if (!row) {
      const cols = LEVEL_COLUMNS.slice(0, level);
      const inserted = await db.query<{ id: number; path: number[] }>(
        `WITH n AS (SELECT nextval(pg_get_serial_sequence('location', 'id'))::int AS id)
         INSERT INTO location (id, parent_id, level, name, flat_order, path, ${cols.join(', ')})
         SELECT n.id, $1, $2, $3, $4, $5::int[] || n.id, ${cols.map((_, j) => `$${j + 6}`).join(', ')} FROM n
         RETURNING id, path`,
        [
          parent?.id ?? null,
          level,
          name,
          level === 7 ? (flatOrder ?? null) : null,
          parent?.path ?? [],
          ...cols.map((c) => address[c]),
        ],
      );
      row = inserted.rows[0]!;
    }
    ids.push(row.id);
    parent = { id: row.id, path: row.path, address };
  }
  return ids;
}

/** A building's address from the country down, with a flat when given. */
export const address = (city: string, street: string, building: string, flat?: string) => [
  'Lietuva',
  `${city} apskritis`,
  `${city} m. sav.`,
  city,
  street,
  building,
  ...(flat ? [flat] : []),
];

export interface DeviceInput {
  typeId: 1 | 2 | 3 | 4 | 11;
  locationId: number;
  code: string;
  ratingFactor?: number | null;
  description?: string;
  installedAt?: string | null;
  removedAt?: string | null;
}

export async function createDevice(db: Queryable, d: DeviceInput): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO device (device_type_id, location_id, device_code, counter_code, description, rating_factor, installed_at, removed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      d.typeId,
      d.locationId,
      d.code,
      `C-${d.code}`,
      d.description ?? null,
      d.ratingFactor ?? null,
      d.installedAt ?? null,
      d.removedAt ?? null,
    ],
  );
  return rows[0]!.id;
}

/** Readings as [ts, value] or [ts, value, meterTs]; ts with an explicit offset. */
export async function addReadings(db: Queryable, deviceId: number, readings: [string, number | string, string?][]) {
  await db.query(
    `INSERT INTO reading (device_id, ts, value, meter_ts)
     SELECT $1, t.ts, t.value, t.meter_ts FROM unnest($2::timestamptz[], $3::numeric[], $4::timestamptz[]) AS t(ts, value, meter_ts)`,
    [deviceId, readings.map((r) => r[0]), readings.map((r) => String(r[1])), readings.map((r) => r[2] ?? null)],
  );
  // As every path that inserts readings does (migration 030).
  await db.query('SELECT keep_last_seen(ARRAY[$1::int])', [deviceId]);
}

let userCounter = 0;

/** Creates a user of a group with rights to the given locations and signs in; returns id and token. */
export async function createUser(
  app: FastifyInstance,
  options: { groupId: 1 | 2 | 3; rights?: number[]; username?: string; password?: string },
): Promise<{ id: number; token: string; username: string; password: string }> {
  const username = options.username ?? `user${++userCounter}_${options.groupId}`;
  const password = options.password ?? 'password1';
  const user = await registerUser(app.db, { firstName: 'Test', lastName: 'User', username, password }, options.groupId);
  for (const locationId of options.rights ?? []) {
    await app.db.query('INSERT INTO location_right (user_id, location_id) VALUES ($1, $2)', [user.Id, locationId]);
  }
  const res = await app.inject({ method: 'POST', url: '/api/users/authenticate', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
  return { id: user.Id, token: res.json().Token, username, password };
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
