import type { Endpoint } from '@rodmenys/contract';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP, type GroupId } from '@rodmenys/contract';
import { beforeAll, expect } from 'vitest';
import { throttleSettings } from '../../env.js';
import { createCollectorKey } from '../../services/ingest/collector-keys.js';
import { inject, useApp } from '../../test/app.js';
import { makeDevice, makePlace, makeReadings, makeSignedIn } from '../../test/factories.js';

/*
 * The world of the authorisation matrix (docs/security.md): two municipalities (Alfa, Beta),
 * each with two buildings, flats, devices, readings and users; the roles, what each may see,
 * and the leak detector that scans every answer for what is out of the caller's scope.
 */

/** The day of the move the occupancy samples make on Alfa's first flat. */
export const MOVE_DAY = '2026-01-15';

export const ROLES = ['anonymous', 'fresh', 'group3', 'group2Alfa', 'group2Beta', 'group1'] as const;
export type Role = (typeof ROLES)[number];

/** What the leak detector knows of one part of the world: marker names and ids. */
export type Part = 'alfa' | 'alfa1' | 'alfa2' | 'beta' | 'beta1' | 'beta2' | `user:${string}`;

/** The parts each role may see; everything else is a leak. */
export const VISIBLE: Record<Role, Part[]> = {
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

export interface Sample {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** A raw body with its content type (uploads). */
  raw?: { type: string; text: string };
  /** Another token than the role's own (sign-out must not end the one the other cases use). */
  token?: string | null;
}

/** Every endpoint's key: `METHOD /path`. */
export const keyOf = (e: Endpoint) => `${e.method} ${e.path}`;

/** Every endpoint the contract exports, including those grouped in objects (the type-ahead ones). */
export function contractEndpoints(): Endpoint[] {
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

/** One request per endpoint (made for each role), and the statuses that differ from the default of its `auth`. */
export type Samples = Record<
  string,
  { request: (role: Role) => Promise<Sample> | Sample; expect?: Partial<Record<Role, number>> }
>;

/** The world one matrix run builds (in a `beforeAll`) and every sample reads. */
export interface World {
  t: ReturnType<typeof useApp>;
  tokens: Partial<Record<Role, string>>;
  passwords: Partial<Record<Role, { username: string; password: string }>>;
  ids: Record<string, number>;
  /** Marker names and ids per part of the world. */
  parts: Map<Part, { names: string[]; ids: number[] }>;
  collectorKeyId: number;
  /** A counter that makes names and days unique per call. */
  serial: number;
}

/** Registers the app and the `beforeAll` that builds the world; call inside the matrix's describe. */
export function matrixWorld(): World {
  const t = useApp({ throttle: { ...throttleSettings({}), registerLimit: 100_000 } });
  const w: World = { t, tokens: {}, passwords: {}, ids: {}, parts: new Map(), collectorKeyId: 0, serial: 0 };
  const { tokens, passwords, ids, parts } = w;

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
    // Each account's full name is a marker too: an account's name is shown only to whoever may see it
    // (docs/security.md, "Names of accounts").
    const lastName = (username: string) => `Pavarde-${username}`;
    for (const [role, username, groupId, rights] of users) {
      const u = await makeSignedIn(t.app, { groupId, username, rights, lastName: lastName(username) });
      tokens[role] = u.token;
      passwords[role] = { username, password: u.password };
      ids[username] = u.id;
      addPart(`user:${username}`, [username, lastName(username)], [u.id]);
    }
    // A group 3 account in Beta, which nobody in Alfa may reach.
    const beta = await makeSignedIn(t.app, {
      groupId: GROUP.user,
      username: 'g3_beta',
      rights: [ids.buildingB1!],
      lastName: lastName('g3_beta'),
    });
    ids.g3_beta = beta.id;
    addPart('user:g3_beta', ['g3_beta', lastName('g3_beta')], [beta.id]);
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
    w.collectorKeyId = (await createCollectorKey(t.db, 'matrix key', null)).Id;
  });
  return w;
}

/** The status a role gets when the table says nothing: from the endpoint's `auth`. */
export function defaultStatus(e: Endpoint, role: Role): number {
  const ok = e.status ?? 200;
  switch (e.auth) {
    case 'none':
      return ok;
    case 'collector':
    case 'lns':
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
export function leaks(parts: World['parts'], role: Role, text: string): string[] {
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
