// Deterministic demo data: the same seed gives the same master data, and the
// readings end at `now`, so a demo always looks current.
//
// Measured 2026-11-22 on this 2-core machine while other jobs kept the load
// average at 11-15 (so wall times are inflated; CPU time is the better guide):
// - `small` on embedded PGlite (fresh folder, `node dist/cli/seed.js`): 94 locations,
//   8 buildings, 66 flats, 321 devices, 399,370 readings (every 8 h, 13 months + this
//   one); whole command incl. PGlite start and migrations 20-23 s wall, 8.8-9.5 s CPU;
//   the seed itself ~3.7-4 s CPU. COPY into PGlite costs ~7 us a reading, so `small`
//   is sized for the ~10 s first-start budget rather than for many flats.
// - `large` on PostgreSQL 15 (load 16-18): 2,149 flats, 10,540 devices, 29,023,698
//   hourly readings over ~3.7 months, 205 s (30 s of it JavaScript CPU).

import type { Db } from '../db/db.js';
import { hashPassword } from '../services/auth/password.js';
import { createMonthPartitions, monthsBetween } from '../services/partitions/partitions.js';
import { type CaseDevice, type DemoCases, META } from './cases.js';
import { loadDemoHeat, planDemoHeat } from './heat-methods.js';
import { READING_COPY, renderSeries, startValue, timeline } from './readings.js';
import { loadDemoCampaign } from './seed/campaign.js';
import { declaredMonths, loadDeclared, planDeclared } from './seed/declared.js';
import { loadMasterData, moments, withoutConstraints } from './seed/load.js';
import { seedLorawanDemo } from './seed/lorawan.js';
import { buildMasterData, type DeviceRow, type IdStart, installationDay } from './seed/master-data.js';
import {
  DEMO_ACCOUNTS,
  DEMO_PASSWORD,
  DEMO_SIZES,
  DemoSeedError,
  type DemoSummary,
  type SeedDemoOptions,
} from './seed/settings.js';

// The steps live in seed/: settings.ts (sizes, accounts, summary), master-data.ts (locations,
// clients, devices drawn from the seed), load.ts (COPY into the tables), declared.ts (declared meters),
// campaign.ts (an exchange campaign).
export { installationDay } from './seed/master-data.js';
export * from './seed/settings.js';

const DAY = 86_400_000;

/** Fills an empty database with demo data in one transaction and returns what it made. */
export async function seedDemo(db: Db, options: SeedDemoOptions): Promise<DemoSummary> {
  const started = performance.now();
  const { size, seed = 1, now = new Date() } = options;
  const counts = typeof size === 'string' ? DEMO_SIZES[size] : size;
  if (!Number.isInteger(seed)) throw new DemoSeedError('The seed must be a whole number');
  if (counts.buildings < 1 || 24 % counts.intervalHours !== 0 || counts.months < 0) {
    throw new DemoSeedError('The demo needs at least one building, whole months and an interval that divides 24 hours');
  }
  const nowMs = now.getTime();
  // The months it writes into get their partitions first (docs/scaling.md): the default partition stays empty.
  await createMonthPartitions(
    db,
    monthsBetween(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - counts.months - 1, 1)), now),
  );
  // Hash before the transaction: PGlite holds its one session while a transaction runs.
  const hashes = await Promise.all(DEMO_ACCOUNTS.map(() => hashPassword(DEMO_PASSWORD)));
  const summary = await db.transaction(async (tx) => {
    const used = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM location');
    if (used.rows[0]!.n > 0)
      throw new DemoSeedError('The database already has locations: demo data goes only into an empty one');
    const { rows: idRows } = await tx.query<IdStart>(
      `SELECT (SELECT coalesce(max(id), 0) FROM location)::int AS location, (SELECT coalesce(max(id), 0) FROM client)::int AS client,
              (SELECT coalesce(max(id), 0) FROM object)::int AS object, (SELECT coalesce(max(id), 0) FROM device)::int AS device`,
    );
    const at = await moments(tx, now, counts.months);
    const m = buildMasterData(counts, seed, at.dataStart, idRows[0]!);
    // The heat methods' buildings and devices (docs/heat-method.md), drawing nothing from the random numbers.
    const heat = planDemoHeat(m.locations, m.devices, m.managerBuilding.id, seed, installationDay(at.dataStart, 400));
    await loadMasterData(tx, m);
    const { rows: span } = await tx.query<{ first: string; year: number }>(
      `SELECT to_char(date_trunc('month', $1::timestamptz) - make_interval(months => $2), 'YYYY-MM') AS first,
              extract(year FROM $1::timestamptz)::int AS year`,
      [now.toISOString(), counts.months],
    );
    await loadDemoHeat(tx, heat, m.locations, span[0]!.first, span[0]!.year);
    const refused = new Set(heat.refusedDevices);
    // The declared water meters (seed/declared.ts) stop reporting when their declarations begin.
    const declaredPlan = planDeclared(m.locations, m.devices, m.managerBuilding.id, heat);
    const declaredSpan = declaredPlan ? await declaredMonths(tx, now, counts.months) : null;
    const stopsAt = new Map<number, number>();
    if (declaredPlan && declaredSpan)
      for (const d of declaredPlan.devices)
        for (const x of [d.cold, d.hot]) stopsAt.set(x.deviceId, declaredSpan.sinceMs);

    const userIds: number[] = [];
    for (const [i, a] of DEMO_ACCOUNTS.entries()) {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO app_user (username, password_hash, first_name, last_name, group_id, email, phone)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [a.username, hashes[i], a.firstName, a.lastName, a.groupId, a.email, `+3706000000${i + 1}`],
      );
      userIds.push(rows[0]!.id);
    }
    await tx.query('INSERT INTO location_right (user_id, location_id) VALUES ($1, $2), ($3, $4)', [
      userIds[1],
      m.area.id,
      userIds[2],
      m.managerBuilding.id,
    ]);

    const { silent, reset, gap, never } = m.casesIn;
    const silentSince = nowMs - 10 * DAY;
    const resetAt = at.monthStart + Math.floor((nowMs - at.monthStart) / 2);
    const gapTill = at.gapStart + 60 * 3_600_000;
    const line = timeline(counts.intervalHours, at.dataStart, nowMs);
    let readings = 0;
    async function* chunks(): AsyncGenerator<string> {
      let buffer = '';
      for (const d of m.devices) {
        if (d.locationId === never.id || refused.has(d.deviceId)) continue;
        const s = renderSeries(
          line,
          { id: d.deviceId, code: d.deviceCode, typeId: d.deviceTypeId, role: d.role ?? null },
          {
            seed,
            afterMs: at.dataStart,
            untilMs: Math.min(nowMs, stopsAt.get(d.deviceId) ?? nowMs),
            fromValue: startValue(seed, d.deviceCode, d.deviceTypeId, d.role ?? null),
            gaps: d === silent ? [[silentSince, Infinity]] : d === gap ? [[at.gapStart, gapTill]] : undefined,
            resetAtMs: d === reset ? resetAt : undefined,
          },
        );
        readings += s.count;
        buffer += s.csv;
        if (buffer.length > 1 << 20) {
          yield buffer;
          buffer = '';
        }
      }
      if (buffer) yield buffer;
    }
    await withoutConstraints(tx, 'reading', () => tx.copyIn(READING_COPY, chunks()));
    // LastSeen: every path that inserts readings keeps device_status.last_seen (migration 030).
    await tx.query('SELECT keep_last_seen(array(SELECT id FROM device))');
    const declared =
      declaredPlan && declaredSpan
        ? await loadDeclared(tx, declaredPlan, declaredSpan, seed, now, userIds[0]!)
        : undefined;
    // An exchange campaign in that building, its visit day planned (seed/campaign.ts).
    const campaignId = declared
      ? await loadDemoCampaign(tx, declared.buildingId, declared.deviceIds, now, userIds[0]!)
      : null;

    const iso = (ms: number) => new Date(ms).toISOString();
    const caseOf = (d: DeviceRow): CaseDevice => ({
      deviceId: d.deviceId,
      deviceCode: d.deviceCode,
      deviceTypeId: d.deviceTypeId,
      locationId: d.locationId,
    });
    const cases: DemoCases = {
      buildingId: m.managerBuilding.id,
      objectCode: m.objects[0]![2]!,
      areaId: m.area.id,
      silent: { ...caseOf(silent), silentSince: iso(silentSince) },
      reset: { ...caseOf(reset), resetAt: iso(resetAt) },
      gap: { ...caseOf(gap), from: iso(at.gapStart), till: iso(gapTill) },
      neverReported: {
        locationId: never.id,
        deviceIds: m.devices.filter((d) => d.locationId === never.id).map((d) => d.deviceId),
      },
      heat,
      ...(declared ? { declared } : {}),
      ...(campaignId !== null ? { campaignId } : {}),
    };
    const sizeName = typeof size === 'string' ? size : 'custom';
    const meta: Array<[string, string]> = [
      [META.demo, 'true'],
      [META.seed, String(seed)],
      [META.size, sizeName],
      [META.intervalHours, String(counts.intervalHours)],
      [META.generatedUntil, iso(nowMs)],
      [META.cases, JSON.stringify(cases)],
    ];
    for (const [key, value] of meta) {
      await tx.query(
        'INSERT INTO app_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        [key, value],
      );
    }
    await tx.exec('ANALYZE location, object, client, device, reading, location_right');

    const devicesByType: Record<number, number> = {};
    for (const d of m.devices) devicesByType[d.deviceTypeId] = (devicesByType[d.deviceTypeId] ?? 0) + 1;
    return {
      size: sizeName,
      seed,
      from: iso(at.dataStart),
      until: iso(nowMs),
      intervalHours: counts.intervalHours,
      locations: m.locations.length,
      buildings: m.buildings,
      flats: m.flats,
      clients: m.clients.length,
      devices: m.devices.length,
      devicesByType,
      readings,
      accounts: DEMO_ACCOUNTS,
      password: DEMO_PASSWORD,
      ms: Math.round(performance.now() - started),
    };
  });
  // A building on LoRaWAN, fed through the LNS endpoints' own code after the rest is committed (seed/lorawan.ts).
  const lorawan = await seedLorawanDemo(db, now);
  return {
    ...summary,
    readings: summary.readings + (lorawan?.readings ?? 0),
    ...(lorawan ? { lorawan } : {}),
    ms: Math.round(performance.now() - started),
  };
}
