import type { ReadingRow } from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP, knownDeviceModel, LOCATION_LEVEL } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.js';
import type { Caller } from '../services/auth/caller.js';
import { verifyPassword } from '../services/auth/password.js';
import { driverFor } from '../services/collectors/drivers.js';
import { DevicesDataCaches, getDevicesDataJson } from '../services/devices/devices-data/index.js';
import { listDueDevices } from '../services/lifetime/due.js';
import { remoteRegister } from '../services/lifetime/register.js';
import { buildingIdOf } from '../services/sql.js';
import { createTestDb, dbKind, useDb } from '../test/db.js';
import { lastSeenMismatches } from '../test/factories.js';
import { type DemoCases, readDemoCases } from './cases.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, type DemoCounts, type DemoSummary, seedDemo } from './generate.js';

// Mid-month, so that the reset falls inside the current month with days on both sides.
const NOW = new Date('2026-11-20T10:00:00Z');
const DAY = 86_400_000;
const COUNTS: DemoCounts = { buildings: 3, flatsPerBuilding: [8, 9], months: 13, intervalHours: 12 };

const t = useDb();
let summary: DemoSummary;
let cases: DemoCases;

beforeAll(async () => {
  summary = await seedDemo(t.db, { size: COUNTS, seed: 7, now: NOW });
  cases = (await readDemoCases(t.db))!;
}, 120_000);

const rows = async <R>(sql: string, params?: unknown[]) => (await t.db.query<R>(sql, params)).rows;

describe(`seedDemo (${dbKind()})`, () => {
  it('reports what it made, and the tables hold exactly that', async () => {
    const [counts] = await rows<Record<string, number>>(
      `SELECT (SELECT count(*) FROM location)::int AS locations, (SELECT count(*) FROM location WHERE level = ${LOCATION_LEVEL.building})::int AS buildings,
              (SELECT count(*) FROM location WHERE level = ${LOCATION_LEVEL.flat})::int AS flats, (SELECT count(*) FROM client)::int AS clients,
              (SELECT count(*) FROM object)::int AS objects, (SELECT count(*) FROM device)::int AS devices,
              (SELECT count(*) FROM reading)::int AS readings`,
    );
    expect(counts).toEqual({
      locations: summary.locations,
      buildings: 3,
      flats: summary.flats,
      clients: summary.flats,
      objects: 3,
      devices: summary.devices,
      readings: summary.readings,
    });
    expect(summary.flats).toBeGreaterThanOrEqual(24);
    expect(summary.readings).toBeGreaterThan(summary.devices * 13 * 30 * 2 * 0.8);
  });

  it('fills the lifetime lists, and the remote-reading register agrees with a count by hand', async () => {
    const operator = { id: 0, groupId: GROUP.operator, username: 'demo', scope: null } as unknown as Caller;
    const due = await listDueDevices(t.db, operator, { months: 60 });
    expect(due.Rows.some((r) => r.Bucket === 'overdue')).toBe(true);
    const register = await remoteRegister(t.db, operator);
    // By hand: every device in service, how it is marked (no collector hears the demo), its building.
    const devices = await rows<{ building: number; method: string | null; installed: string }>(
      `SELECT ${buildingIdOf('l')} AS building, d.read_method AS method, to_char(d.installed_at, 'YYYY-MM-DD') AS installed
         FROM device d JOIN location l ON l.id = d.location_id WHERE d.removed_at IS NULL`,
    );
    const remote = devices.filter((d) => d.method === 'remote');
    const late = devices.filter((d) => d.method !== 'remote' && d.installed > '2020-10-25');
    // Read by hand are only the declared meters, which a demo of three buildings has none of
    // (declared-demo.test): a meter marked by hand never gets the demo's readings.
    expect(new Set(devices.map((d) => d.method))).toEqual(new Set(['remote', 'walkby']));
    expect(late.length).toBeGreaterThan(0);
    expect(register.Summary).toMatchObject({
      Buildings: 3,
      Devices: devices.length,
      Remote: remote.length,
      LateNotRemote: late.length,
    });
    for (const b of register.Buildings) {
      expect(b.Devices).toBe(devices.filter((d) => d.building === b.BuildingId).length);
      expect(b.Remote).toBe(remote.filter((d) => d.building === b.BuildingId).length);
    }
  });

  it('builds a Lithuanian location tree with a consistent path and address columns', async () => {
    const [country] = await rows<{ name: string }>(`SELECT name FROM location WHERE level = ${LOCATION_LEVEL.country}`);
    expect(country?.name).toBe('Lietuva');
    const counties = await rows<{ name: string }>(`SELECT name FROM location WHERE level = ${LOCATION_LEVEL.county}`);
    expect(counties.every((c) => c.name.endsWith('apskritis'))).toBe(true);
    // path = ids root..self; each address column = the name of the ancestor at that level.
    const bad = await rows(
      `SELECT l.id FROM location l
       WHERE l.path[array_length(l.path, 1)] <> l.id OR array_length(l.path, 1) <> l.level
          OR (l.parent_id IS NOT NULL AND l.path[1:l.level - 1] <> (SELECT p.path FROM location p WHERE p.id = l.parent_id))
          OR ARRAY[l.country, l.county, l.region, l.city, l.street, l.building, l.flat]::text[]
             <> ARRAY(SELECT a.name FROM unnest(l.path) WITH ORDINALITY u(id, n) JOIN location a ON a.id = u.id ORDER BY u.n)
                || array_fill(NULL::text, ARRAY[7 - l.level])`,
    );
    expect(bad).toEqual([]);
    const streets = await rows<{ name: string }>(`SELECT name FROM location WHERE level = ${LOCATION_LEVEL.street}`);
    expect(streets.every((s) => /\s(g|pr|al|pl|a)\.$/.test(s.name))).toBe(true);
    const flats = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM location WHERE level = ${LOCATION_LEVEL.flat} AND (flat_order IS NULL OR client_id IS NULL)`,
    );
    expect(flats[0]?.n).toBe(0);
  });

  it('gives every building an object and every flat a client', async () => {
    const objects = await rows<{ code: string; type_code: string; building_level: number }>(
      'SELECT o.code, o.type_code, l.level AS building_level FROM object o JOIN location l ON l.id = o.location_id ORDER BY o.code',
    );
    expect(objects.map((o) => o.code)).toEqual(['OBJ-00001', 'OBJ-00002', 'OBJ-00003']);
    expect(objects.every((o) => o.type_code === 'DN' && o.building_level === 6)).toBe(true);
    const clients = await rows<{ type_code: string; name: string }>('SELECT type_code, name FROM client');
    expect(clients.every((c) => ['PRIVATUS', 'JURIDINIS'].includes(c.type_code) && c.name.length > 3)).toBe(true);
  });

  it('places devices right: allocators with rating factors, water meters in every flat, a heat meter per building', async () => {
    const wrong = await rows(
      `SELECT d.id FROM device d JOIN location l ON l.id = d.location_id
       WHERE (d.device_type_id = ${DEVICE_TYPE.buildingHeatMeter} OR d.role IS NOT NULL) <> (l.level = ${LOCATION_LEVEL.building})
          OR (d.device_type_id = ${DEVICE_TYPE.allocator}) <> (d.rating_factor IS NOT NULL)
          OR (d.rating_factor IS NOT NULL AND d.rating_factor NOT BETWEEN 0.5 AND 2.5)
          OR d.device_code !~ '^[0-9]{8}$' OR d.installed_at > $1::timestamptz`,
      [summary.from],
    );
    expect(wrong).toEqual([]);
    const flatsMissingWater = await rows(
      `SELECT l.id FROM location l WHERE l.level = ${LOCATION_LEVEL.flat} AND
         (SELECT count(DISTINCT device_type_id) FROM device d WHERE d.location_id = l.id AND device_type_id IN (3, 4)) <> 2`,
    );
    expect(flatsMissingWater).toEqual([]);
  });

  it('gives every device a model whose wmbusmeters driver is known, one model per type and building', async () => {
    const models = await rows<{ model: string | null; type_id: number; building: number }>(
      `SELECT DISTINCT d.model, d.device_type_id AS type_id, ${buildingIdOf('l')} AS building
         FROM device d JOIN location l ON l.id = d.location_id`,
    );
    expect(models.length).toBeGreaterThan(0);
    for (const m of models) {
      expect(knownDeviceModel(m.model)?.driver, String(m.model)).toBeDefined();
      expect(driverFor(m.model)).not.toBe('auto');
    }
    const perTypeAndBuilding = new Set(models.map((m) => `${m.type_id}/${m.building}`));
    expect(perTypeAndBuilding.size).toBe(models.length);
  });

  it('installs devices at midnight on the provider clock, summer or winter (no slip to 23:00 the day before)', async () => {
    const slipped = await rows(
      `SELECT id, iso(installed_at) FROM device WHERE installed_at <> date_trunc('day', installed_at)`,
    );
    expect(slipped).toEqual([]);
    const offsets = await rows<{ o: string }>(
      `SELECT DISTINCT right(iso(installed_at), 6) AS o FROM device ORDER BY 1`,
    );
    expect(offsets.map((r) => r.o)).toEqual(['+02:00', '+03:00']);
  });

  it("puts every device type in the manager's building", async () => {
    const types = await rows<{ t: number }>(
      `SELECT DISTINCT d.device_type_id AS t FROM device d JOIN location l ON l.id = d.location_id
       WHERE l.path && ARRAY[$1::int] ORDER BY 1`,
      [cases.buildingId],
    );
    expect(types.map((r) => r.t)).toEqual([1, 2, 3, 4, 11]);
  });

  it('creates the demo accounts with their rights and the shared password', async () => {
    const users = await rows<{ username: string; group_id: number; password_hash: string; rights: number[] }>(
      `SELECT u.username, u.group_id, u.password_hash,
              coalesce(array_agg(r.location_id ORDER BY r.location_id) FILTER (WHERE r.location_id IS NOT NULL), '{}') AS rights
       FROM app_user u LEFT JOIN location_right r ON r.user_id = u.id GROUP BY u.id ORDER BY u.group_id`,
    );
    expect(users.map((u) => [u.username, u.group_id])).toEqual(DEMO_ACCOUNTS.map((a) => [a.username, a.groupId]));
    for (const u of users) {
      expect(await verifyPassword(DEMO_PASSWORD, u.password_hash)).toBe(true);
      expect(await verifyPassword('wrong', u.password_hash)).toBe(false);
    }
    expect(users[0]?.rights).toEqual([]);
    expect(users[1]?.rights).toEqual([cases.areaId]);
    expect(users[2]?.rights).toEqual([cases.buildingId]);
    // The administrator's area holds the manager's building and others.
    const buildings = await rows<{ id: number }>(
      `SELECT id FROM location WHERE level = ${LOCATION_LEVEL.building} AND path && ARRAY[$1::int]`,
      [cases.areaId],
    );
    expect(buildings.map((b) => b.id)).toContain(cases.buildingId);
    expect(buildings.length).toBeGreaterThan(1);
  });

  it('records the demo facts in app_meta', async () => {
    const meta = Object.fromEntries(
      (await rows<{ key: string; value: string }>('SELECT key, value FROM app_meta')).map((r) => [r.key, r.value]),
    );
    expect(meta).toMatchObject({
      demo: 'true',
      'demo.seed': '7',
      'demo.size': 'custom',
      'demo.generated_until': NOW.toISOString(),
    });
  });

  it('refuses a database that already has locations', async () => {
    await expect(seedDemo(t.db, { size: COUNTS, now: NOW })).rejects.toThrow(/already has locations/);
  });
});

describe(`demo readings (${dbKind()})`, () => {
  it('cover 13 months up to now, every device but the special ones recently', async () => {
    const [range] = await rows<{ first: Date; last: Date }>('SELECT min(ts) AS first, max(ts) AS last FROM reading');
    expect(range!.first.getTime()).toBeLessThanOrEqual(NOW.getTime() - 395 * DAY);
    expect(range!.last.getTime()).toBeLessThanOrEqual(NOW.getTime());
    const stale = await rows<{ id: number }>(
      `SELECT d.id FROM device d
       WHERE NOT EXISTS (SELECT 1 FROM reading r WHERE r.device_id = d.id AND r.ts > $1::timestamptz - interval '13 hours')
       ORDER BY d.id`,
      [NOW.toISOString()],
    );
    // The heat method's refused flat (docs/heat-method.md): its allocators never reported either.
    expect(stale.map((d) => d.id).sort()).toEqual(
      [cases.silent.deviceId, ...cases.neverReported.deviceIds, ...cases.heat!.refusedDevices].sort(),
    );
    // LastSeen is every device's latest reading (device_status.last_seen, kept by the seed).
    expect(await lastSeenMismatches(t.db)).toEqual([]);
  });

  it('are cumulative: never decreasing, except the reset device once', async () => {
    const drops = await rows<{ device_id: number; ts: Date }>(
      `SELECT device_id, ts FROM (
         SELECT device_id, ts, value < lag(value) OVER (PARTITION BY device_id ORDER BY ts) AS drop FROM reading) x
       WHERE drop`,
    );
    expect(drops.map((d) => d.device_id)).toEqual([cases.reset.deviceId]);
    expect(drops[0]!.ts.getTime()).toBeGreaterThanOrEqual(Date.parse(cases.reset.resetAt));
  });

  it('look like meters: whole allocator units, 3 decimals otherwise, the meter clock a little behind', async () => {
    const bad = await rows(
      `SELECT r.device_id FROM reading r JOIN device d ON d.id = r.device_id
       WHERE (d.device_type_id = ${DEVICE_TYPE.allocator} AND r.value <> trunc(r.value)) OR r.value <> round(r.value, 3)
          OR r.meter_ts >= r.ts OR r.meter_ts < r.ts - interval '10 minutes' LIMIT 5`,
    );
    expect(bad).toEqual([]);
  });

  it('heat is seasonal: allocators count far more in January than in July', async () => {
    const [use] = await rows<{ winter: string; summer: string }>(
      `SELECT sum(CASE WHEN extract(month FROM ts) = 1 THEN delta END) AS winter,
              sum(CASE WHEN extract(month FROM ts) = 7 THEN delta END) AS summer
       FROM (SELECT ts, value - lag(value) OVER (PARTITION BY device_id ORDER BY ts) AS delta
             FROM reading r JOIN device d ON d.id = r.device_id WHERE d.device_type_id = ${DEVICE_TYPE.allocator}) x`,
    );
    expect(Number(use!.winter)).toBeGreaterThan(20 * Math.max(1, Number(use!.summer)));
  });

  it('has a device silent for the last 10 days', async () => {
    const [last] = await rows<{ ts: Date }>('SELECT max(ts) AS ts FROM reading WHERE device_id = $1', [
      cases.silent.deviceId,
    ]);
    expect(NOW.getTime() - last!.ts.getTime()).toBeGreaterThanOrEqual(10 * DAY);
    expect(NOW.getTime() - last!.ts.getTime()).toBeLessThan(11 * DAY);
  });

  it("has a meter reset this month: the month's difference is negative", async () => {
    const [diff] = await rows<{ start: string; finish: string }>(
      `SELECT (SELECT value FROM reading WHERE device_id = $1 AND ts <= date_trunc('month', $2::timestamptz) ORDER BY ts DESC LIMIT 1) AS start,
              (SELECT value FROM reading WHERE device_id = $1 AND ts <= $2::timestamptz ORDER BY ts DESC LIMIT 1) AS finish`,
      [cases.reset.deviceId, NOW.toISOString()],
    );
    expect(Number(diff!.finish)).toBeLessThan(Number(diff!.start));
    expect(Number(diff!.finish)).toBeLessThan(5);
    expect(Date.parse(cases.reset.resetAt)).toBeGreaterThan(Date.parse('2026-11-01T00:00:00+02:00'));
  });

  it('has a device with days without readings', async () => {
    const [gap] = await rows<{ longest: number }>(
      `SELECT max(extract(epoch FROM ts - prev))::float8 AS longest FROM (
         SELECT ts, lag(ts) OVER (ORDER BY ts) AS prev FROM reading WHERE device_id = $1) x`,
      [cases.gap.deviceId],
    );
    expect(gap!.longest).toBeGreaterThanOrEqual(2 * 86_400);
    const inside = await rows('SELECT 1 FROM reading WHERE device_id = $1 AND ts >= $2 AND ts < $3', [
      cases.gap.deviceId,
      cases.gap.from,
      cases.gap.till,
    ]);
    expect(inside).toEqual([]);
  });

  it('has a flat whose devices never reported', async () => {
    expect(cases.neverReported.deviceIds.length).toBeGreaterThanOrEqual(3);
    const [n] = await rows<{ n: number }>('SELECT count(*)::int AS n FROM reading WHERE device_id = ANY($1)', [
      cases.neverReported.deviceIds,
    ]);
    expect(n!.n).toBe(0);
    const inBuilding = await rows('SELECT 1 FROM location WHERE id = ANY($1) AND path && ARRAY[$2::int]', [
      [cases.neverReported.locationId, cases.silent.locationId, cases.reset.locationId, cases.gap.locationId],
      cases.buildingId,
    ]);
    expect(inBuilding).toHaveLength(4);
  });
});

describe(`demo cases in GetDevicesData (${dbKind()})`, () => {
  // What the manager sees for the month so far: the cases are flagged, the rest is not.
  const flagsOf = async (deviceTypeId: number) => {
    const { json } = await getDevicesDataJson(
      t.db,
      {
        deviceTypeId,
        range: { from: '2026-11-01', till: '2026-11-20' },
        scope: [cases.buildingId],
        parents: null,
        timeZone: 'Europe/Vilnius',
        now: NOW,
      },
      new DevicesDataCaches(),
    );
    const rows = JSON.parse(json.toString()) as ReadingRow[];
    return new Map(rows.map((r) => [r.DeviceId, r.Flags]));
  };

  it('flags the silent device, the reset and the never-reported flat, and nothing else', async () => {
    const expected = new Map<number, string[]>([
      [cases.silent.deviceId, ['STALE']],
      [cases.reset.deviceId, ['NEGATIVE']],
      ...cases.neverReported.deviceIds.map((id): [number, string[]] => [id, ['NO_READING']]),
    ]);
    let listed = 0;
    for (const type of [1, 2, 3, 4, 11]) {
      const flags = await flagsOf(type);
      listed += flags.size;
      for (const [id, f] of flags) expect([id, f]).toEqual([id, expected.get(id) ?? []]);
    }
    const [inBuilding] = await rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM device d JOIN location l ON l.id = d.location_id WHERE l.path && ARRAY[$1::int]',
      [cases.buildingId],
    );
    expect(listed).toBe(inBuilding!.n);
  });
});

describe(`seedDemo determinism (${dbKind()})`, () => {
  const masterData = async (d: Db) =>
    Promise.all(
      [
        'SELECT * FROM location ORDER BY id',
        'SELECT * FROM client ORDER BY id',
        'SELECT * FROM object ORDER BY id',
        'SELECT * FROM device ORDER BY id',
        'SELECT username, first_name, last_name, group_id FROM app_user ORDER BY id',
        'SELECT * FROM location_right ORDER BY user_id',
        "SELECT * FROM app_meta WHERE key <> 'demo.generated_until' ORDER BY key",
      ].map(async (sql) => (await d.query(sql)).rows),
    );
  const sample = async (d: Db) =>
    (
      await d.query(
        'SELECT device_id, ts, meter_ts, value FROM reading WHERE device_id % 17 = 3 ORDER BY device_id, ts',
      )
    ).rows;

  it('gives the same master data and readings for the same seed and now, others for another seed', async () => {
    const same = await createTestDb();
    const other = await createTestDb();
    try {
      await seedDemo(same, { size: COUNTS, seed: 7, now: NOW });
      // Readings do not matter for this comparison: keep them short.
      await seedDemo(other, { size: { ...COUNTS, months: 0 }, seed: 8, now: NOW });
      expect(await masterData(same)).toEqual(await masterData(t.db));
      const readings = await sample(t.db);
      expect(readings.length).toBeGreaterThan(1000);
      expect(await sample(same)).toEqual(readings);
      const codes = async (d: Db) => (await d.query('SELECT device_code FROM device ORDER BY id')).rows;
      expect(await codes(other)).not.toEqual(await codes(t.db));
    } finally {
      await same.close();
      await other.close();
    }
  }, 120_000);
});
