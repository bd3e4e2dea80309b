import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../services/auth/caller.js';
import { getCampaign } from '../services/campaigns/progress.js';
import { refreshMonthEnds } from '../services/data-quality/refresh-month-ends.js';
import { listDeclarations } from '../services/declarations/office/review.js';
import { dbKind, useDb } from '../test/db.js';
import { type DemoDeclared, readDemoCases } from './cases.js';
import { seedDemo } from './generate.js';
import { topUpDemo } from './top-up.js';

/*
 * The demo's declared water meters (docs/declared-readings.md, "In the demo"): a few flats read by
 * hand, declared month by month since their readings stopped, some months late (estimated month
 * ends), one month by phone, one declaration doubtful with its anomaly open and its photo.
 */

const NOW = new Date('2026-11-26T10:00:00Z');
const t = useDb();
let declared: DemoDeclared;
let manager: number;
let campaignId: number | undefined;
const operator = { id: 0, groupId: GROUP.operator, username: 'demo', scope: null } as unknown as Caller;

const rows = async <R>(sql: string, params?: unknown[]) => (await t.db.query<R>(sql, params)).rows;

beforeAll(async () => {
  await seedDemo(t.db, {
    size: { buildings: 4, flatsPerBuilding: [6, 7], months: 13, intervalHours: 12 },
    seed: 5,
    now: NOW,
  });
  await refreshMonthEnds(t.db, NOW);
  const cases = (await readDemoCases(t.db))!;
  declared = cases.declared!;
  manager = cases.buildingId;
  campaignId = cases.campaignId;
}, 180_000);

describe(`the demo's declared meters (${dbKind()})`, () => {
  it('are the water meters of three flats outside the manager’s and the heat-method buildings, read by hand', async () => {
    expect(declared.flats).toHaveLength(3);
    expect(declared.deviceIds).toHaveLength(6);
    expect(declared.months).toEqual(['2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10']);
    const devices = await rows<{ type: number; method: string; building: number }>(
      `SELECT d.device_type_id AS type, d.read_method AS method, l.parent_id AS building
         FROM device d JOIN location l ON l.id = d.location_id WHERE d.id = ANY ($1::int[])`,
      [declared.deviceIds],
    );
    const { coldWaterMeter: cold, hotWaterMeter: hot } = DEVICE_TYPE;
    expect(devices.map((d) => d.type).sort()).toEqual([cold, cold, cold, hot, hot, hot]);
    expect(new Set(devices.map((d) => d.method))).toEqual(new Set(['manual']));
    expect(new Set(devices.map((d) => d.building))).toEqual(new Set([declared.buildingId]));
    expect(declared.buildingId).not.toBe(manager);
  });

  it('have no readings since they stopped but their counting declarations', async () => {
    const stray = await rows<{ device_id: number }>(
      `SELECT r.device_id FROM reading r WHERE r.device_id = ANY ($1::int[]) AND r.ts >= $2::timestamptz
          AND NOT EXISTS (SELECT FROM declaration x WHERE x.device_id = r.device_id AND x.declared_at = r.ts
                            AND x.value = r.value)`,
      [declared.deviceIds, declared.since],
    );
    expect(stray).toEqual([]);
    const [{ n }] = (await rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM reading WHERE device_id = ANY ($1::int[]) AND ts >= $2::timestamptz',
      [declared.deviceIds, declared.since],
    )) as [{ n: number }];
    // One a declared month: 6 meters × 6 months, less the late ones (the current window is open:
    // one more, the first flat's cold meter).
    expect(declared.late.length).toBe(3);
    expect(n).toBe(6 * 6 - declared.late.length + 1);
    expect(declared.declarations).toBe(n);
    // Cumulative: never below the previous reading.
    const drops = await rows(
      `SELECT 1 FROM (SELECT value < lag(value) OVER (PARTITION BY device_id ORDER BY ts) AS drop
                        FROM reading WHERE device_id = ANY ($1::int[])) x WHERE drop`,
      [declared.deviceIds],
    );
    expect(drops).toEqual([]);
  });

  it('give declared month ends, estimated ones where a month is late', async () => {
    const ends = await rows<{ device_id: number; month: string; source: string }>(
      `SELECT device_id, to_char(month, 'YYYY-MM') AS month, source FROM month_end
        WHERE device_id = ANY ($1::int[]) AND month >= '2026-05-01' AND month < '2026-11-01'`,
      [declared.deviceIds],
    );
    expect(ends).toHaveLength(36);
    // A late month: estimated while no later declaration came (October, the last one), else valued
    // between the declarations around it.
    const late = new Map(declared.late.map((l) => [`${l.deviceId} ${l.month}`, l.month === '2026-10']));
    for (const e of ends) {
      const key = `${e.device_id} ${e.month}`;
      const expected = !late.has(key) ? 'declared' : late.get(key) ? 'estimated' : 'interpolated';
      expect([e.device_id, e.month, e.source]).toEqual([e.device_id, e.month, expected]);
    }
    expect([...late.values()].filter(Boolean)).toHaveLength(2);
  });

  it('have one doubtful declaration with its photo and its anomaly open, and one taken by phone', async () => {
    const doubtful = declared.doubtful!;
    expect(doubtful.month).toBe('2026-10');
    const office = await listDeclarations(t.db, operator, { month: doubtful.month });
    const row = office.Rows.find((r) => r.Id === doubtful.declarationId)!;
    expect(row).toMatchObject({ Status: 'doubtful', Confirmed: true, HasPhoto: true, Channel: 'occupant' });
    expect(row.Value).toBeGreaterThan(row.PlausibleMax!);
    const [photo] = await rows<{ bytes: Uint8Array }>(
      'SELECT p.bytes FROM declaration_photo p JOIN declaration x ON x.photo_id = p.id WHERE x.id = $1',
      [doubtful.declarationId],
    );
    expect((await sharp(Buffer.from(photo!.bytes)).metadata()).format).toBe('jpeg');
    const anomalies = await rows<{ state: string }>(
      `SELECT state FROM anomaly WHERE rule = 'DECLARED_DOUBTFUL' AND device_id = $1 AND month = $2::date`,
      [doubtful.deviceId, `${doubtful.month}-01`],
    );
    expect(anomalies.map((a) => a.state)).toEqual(['open']);
    const phoned = await rows<{ entered_by: string; caller_name: string; occupant: string }>(
      `SELECT u.username AS entered_by, x.caller_name, o.name AS occupant FROM declaration x
         JOIN app_user u ON u.id = x.entered_by JOIN occupancy o ON o.id = x.occupancy_id
        WHERE x.channel = 'phone' AND x.device_id = ANY ($1::int[])`,
      [declared.deviceIds],
    );
    expect(phoned).toHaveLength(2);
    for (const p of phoned)
      expect(p).toEqual({ entered_by: 'operator', caller_name: p.occupant, occupant: p.occupant });
  });

  it('are left alone by the top-up: read by hand, they get no readings', async () => {
    const before = await rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM reading WHERE device_id = ANY ($1::int[])',
      [declared.deviceIds],
    );
    expect(await topUpDemo(t.db, new Date(NOW.getTime() + 2 * 86_400_000))).toBeGreaterThan(0);
    const after = await rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM reading WHERE device_id = ANY ($1::int[])',
      [declared.deviceIds],
    );
    expect(after).toEqual(before);
  });

  it('has an exchange campaign in their building with its visit day planned two weeks on', async () => {
    const campaign = await getCampaign(t.db, operator, campaignId!);
    expect(campaign).toMatchObject({
      Name: 'Vandens skaitiklių keitimas 2026',
      StartedOn: '2026-11-26',
      CreatedBy: 'Rasa Petrauskienė',
    });
    expect(campaign.Buildings).toHaveLength(1);
    const [building] = campaign.Buildings;
    // 26 November is a Thursday: two weeks on, 10 December, is one too.
    expect(building).toMatchObject({
      BuildingId: declared.buildingId,
      Visit: { Day: '2026-12-10', From: '09:00', To: '12:00' },
    });
    expect(building!.Devices).toHaveLength(4);
    for (const d of building!.Devices) {
      expect([DEVICE_TYPE.coldWaterMeter, DEVICE_TYPE.hotWaterMeter]).toContain(d.DeviceTypeId);
      expect(declared.deviceIds).not.toContain(d.DeviceId);
      expect(d.State).toBe('open');
    }
  });
});
