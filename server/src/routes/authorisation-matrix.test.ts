import type { Endpoint } from '@rodmenys/contract';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP, type GroupId } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { throttleSettings } from '../env.js';
import { createCollectorKey } from '../services/ingest/collector-keys.js';
import { cityIdOf } from '../services/sql.js';
import { registerUser } from '../services/users/register-user.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeDevice, makePlace, makeReadings, makeSignedIn } from '../test/factories.js';

/*
 * The authorisation matrix (docs/security.md): every endpoint of the contract ×
 * every kind of caller, in a world of two municipalities (Alfa, Beta), each with
 * two buildings, flats, devices, readings and users. For each pair it asserts
 * the status, and a leak detector scans every answer for the names and ids of
 * locations, devices and accounts outside the caller's scope.
 */

/** The day of the move the occupancy samples make on Alfa's first flat. */
const MOVE_DAY = '2026-01-15';

const ROLES = ['anonymous', 'fresh', 'group3', 'group2Alfa', 'group2Beta', 'group1'] as const;
type Role = (typeof ROLES)[number];

/** What the leak detector knows of one part of the world: marker names and ids. */
type Part = 'alfa' | 'alfa1' | 'alfa2' | 'beta' | 'beta1' | 'beta2' | `user:${string}`;

/** The parts each role may see; everything else is a leak. */
const VISIBLE: Record<Role, Part[]> = {
  anonymous: [],
  fresh: ['user:fresh_self'],
  group3: ['alfa', 'alfa1', 'user:g3_alfa'],
  group2Alfa: ['alfa', 'alfa1', 'alfa2', 'user:g2_alfa', 'user:g3_alfa', 'user:fresh_self'],
  group2Beta: ['beta', 'beta1', 'beta2', 'user:g2_beta', 'user:g3_beta', 'user:fresh_self'],
  group1: [
    'alfa',
    'alfa1',
    'alfa2',
    'beta',
    'beta1',
    'beta2',
    'user:fresh_self',
    'user:g3_alfa',
    'user:g3_beta',
    'user:g2_alfa',
    'user:g2_beta',
    'user:g1_root',
  ],
};

interface Sample {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** A raw body with its content type (uploads). */
  raw?: { type: string; text: string };
  /** Another token than the role's own (sign-out must not end the one the other cases use). */
  token?: string | null;
}

/** Every endpoint's key: `METHOD /path`. */
const keyOf = (e: Endpoint) => `${e.method} ${e.path}`;

/** Every endpoint the contract exports, including those grouped in objects (the type-ahead ones). */
function contractEndpoints(): Endpoint[] {
  const isEndpoint = (v: unknown): v is Endpoint =>
    typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'auth' in v && 'response' in v;
  const found = new Map<string, Endpoint>();
  for (const value of Object.values(contract)) {
    if (isEndpoint(value)) found.set(keyOf(value), value);
    else if (typeof value === 'object' && value !== null) {
      for (const inner of Object.values(value)) if (isEndpoint(inner)) found.set(keyOf(inner), inner);
    }
  }
  return [...found.values()];
}

describe(`authorisation matrix: every endpoint × every caller (${dbKind()})`, () => {
  const t = useApp({ throttle: { ...throttleSettings({}), registerLimit: 100_000 } });
  const tokens: Partial<Record<Role, string>> = {};
  const passwords: Partial<Record<Role, { username: string; password: string }>> = {};
  const ids: Record<string, number> = {};
  /** Marker names and ids per part of the world. */
  const parts = new Map<Part, { names: string[]; ids: number[] }>();
  let collectorKeyId = 0;
  let serial = 0;

  const addPart = (part: Part, names: string[], partIds: number[]) => {
    const p = parts.get(part) ?? { names: [], ids: [] };
    p.names.push(...names);
    p.ids.push(...partIds);
    parts.set(part, p);
  };

  beforeAll(async () => {
    // Ids of different kinds never coincide, so an id found in an answer names one thing.
    await t.db.query(`SELECT setval(pg_get_serial_sequence('location', 'id'), 100000)`);
    await t.db.query(`SELECT setval(pg_get_serial_sequence('device', 'id'), 200000)`);
    await t.db.query(`SELECT setval(pg_get_serial_sequence('app_user', 'id'), 300000)`);

    for (const [town, streets] of [
      ['Alfa', ['Alfa', 'Aldona']],
      ['Beta', ['Beta', 'Berta']],
    ] as const) {
      const lower = town.toLowerCase() as 'alfa' | 'beta';
      const top = ['Lietuva', `Apskritis ${town}`, `Savivaldybe ${town}`, `Miestas ${town}`];
      const topIds = (await makePlace(t.db, top)).path;
      ids[`${lower}Region`] = topIds[2]!;
      addPart(lower, top.slice(1), topIds.slice(1));
      for (const [n, street] of streets.entries()) {
        const part = `${lower}${n + 1}` as Part;
        const tag = `${town[0]}${n + 1}`;
        const buildingPath = [...top, `Gatve ${street}`, `Namas-${tag}`];
        const pathIds = (await makePlace(t.db, buildingPath)).path;
        const flat = (await makePlace(t.db, [...buildingPath, `Butas-${tag}`], 1)).id;
        const building = pathIds.at(-1)!;
        ids[`building${tag}`] = building;
        ids[`flat${tag}`] = flat;
        await t.db.query(`INSERT INTO client (code, name) VALUES ($1, $2)`, [`CLIENT-${tag}`, `Klientas-${tag}`]);
        await t.db.query(`UPDATE location SET client_id = (SELECT id FROM client WHERE code = $1) WHERE id = $2`, [
          `CLIENT-${tag}`,
          flat,
        ]);
        await t.db.query(`INSERT INTO object (location_id, code, name) VALUES ($1, $2, $3)`, [
          building,
          `OBJ-${tag}`,
          `Objektas-${tag}`,
        ]);
        const deviceIds: number[] = [];
        for (const [typeId, kind] of [
          [1, 'HCA'],
          [3, 'CW'],
        ] as const) {
          const device = await makeDevice(t.db, flat, {
            typeId,
            code: `DEV-${tag}-${kind}`,
            ratingFactor: typeId === DEVICE_TYPE.allocator ? 1 : null,
          });
          deviceIds.push(device);
          await makeReadings(t.db, device, [
            ['2026-01-01T00:00:00+02:00', 10],
            ['2026-01-20T00:00:00+02:00', 12],
          ]);
        }
        ids[`device${tag}`] = deviceIds[0]!;
        addPart(
          part,
          [
            `Gatve ${street}`,
            `Namas-${tag}`,
            `Butas-${tag}`,
            `DEV-${tag}-HCA`,
            `DEV-${tag}-CW`,
            `OBJ-${tag}`,
            `Objektas-${tag}`,
            `CLIENT-${tag}`,
            `Klientas-${tag}`,
          ],
          [pathIds.at(-2)!, building, flat, ...deviceIds],
        );
      }
      // Devices the operator's master-data calls change (removal and replacement).
      ids[`remove${town}`] = await makeDevice(t.db, ids[`flat${town[0]}1`]!, {
        typeId: DEVICE_TYPE.coldWaterMeter,
        code: `RM-${town}`,
      });
      ids[`replace${town}`] = await makeDevice(t.db, ids[`flat${town[0]}1`]!, {
        typeId: DEVICE_TYPE.coldWaterMeter,
        code: `RP-${town}`,
      });
    }

    const users: [Role, string, GroupId, number[]][] = [
      ['group3', 'g3_alfa', GROUP.user, [ids.buildingA1!]],
      ['group2Alfa', 'g2_alfa', GROUP.admin, [ids.alfaRegion!]],
      ['group2Beta', 'g2_beta', GROUP.admin, [ids.betaRegion!]],
      ['group1', 'g1_root', GROUP.operator, []],
    ];
    for (const [role, username, groupId, rights] of users) {
      const u = await makeSignedIn(t.app, { groupId, username, rights });
      tokens[role] = u.token;
      passwords[role] = { username, password: u.password };
      ids[username] = u.id;
      addPart(`user:${username}`, [username], [u.id]);
    }
    // A group 3 account in Beta, which nobody in Alfa may reach.
    const beta = await makeSignedIn(t.app, { groupId: GROUP.user, username: 'g3_beta', rights: [ids.buildingB1!] });
    ids.g3_beta = beta.id;
    addPart('user:g3_beta', ['g3_beta'], [beta.id]);
    // The fresh account registers itself, as anyone on the internet can.
    const registered = await inject(t.app, contract.register, {
      body: { firstName: 'Fresh', lastName: 'Self', username: 'fresh_self', password: 'password1' },
    });
    expect(registered.status).toBe(201);
    ids.fresh_self = registered.body.Id;
    addPart('user:fresh_self', ['fresh_self'], [ids.fresh_self!]);
    const signedIn = await inject(t.app, contract.authenticate, {
      body: { username: 'fresh_self', password: 'password1' },
    });
    tokens.fresh = signedIn.body.Token;
    passwords.fresh = { username: 'fresh_self', password: 'password1' };
    collectorKeyId = (await createCollectorKey(t.db, 'matrix key', null)).Id;
  });

  /** A group 3 account with rights in Alfa's first building, made for one destructive call. */
  const victim = async () => {
    const user = await registerUser(t.db, {
      firstName: 'Victim',
      lastName: 'Alfa',
      username: `victim${++serial}`,
      password: 'password1',
    });
    await t.db.query('INSERT INTO location_right (user_id, location_id) VALUES ($1, $2)', [user.Id, ids.buildingA1]);
    return user.Id;
  };
  /** An open anomaly on Alfa's first building and device, made for one acknowledge or resolve call. */
  const anomaly = async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO anomaly (rule, building_id, device_id, month, evidence)
       VALUES ('SPIKE', $1, $2, make_date(2000 + $3::int, 1, 1), '{}') RETURNING id`,
      [ids.buildingA1, ids.deviceA1, ++serial],
    );
    return rows[0]!.id;
  };
  /** An integration key on Alfa's first building, made for one revocation. */
  const integrationKey = async () =>
    (
      await t.db.query<{ id: number }>(
        `INSERT INTO integration_key (name, key_hash, prefix, location_ids, expires_at)
         VALUES ($1, sha256(convert_to($1, 'UTF8')), 'rdm_live_matrix', ARRAY[$2::int], now() + interval '1 day') RETURNING id`,
        [`matrix key ${++serial}`, ids.buildingA1],
      )
    ).rows[0]!.id;
  /** A webhook receiver, made for one switch-off. */
  const receiver = async () =>
    (
      await t.db.query<{ id: number }>(
        `INSERT INTO billing_receiver (name, kind, url, secret) VALUES ($1, 'webhook', 'http://127.0.0.1:9/', 's')
         RETURNING id`,
        [`receiver ${++serial}`],
      )
    ).rows[0]!.id;
  /** A move on Alfa's first flat (its devices get moving-day values), made once by the operator. */
  let moved: Promise<void> | undefined;
  const move = () => {
    // A move needs someone moving out: the flat's client has lived there since 2025.
    moved ??= t.db
      .query(
        `INSERT INTO occupancy (location_id, client_id, name, move_in)
         SELECT $1, id, 'Klientas-A1', DATE '2025-01-01' FROM client WHERE code = 'CLIENT-A1'`,
        [ids.flatA1],
      )
      .then(() =>
        inject(t.app, contract.recordMove, {
          params: { id: ids.flatA1! },
          body: { day: MOVE_DAY, clientCode: 'CLIENT-A1-NEXT', name: 'Klientas-A1-next' },
          token: tokens.group1!,
        }),
      )
      .then((r) => expect(r.status).toBe(201));
    return moved;
  };
  /** A manual moving-day value on Alfa's first device, made for one removal. */
  const manualMoveValue = async () => {
    await move();
    const r = await inject(t.app, contract.setMoveValue, {
      params: { deviceId: ids.deviceA1!, day: MOVE_DAY },
      body: { value: 11, reason: 'Read on site' },
      token: tokens.group1!,
    });
    expect(r.status).toBe(200);
    return { params: { deviceId: ids.deviceA1!, day: MOVE_DAY } };
  };
  /** A two-day occupancy of Beta's second flat long ago, made for one edit. */
  const occupancy = async () =>
    (
      await t.db.query<{ id: number; move_in: string; move_out: string }>(
        `INSERT INTO occupancy (location_id, client_id, name, move_in, move_out)
         SELECT $1, id, 'Klientas-B2', DATE '1990-01-01' + 2 * $2::int, DATE '1990-01-02' + 2 * $2::int
         FROM client WHERE code = 'CLIENT-B2' RETURNING id, move_in::text, move_out::text`,
        [ids.flatB2, ++serial],
      )
    ).rows[0]!;
  /** An occupancy of Alfa's second flat, made once if none, whose secrets the access samples revoke and reissue. */
  let alfaOccupancy: Promise<number> | undefined;
  const occupantAccess = async () => {
    alfaOccupancy ??= t.db
      .query<{ id: number }>(
        // The flat's occupancy if another sample made one, else a new one.
        `WITH made AS (INSERT INTO occupancy (location_id, client_id, name)
                        SELECT $1, id, 'Klientas-A2' FROM client
                         WHERE code = 'CLIENT-A2' AND NOT EXISTS (SELECT FROM occupancy WHERE location_id = $1)
                        RETURNING id)
         SELECT id FROM made UNION ALL (SELECT id FROM occupancy WHERE location_id = $1 ORDER BY id LIMIT 1)`,
        [ids.flatA2],
      )
      .then((r) => r.rows[0]!.id);
    return { params: { id: await alfaOccupancy } };
  };
  /**
   * Alfa's second flat's water meter read by declaration (docs/declared-readings.md), with the flat's
   * occupancy; made once. Returns the device id.
   */
  let declared: Promise<number> | undefined;
  const declaredDevice = () => {
    declared ??= occupantAccess().then(async () => {
      const { rows } = await t.db.query<{ id: number }>(
        `UPDATE device SET read_method = 'manual' WHERE device_code = 'DEV-A2-CW' RETURNING id`,
      );
      return rows[0]!.id;
    });
    return declared;
  };
  /** A declaration of that meter with a photo, made for one call. */
  const declaration = async () => {
    const device = await declaredDevice();
    const { rows } = await t.db.query<{ id: number }>(
      `WITH p AS (INSERT INTO declaration_photo (occupancy_id, mime, width, height, bytes)
                  SELECT o.id, 'image/png', 1, 1, '\\x89504e47'::bytea FROM occupancy o WHERE o.location_id = $2
                  ORDER BY o.id LIMIT 1 RETURNING id, occupancy_id)
       INSERT INTO declaration (device_id, occupancy_id, location_id, value, declared_at, month, channel, photo_id,
                                status)
       SELECT $1, p.occupancy_id, $2, 12.5, '2026-01-24 10:00', '2026-01-01', 'occupant', p.id, 'doubtful' FROM p
       RETURNING id`,
      [device, ids.flatA2],
    );
    return rows[0]!.id;
  };
  /** Who reaches Alfa's declarations: groups 1 and 2 of Alfa; group 3 is refused, Beta's group 2 finds nothing. */
  const declarationStatuses = (ok: number) => ({
    fresh: 403,
    group3: 403,
    group2Beta: 404,
    group2Alfa: ok,
    group1: ok,
  });
  /** Who reaches an occupancy of Alfa's access: groups 1 and 2 of Alfa; group 3 is refused, Beta's group 2 finds nothing. */
  const occupantAccessStatuses = (ok: number) => ({
    fresh: 403,
    group3: 403,
    group2Beta: 404,
    group2Alfa: ok,
    group1: ok,
  });
  /** An exchange campaign over Alfa's first device (docs/device-lifetime.md), a new one per call. */
  const campaign = async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `WITH c AS (INSERT INTO campaign (name) VALUES ($1) RETURNING id)
       INSERT INTO campaign_device (campaign_id, device_id, building_id) SELECT id, $2, $3 FROM c RETURNING campaign_id AS id`,
      [`Campaign ${++serial}`, ids.deviceA1, ids.buildingA1],
    );
    return rows[0]!.id;
  };
  const city = async () =>
    (
      await t.db.query<{ id: number }>(`SELECT ${cityIdOf('location')} AS id FROM location WHERE id = $1`, [
        ids.buildingA1,
      ])
    ).rows[0]!.id;
  /** A second token of the role (for sign-out), null for anonymous. */
  const secondToken = async (role: Role) => {
    const account = passwords[role];
    if (!account) return null;
    return (await inject(t.app, contract.authenticate, { body: account })).body.Token;
  };

  const period = { dateFrom: '2026-01-01', dateTill: '2026-01-31' };
  const csv = 'serial;time;value\n';
  /** One request per endpoint (made for each role), and the statuses that differ from the default of its `auth`. */
  const samples: Record<
    string,
    { request: (role: Role) => Promise<Sample> | Sample; expect?: Partial<Record<Role, number>> }
  > = {
    'GET /health': { request: () => ({}) },
    'GET /ready': { request: () => ({}) },
    'POST /users/authenticate': {
      request: () => ({ body: { username: `nobody${++serial}`, password: 'wrong-guess' } }),
      expect: Object.fromEntries(ROLES.map((r) => [r, 400])),
    },
    'POST /users/register': {
      request: () => ({
        body: { firstName: 'New', lastName: 'Person', username: `newcomer${++serial}`, password: 'password1' },
      }),
    },
    'POST /users/logout': { request: async (role) => ({ token: await secondToken(role) }) },
    'GET /users/getAll': {
      request: () => ({ query: { pageSize: 500 } }),
      expect: { fresh: 403, group3: 403 },
    },
    'GET /users/:id': {
      request: () => ({ params: { id: ids.g3_alfa! } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'PUT /users/:id': {
      request: () => ({ params: { id: ids.g3_alfa! }, body: { firstName: 'Gintaras' } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'DELETE /users/:id': {
      request: async () => ({ params: { id: await victim() } }),
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    'POST /users/:id/signOutEverywhere': {
      request: async () => ({ params: { id: await victim() } }),
      expect: { fresh: 404, group3: 404, group2Beta: 404 },
    },
    'GET /users/:id/rights': {
      request: () => ({ params: { id: ids.g3_alfa! } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'PUT /users/:id/rights': {
      request: () => ({ params: { id: ids.g3_alfa! }, body: { locationIds: [ids.buildingA1!] } }),
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    'GET /devices/UserLocationRights/:userId': {
      request: () => ({ params: { userId: ids.g3_alfa! } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'GET /devices/GetDevicesByParams': { request: () => ({ query: { country: 'Lietuva', deviceOnly: 0 } }) },
    'GET /devices/GetDeviceDataByUserId': { request: () => ({}) },
    'GET /devices/GetDeviceTypeLookUp': { request: () => ({}) },
    'GET /devices/GetDevicesData': { request: () => ({ query: { ...period, deviceTypeId: DEVICE_TYPE.allocator } }) },
    'GET /devices/GetDevicesByLocationId': {
      request: () => ({ query: { locationId: ids.buildingA1! } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'GET /devices/typesInSelection': { request: () => ({ query: period }) },
    'GET /devices/flagged': { request: () => ({ query: period }) },
    'GET /devices/:id/history': {
      request: () => ({ params: { id: ids.deviceA1! }, query: period }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'GET /locationData/getAllObjects': { request: () => ({ query: { pageSize: 500 } }) },
    'GET /locationData/getUserObjects': { request: () => ({ query: { pageSize: 500 } }) },
    'GET /locationData/tree': { request: () => ({}) },
    'GET /locationData/Country': { request: () => ({ query: { search: 'Lie' } }) },
    'GET /locationData/County': { request: () => ({ query: { search: 'Apskritis' } }) },
    'GET /locationData/Region': { request: () => ({ query: { search: 'Savivaldybe' } }) },
    'GET /locationData/City': { request: () => ({ query: { search: 'Miestas' } }) },
    'GET /locationData/Street': { request: () => ({ query: { search: 'Gatve' } }) },
    'GET /locationData/Building': { request: () => ({ query: { search: 'Namas' } }) },
    'POST /ingest/wmbusmeters': { request: () => ({ raw: { type: 'application/json', text: '{}' } }) },
    'POST /ingest/csv': { request: () => ({ raw: { type: 'text/csv', text: csv } }) },
    'GET /ingest/unmatched': { request: () => ({}) },
    'GET /collector-keys': { request: () => ({}) },
    'POST /collector-keys': { request: () => ({ body: { name: `key ${++serial}` } }) },
    'DELETE /collector-keys/:id': { request: () => ({ params: { id: collectorKeyId } }) },
    'POST /meter-keys/import': { request: () => ({ raw: { type: 'text/csv', text: 'manufacturer;meter id;key\n' } }) },
    'GET /collectors/health': { request: () => ({}) },
    'GET /collectors/:id/meters': { request: () => ({ params: { id: collectorKeyId } }) },
    'PUT /collectors/:id/locations': { request: () => ({ params: { id: collectorKeyId }, body: { locationIds: [] } }) },
    'GET /collectors/config': { request: () => ({}) },
    'POST /collectors/alarms': { request: () => ({ query: { type: 'DeviceInactivity' } }) },
    'GET /audit': { request: () => ({}) },
    'GET /audit/export': { request: () => ({}) },
    'POST /masterData/register/preview': { request: () => ({ raw: { type: 'text/csv', text: csv } }) },
    'POST /masterData/register/apply': { request: () => ({ raw: { type: 'text/csv', text: csv } }) },
    'GET /masterData/register/template': { request: () => ({ query: { format: 'csv' } }) },
    'GET /masterData/locations': { request: () => ({}) },
    'GET /masterData/locations/search': { request: () => ({ query: { text: 'Alfa' } }) },
    'GET /masterData/locations/:id': { request: () => ({ params: { id: ids.buildingA1! } }) },
    'PUT /masterData/locations/:id': { request: () => ({ params: { id: ids.flatA1! }, body: { flatOrder: 1 } }) },
    'PUT /masterData/locations/:id/client': {
      request: () => ({ params: { id: ids.flatA1! }, body: { clientCode: 'CLIENT-A1' } }),
    },
    'GET /masterData/clients': { request: () => ({ query: { search: 'CLIENT' } }) },
    'POST /masterData/devices': {
      request: () => ({
        body: { locationId: ids.flatA1!, deviceTypeId: DEVICE_TYPE.coldWaterMeter, deviceCode: `NEW-${++serial}` },
      }),
    },
    'GET /data-quality/month-ends/:deviceId': {
      request: () => ({ params: { deviceId: ids.deviceA1! }, query: { from: '2026-01', till: '2026-02' } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'PUT /data-quality/month-ends/:deviceId/:month': {
      request: () => ({
        params: { deviceId: ids.deviceA1!, month: '2026-01' },
        body: { value: 11, reason: 'Read on site' },
      }),
    },
    'DELETE /data-quality/month-ends/:deviceId/:month': {
      request: () => ({ params: { deviceId: ids.deviceA1!, month: '2026-01' } }),
    },
    'GET /data-quality/month-ends': {
      request: () => ({ query: { month: '2026-02', deviceTypeId: DEVICE_TYPE.coldWaterMeter } }),
    },
    'GET /data-quality/anomalies': { request: () => ({}) },
    'GET /data-quality/anomalies/counts': { request: () => ({}) },
    'POST /data-quality/anomalies/:id/acknowledge': {
      request: async () => ({ params: { id: await anomaly() }, body: { comment: 'Seen' } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'POST /data-quality/anomalies/:id/resolve': {
      request: async () => ({ params: { id: await anomaly() }, body: { comment: 'Fixed' } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'GET /data-quality/settings': { request: () => ({}) },
    'PUT /data-quality/settings/:key': { request: () => ({ params: { key: 'window.days' }, body: { value: 14 } }) },
    'GET /data-quality/jobs': { request: () => ({}) },
    'POST /data-quality/jobs/:name/run': { request: () => ({ params: { name: 'collectors' } }) },
    'GET /data-quality/digest': { request: () => ({}) },
    'PUT /data-quality/digest': { request: () => ({ body: { optIn: false, language: 'en' } }) },
    'GET /data-quality/degree-days': { request: () => ({ query: { year: 2026 } }) },
    'PUT /data-quality/degree-days/:cityId/:month': {
      request: async () => ({ params: { cityId: await city(), month: '2026-01' }, body: { value: 300 } }),
    },
    'POST /data-quality/degree-days/csv': {
      request: async () => ({ raw: { type: 'text/csv', text: `${await city()};2026-02;280` } }),
    },
    'GET /heat-methods/buildings/:id': {
      request: () => ({ params: { id: ids.buildingA1! } }),
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    'PUT /heat-methods/buildings/:id/:month': {
      request: () => ({
        params: { id: ids.buildingA1!, month: '2026-01' },
        body: {
          HotWaterHeat: 'norm',
          KwhPerM3: 51,
          CirculationNorm: 80,
          HotWaterTemperature: 60,
          DistrictHeat: true,
          Seasons: [{ From: '2025-10-15', To: '2026-04-30' }],
          CommonShare: 0,
          BaseShare: 0,
          MinimumShare: 0,
          Flats: [],
        },
      }),
    },
    'GET /statements/figures': { request: () => ({ query: { month: '2026-01' } }) },
    'GET /statements/flats/:flatId': {
      request: () => ({ params: { flatId: ids.flatA1! }, query: { month: '2026-01' } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'GET /statements/pdf': { request: () => ({ query: { month: '2026-01', lang: 'en' } }), expect: { fresh: 404 } },
    'POST /statements/publications': {
      request: () => ({ body: { month: '2026-01', locationIds: [ids.buildingA1!] } }),
    },
    'GET /statements/difference': { request: () => ({ query: { month: '2026-01' } }) },
    'GET /statements/deliveries': { request: () => ({}) },
    'GET /deliveries': { request: () => ({ query: { month: '2026-01' } }), expect: { fresh: 403, group3: 403 } },
    // Building B1 has no publication in the matrix's world: no letters to print.
    'GET /deliveries/print/:buildingId': {
      request: () => ({ params: { buildingId: ids.buildingB1! }, query: { month: '2026-01' } }),
      expect: { group1: 404 },
    },
    // Devices over their lifetime (docs/device-lifetime.md): groups 1 and 2, each within its scope.
    'GET /lifetime/due': { request: () => ({ query: { months: 60 } }), expect: { fresh: 403, group3: 403 } },
    'GET /lifetime/due/work-list': { request: () => ({ query: { lang: 'en' } }), expect: { fresh: 403, group3: 403 } },
    'GET /lifetime/remote-register': { request: () => ({}), expect: { fresh: 403, group3: 403 } },
    'GET /lifetime/remote-register/pdf': { request: () => ({}), expect: { fresh: 403, group3: 403 } },
    'PUT /lifetime/remote-register/:buildingId/exception': {
      request: () => ({ params: { buildingId: ids.buildingA1! }, body: { note: 'Not cost-efficient' } }),
    },
    'GET /lifetime/walk-by': { request: () => ({}), expect: { fresh: 403, group3: 403 } },
    // The back office's declarations (docs/declared-readings.md): groups 1 and 2, each within its scope.
    'POST /declarations/phone': {
      request: async () => ({
        body: { deviceId: await declaredDevice(), value: 12.5, day: '2026-01-25', callerName: 'Klientas-A2' },
      }),
      expect: declarationStatuses(201),
    },
    'GET /declarations': { request: () => ({ query: { month: '2026-01' } }), expect: { fresh: 403, group3: 403 } },
    'GET /declarations/:id/photo': {
      request: async () => ({ params: { id: await declaration() } }),
      expect: declarationStatuses(200),
    },
    'POST /declarations/:id/decision': {
      request: async () => ({ params: { id: await declaration() }, body: { accept: false, reason: 'Unreadable' } }),
      expect: declarationStatuses(200),
    },
    'GET /declarations/devices': {
      request: async () => {
        await declaredDevice();
        return { query: { month: '2025-12' } };
      },
      expect: { fresh: 403, group3: 403 },
    },
    // Beta has no declared device: nothing to print there.
    'GET /declarations/devices/print-list': {
      request: async () => {
        await declaredDevice();
        return { query: { month: '2025-12', lang: 'en' } };
      },
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    // Exchange campaigns: group 1 manages; group 2 reads its scope and records visits without access.
    'GET /campaigns': { request: () => ({}), expect: { fresh: 403, group3: 403 } },
    'GET /campaigns/:id': {
      request: async () => ({ params: { id: await campaign() } }),
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    'POST /campaigns': { request: () => ({ body: { name: 'Matrix campaign', deviceIds: [ids.deviceA1!] } }) },
    'PUT /campaigns/:id': { request: async () => ({ params: { id: await campaign() }, body: { name: 'Renamed' } }) },
    'DELETE /campaigns/:id': { request: async () => ({ params: { id: await campaign() } }) },
    'PUT /campaigns/:id/buildings/:buildingId/visit': {
      request: async () => ({
        params: { id: await campaign(), buildingId: ids.buildingA1! },
        body: { visit: { Day: '2030-01-15', From: '08:00', To: '12:00' } },
      }),
    },
    'POST /campaigns/:id/notices': { request: async () => ({ params: { id: await campaign() } }) },
    'GET /campaigns/:id/print-list': {
      request: async () => ({ params: { id: await campaign() }, query: { lang: 'en' } }),
    },
    'POST /campaigns/:id/devices/:deviceId/no-access': {
      request: async () => ({
        params: { id: await campaign(), deviceId: ids.deviceA1! },
        body: { day: '2030-01-15', reason: 'Nobody home' },
      }),
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    'GET /statements/notification': { request: () => ({}) },
    'PUT /statements/notification': { request: () => ({ body: { optIn: false, language: 'lt' } }) },
    'GET /occupancies/flats/:id': {
      request: () => ({ params: { id: ids.flatA1! } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'POST /occupancies/flats/:id/moves': {
      request: () => ({
        params: { id: ids.flatA2! },
        body: {
          day: '2025-06-10',
          clientCode: 'CLIENT-A2',
          name: 'Klientas-A2',
        },
      }),
    },
    'PUT /occupancies/:id': {
      request: async () => {
        const o = await occupancy();
        return {
          params: { id: o.id },
          body: { clientCode: 'CLIENT-B2', name: 'Klientas-B2', moveIn: o.move_in, moveOut: o.move_out },
        };
      },
    },
    'PUT /occupancies/move-values/:deviceId/:day': {
      request: async () => {
        await move();
        return { params: { deviceId: ids.deviceA1!, day: MOVE_DAY }, body: { value: 11, reason: 'Read on site' } };
      },
    },
    'DELETE /occupancies/move-values/:deviceId/:day': { request: manualMoveValue },
    'GET /data-quality/move-values/:deviceId': {
      request: () => ({ params: { deviceId: ids.deviceA1! } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'GET /statements/flats/:flatId/occupancies': {
      request: () => ({ params: { flatId: ids.flatA1! }, query: { month: '2026-01' } }),
      expect: { fresh: 404, group2Beta: 404 },
    },
    'GET /occupancies/:id/personal-data': { request: async () => ({ params: { id: (await occupancy()).id } }) },
    'GET /integrations/keys': { request: () => ({}), expect: { fresh: 403, group3: 403 } },
    'POST /integrations/keys': {
      request: () => ({ body: { name: `key ${++serial}`, locationIds: [ids.buildingA1!], expiresOn: '2027-06-30' } }),
      expect: { fresh: 403, group3: 403, group2Beta: 400 },
    },
    'POST /integrations/keys/:id/revoke': {
      request: async () => ({ params: { id: await integrationKey() } }),
      expect: { fresh: 403, group3: 403, group2Beta: 404 },
    },
    'GET /billing/export': { request: () => ({ query: { month: '2026-01' } }) },
    'GET /billing/export/file': { request: () => ({ query: { month: '2026-01', format: 'csv' } }) },
    'GET /integrations/receivers': { request: () => ({}) },
    'POST /integrations/receivers': {
      request: () => ({ body: { name: `hook ${++serial}`, kind: 'webhook', url: 'https://billing.example/hook' } }),
    },
    'POST /integrations/receivers/:id/disable': { request: async () => ({ params: { id: await receiver() } }) },
    'GET /integrations/deliveries': { request: () => ({}) },
    // The occupant's endpoints (docs/occupant-access.md): no back-office token opens them.
    'POST /occupant/sessions/link': {
      request: () => ({ body: { token: `not-a-token-${++serial}` } }),
      expect: Object.fromEntries(ROLES.map((r) => [r, 401])),
    },
    'POST /occupant/sessions/code': {
      // A flat that does not exist answers like a wrong code (another flat each time: the per-flat limit).
      request: () => ({ body: { flat: 900_000 + ++serial, code: 'ABCDE-FGHJK' } }),
      expect: Object.fromEntries(ROLES.map((r) => [r, 401])),
    },
    'DELETE /occupant/session': { request: () => ({}) },
    'GET /occupant/profile': { request: () => ({}) },
    'PUT /occupant/consent': { request: () => ({ body: { electronic: true } }) },
    'GET /occupant/months': { request: () => ({}) },
    'GET /occupant/months/:month': { request: () => ({ params: { month: '2026-01' } }) },
    'GET /occupant/months/:month/pdf': { request: () => ({ params: { month: '2026-01' } }) },
    'GET /occupant/declarations': { request: () => ({}) },
    'POST /occupant/declarations': { request: () => ({ body: { deviceId: 1, value: 1 } }) },
    'POST /occupant/declarations/photos': { request: () => ({}) },
    'GET /occupancies/:id/access': { request: occupantAccess, expect: occupantAccessStatuses(200) },
    'POST /occupancies/:id/access/revoke': { request: occupantAccess, expect: occupantAccessStatuses(200) },
    'POST /occupancies/:id/access/reissue': { request: occupantAccess, expect: occupantAccessStatuses(201) },
    'PUT /masterData/devices/:id': {
      request: () => ({ params: { id: ids.deviceA1! }, body: { description: 'Virtuve' } }),
    },
    'POST /masterData/devices/:id/remove': {
      request: () => ({
        params: { id: ids.removeAlfa! },
        body: { removedAt: '2026-02-01T00:00+02:00', finalReading: 5 },
      }),
    },
    'POST /masterData/devices/:id/replace': {
      request: () => ({
        params: { id: ids.replaceAlfa! },
        body: { replacedAt: '2026-02-01T00:00+02:00', finalReading: 5, newDeviceCode: 'RP-NEW', initialReading: 0 },
      }),
    },
  };

  /** The status a role gets when the table says nothing: from the endpoint's `auth`. */
  function defaultStatus(e: Endpoint, role: Role): number {
    const ok = e.status ?? 200;
    switch (e.auth) {
      case 'none':
        return ok;
      case 'collector':
        return 401;
      case 'user':
        return role === 'anonymous' ? 401 : ok;
      case 'operator':
        return role === 'anonymous' ? 401 : role === 'group1' ? ok : 403;
      case 'occupant':
        return 401;
    }
  }

  /** Every marker name and id of the parts the role may not see, found in an answer. */
  function leaks(role: Role, text: string): string[] {
    const visible = new Set<Part>(VISIBLE[role]);
    const forbiddenIds = new Map<number, string>();
    const found: string[] = [];
    for (const [part, { names, ids: partIds }] of parts) {
      if (visible.has(part)) continue;
      for (const name of names) if (text.includes(name)) found.push(`${part}: "${name}"`);
      for (const id of partIds) forbiddenIds.set(id, part);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return found;
    }
    const walk = (value: unknown, key: string) => {
      if (Array.isArray(value)) for (const v of value) walk(v, key);
      else if (typeof value === 'object' && value !== null) {
        for (const [k, v] of Object.entries(value)) walk(v, k);
      } else if (typeof value === 'number' && /id$/i.test(key) && forbiddenIds.has(value)) {
        found.push(`${forbiddenIds.get(value)}: ${key}=${value}`);
      }
    };
    walk(json, '');
    return found;
  }

  it('has a sample request for every endpoint of the contract', () => {
    const missing = contractEndpoints()
      .map(keyOf)
      .filter((k) => !(k in samples));
    expect(missing).toEqual([]);
  });

  for (const endpoint of contractEndpoints()) {
    describe(keyOf(endpoint), () => {
      for (const role of ROLES) {
        it(`${role}: the expected status, nothing out of scope`, async () => {
          const sample = samples[keyOf(endpoint)];
          expect(sample, 'no sample request').toBeDefined();
          const s = await sample!.request(role);
          const token = s.token !== undefined ? s.token : tokens[role];
          // Sample bodies are built for every endpoint alike, so they go as payloads.
          const res = await inject(t.app, endpoint, {
            params: s.params,
            query: s.query,
            token: token ?? undefined,
            ...(s.raw
              ? { payload: s.raw.text, headers: { 'content-type': s.raw.type } }
              : s.body === undefined
                ? {}
                : { payload: s.body as object }),
          });
          const want = sample!.expect?.[role] ?? defaultStatus(endpoint, role);
          expect(res.status, res.text.slice(0, 500)).toBe(want);
          expect(leaks(role, res.text)).toEqual([]);
        });
      }
    });
  }
});
