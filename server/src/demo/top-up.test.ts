import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, dbKind, useDb } from '../test/db.js';
import { lastSeenMismatches } from '../test/factories.js';
import { type DemoCases, readDemoCases } from './cases.js';
import { seedDemo } from './generate.js';
import { topUpDemo } from './top-up.js';

const SEEDED = new Date('2026-11-20T10:00:00Z');
const LATER = new Date('2026-11-23T17:30:00Z');
const DAY = 86_400_000;

const t = useDb();
let cases: DemoCases;

beforeAll(async () => {
  await seedDemo(t.db, {
    size: { buildings: 2, flatsPerBuilding: 8, months: 1, intervalHours: 6 },
    seed: 3,
    now: SEEDED,
  });
  cases = (await readDemoCases(t.db))!;
}, 120_000);

const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM reading')).rows[0]!.n;
const latest = async (deviceId: number) =>
  (await t.db.query<{ ts: Date | null }>('SELECT max(ts) AS ts FROM reading WHERE device_id = $1', [deviceId])).rows[0]!
    .ts;

describe(`topUpDemo (${dbKind()})`, () => {
  it('does nothing when no reading is due yet', async () => {
    const before = await count();
    expect(await topUpDemo(t.db, SEEDED)).toBe(0);
    expect(await topUpDemo(t.db, new Date(SEEDED.getTime() - DAY))).toBe(0);
    expect(await count()).toBe(before);
  });

  it('adds the readings up to a later now, continuing every series, and keeps the special cases', async () => {
    const before = await count();
    const [devices] = (
      await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device WHERE NOT id = ANY($1)', [
        [cases.silent.deviceId, ...cases.neverReported.deviceIds, ...cases.heat!.refusedDevices],
      ])
    ).rows;
    const added = await topUpDemo(t.db, LATER);
    // 3 days 7.5 hours at 4 readings a day, give or take one per device at either end.
    expect(added).toBeGreaterThanOrEqual(devices!.n * 12);
    expect(added).toBeLessThanOrEqual(devices!.n * 15);
    expect(await count()).toBe(before + added);
    // LastSeen (device_status.last_seen) follows the new readings.
    expect(await lastSeenMismatches(t.db)).toEqual([]);

    const { rows: stale } = await t.db.query<{ id: number }>(
      `SELECT d.id FROM device d WHERE NOT EXISTS
         (SELECT 1 FROM reading r WHERE r.device_id = d.id AND r.ts > $1::timestamptz - interval '7 hours')`,
      [LATER.toISOString()],
    );
    // The heat method's refused flat never reports either (docs/heat-method.md).
    expect(stale.map((d) => d.id).sort()).toEqual(
      [cases.silent.deviceId, ...cases.neverReported.deviceIds, ...cases.heat!.refusedDevices].sort(),
    );
    expect((await latest(cases.gap.deviceId))!.getTime()).toBeLessThanOrEqual(LATER.getTime());
    expect((await latest(cases.silent.deviceId))!.getTime()).toBeLessThanOrEqual(SEEDED.getTime() - 10 * DAY);
    for (const id of cases.neverReported.deviceIds) expect(await latest(id)).toBeNull();

    const { rows: drops } = await t.db.query<{ device_id: number }>(
      `SELECT device_id FROM (SELECT device_id, value < lag(value) OVER (PARTITION BY device_id ORDER BY ts) AS drop
       FROM reading) x WHERE drop`,
    );
    expect(drops.map((d) => d.device_id)).toEqual([cases.reset.deviceId]);
    const { rows: meta } = await t.db.query<{ value: string }>(
      "SELECT value FROM app_meta WHERE key = 'demo.generated_until'",
    );
    expect(meta[0]?.value).toBe(LATER.toISOString());
  });

  it('is idempotent: the same now again adds nothing', async () => {
    const before = await count();
    expect(await topUpDemo(t.db, LATER)).toBe(0);
    expect(await count()).toBe(before);
  });

  it('leaves a database without demo data alone', async () => {
    const plain = await createTestDb();
    try {
      expect(await topUpDemo(plain, LATER)).toBe(0);
      expect(await readDemoCases(plain)).toBeUndefined();
    } finally {
      await plain.close();
    }
  }, 60_000);

  it('makes the reset happen when it falls after the seed (seeded in the first hours of a month)', async () => {
    const early = await createTestDb();
    try {
      const seededAt = new Date('2026-11-30T23:00:00Z'); // 1 December, 01:00 in Vilnius
      await seedDemo(early, {
        size: { buildings: 1, flatsPerBuilding: 8, months: 0, intervalHours: 6 },
        now: seededAt,
      });
      const reset = (await readDemoCases(early))!.reset;
      expect(Date.parse(reset.resetAt)).toBeGreaterThan(seededAt.getTime() - 3_600_000);
      const drops = async () =>
        (
          await early.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM (SELECT value < lag(value) OVER (ORDER BY ts) AS drop
             FROM reading WHERE device_id = $1) x WHERE drop`,
            [reset.deviceId],
          )
        ).rows[0]!.n;
      expect(await drops()).toBe(0);
      expect(await topUpDemo(early, new Date('2026-12-02T12:00:00Z'))).toBeGreaterThan(0);
      expect(await drops()).toBe(1);
    } finally {
      await early.close();
    }
  }, 120_000);
});
