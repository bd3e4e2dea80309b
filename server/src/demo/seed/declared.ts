import { DEVICE_TYPE, LOCATION_LEVEL } from '@rodmenys/contract';
import sharp from 'sharp';
import type { Tx } from '../../db/db.js';
import { applyDeclarations } from '../../services/declarations/apply.js';
import { declaredDevice } from '../../services/declarations/devices.js';
import { openDoubtfulAnomaly } from '../../services/declarations/office/apply.js';
import { cleanPhoto, storePhoto } from '../../services/declarations/photo.js';
import { declaredAtSql } from '../../services/declarations/rows.js';
import { currentWindow } from '../../services/declarations/window.js';
import type { DemoDeclared } from '../cases.js';
import type { DemoHeat } from '../heat-methods.js';
import { Rng } from '../random.js';
import type { DeviceRow, LocationRow } from './master-data.js';

/*
 * The demo's declared meters (docs/declared-readings.md, "In the demo"): the water meters of a few
 * flats of one building (not the manager's, nor a heat-method one; none without such a building) are read by
 * hand. They stopped reporting at the start of the first declared month; since then their occupants
 * declared them each month in the window, except for a few months (late: the last month's end is
 * estimated until a declaration comes; an earlier one is valued between the declarations around it),
 * one month by phone, and one declaration doubtful (above the plausible
 * maximum, confirmed, with a photo) whose DECLARED_DOUBTFUL anomaly is open. Drawn from its own
 * generator (seed and device), so the rest of the demo stays as it was.
 */

/** How many months before the current one are declared (at most; fewer when the data is shorter). */
export const DECLARED_MONTHS = 6;
/** How many flats declare. */
const FLATS = 3;

export interface DeclaredPlan {
  buildingId: number;
  flats: number[];
  /** Per flat: its cold and hot water meter. */
  devices: { flat: number; cold: DeviceRow; hot: DeviceRow }[];
}

/** Picks the declaring flats: the first flats (by order) of a building other than the manager's and the heat-method ones. */
export function planDeclared(
  locations: readonly LocationRow[],
  devices: readonly DeviceRow[],
  managerBuilding: number,
  heat: DemoHeat,
): DeclaredPlan | null {
  const buildings = locations.filter((l) => l.level === LOCATION_LEVEL.building && l.id !== managerBuilding);
  const special = [heat.norm?.buildingId, heat.meter?.buildingId];
  // None when every building has a part already (a demo of three buildings): their figures stay as they were.
  const building = buildings.find((b) => !special.includes(b.id));
  if (!building) return null;
  const flats = locations
    .filter((l) => l.parentId === building.id && l.level === LOCATION_LEVEL.flat)
    .sort((a, b) => (a.flatOrder ?? 0) - (b.flatOrder ?? 0))
    .slice(0, FLATS);
  const planned = flats.map((f) => ({
    flat: f.id,
    cold: devices.find((d) => d.locationId === f.id && d.deviceTypeId === DEVICE_TYPE.coldWaterMeter)!,
    hot: devices.find((d) => d.locationId === f.id && d.deviceTypeId === DEVICE_TYPE.hotWaterMeter)!,
  }));
  return { buildingId: building.id, flats: flats.map((f) => f.id), devices: planned };
}

/** The declared months (their first days, YYYY-MM-DD, oldest first) and when the meters stopped reporting. */
export async function declaredMonths(
  tx: Tx,
  now: Date,
  dataMonths: number,
): Promise<{ months: string[]; sinceMs: number } | null> {
  const n = Math.min(DECLARED_MONTHS, dataMonths - 1);
  if (n < 3) return null;
  const { rows } = await tx.query<{ month: string; start: number }>(
    `SELECT to_char(m, 'YYYY-MM-DD') AS month, (extract(epoch FROM m) * 1000)::float8 AS start
       FROM generate_series(date_trunc('month', $1::timestamptz) - make_interval(months => $2),
                            date_trunc('month', $1::timestamptz) - interval '1 month', interval '1 month') AS m
      ORDER BY m`,
    [now.toISOString(), n],
  );
  return { months: rows.map((r) => r.month), sinceMs: rows[0]!.start };
}

/** A meter's photo: its register as digits on a dial (the photo the occupant sent with a doubtful value). */
async function meterPhoto(value: number): Promise<Buffer> {
  const digits = value.toFixed(3).padStart(9, '0');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320">
    <rect width="480" height="320" fill="#dfe6e9"/><circle cx="240" cy="160" r="140" fill="#ffffff" stroke="#2d3436" stroke-width="8"/>
    <rect x="110" y="120" width="260" height="60" fill="#2d3436"/>
    <text x="240" y="163" font-family="monospace" font-size="36" fill="#ffffff" text-anchor="middle">${digits}</text>
    <text x="240" y="230" font-family="sans-serif" font-size="22" fill="#2d3436" text-anchor="middle">m³</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

interface Entry {
  deviceId: number;
  month: string;
  at: string;
  /** How many months of water it covers (a month skipped before it, 2). */
  months: number;
  phone: boolean;
  doubtful: boolean;
}

/**
 * Declares the planned meters' months (after their readings stopped at `sinceMs`), in time order
 * as they would have come, through the product's own rules (services/declarations: the bounds,
 * the reading and month end `declared`, the anomaly); `operatorId` takes the phone calls.
 */
export async function loadDeclared(
  tx: Tx,
  plan: DeclaredPlan,
  span: { months: string[]; sinceMs: number },
  seed: number,
  now: Date,
  operatorId: number,
): Promise<DemoDeclared> {
  const ids = plan.devices.flatMap((d) => [d.cold.deviceId, d.hot.deviceId]);
  await tx.query(`UPDATE device SET read_method = 'manual' WHERE id = ANY ($1::int[])`, [ids]);
  const { rows: occupants } = await tx.query<{ id: number; location_id: number; name: string }>(
    'SELECT id, location_id, name FROM occupancy WHERE location_id = ANY ($1::int[])',
    [plan.flats],
  );
  const last = span.months.length - 1;
  const late: DemoDeclared['late'] = [];
  let doubtful: DemoDeclared['doubtful'] = null;
  // The current month too when its window is open (an hour ago): the first flat's cold meter.
  const hourAgo = new Date(now.getTime() - 3_600_000);
  const window = await currentWindow(tx, hourAgo);
  const current = window.Open && `${window.Month}-01` > span.months[last]! ? `${window.Month}-01` : null;

  const entries: Entry[] = [];
  for (const [f, flat] of plan.devices.entries()) {
    for (const device of [flat.cold, flat.hot]) {
      const rng = new Rng(seed * 7919 + device.deviceId);
      const cold = device === flat.cold;
      let skippedBefore = 0;
      for (const [k, month] of span.months.entries()) {
        const day = rng.int(21, 27);
        const hour = rng.int(8, 20);
        const minute = rng.int(0, 59);
        // Late: the second flat's last month (estimated until it comes), the third flat's cold meter
        // earlier (never declared: valued between the declarations around it).
        const skipped = (f === 1 && k === last) || (f === 2 && cold && k === last - 2);
        if (skipped) {
          late.push({ deviceId: device.deviceId, month: month.slice(0, 7) });
          skippedBefore++;
          continue;
        }
        const at = `${month.slice(0, 8)}${String(day).padStart(2, '0')} ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
        entries.push({
          deviceId: device.deviceId,
          month,
          at,
          months: 1 + skippedBefore,
          phone: f === 2 && k === last - 3,
          doubtful: f === 0 && !cold && k === last,
        });
        skippedBefore = 0;
      }
      if (current && f === 0 && cold) {
        entries.push({
          deviceId: device.deviceId,
          month: current,
          at: hourAgo.toISOString(),
          months: 1,
          phone: false,
          doubtful: false,
        });
      }
    }
  }
  entries.sort((a, b) => (a.month === b.month ? a.deviceId - b.deviceId : a.month < b.month ? -1 : 1));

  let declarations = 0;
  for (const e of entries) {
    const device = plan.devices.find((d) => d.cold.deviceId === e.deviceId || d.hot.deviceId === e.deviceId)!;
    const occupant = occupants.find((o) => o.location_id === device.flat)!;
    // A local time of the provider's zone (the session's), or an instant.
    const at = e.at.includes('T')
      ? new Date(e.at)
      : (await tx.query<{ at: Date }>('SELECT $1::timestamp::timestamptz AS at', [e.at])).rows[0]!.at;
    const bounds = await declaredDevice(tx, occupant.id, at, e.month, e.deviceId);
    if (!bounds) continue;
    const previous = bounds.previous_value === null ? 0 : Number(bounds.previous_value);
    const max = bounds.plausible_max === null ? null : Number(bounds.plausible_max);
    const cold = device.cold.deviceId === e.deviceId;
    // A month's water (the months skipped before it included), or well above the plausible maximum.
    const rng = new Rng(seed * 104_729 + e.deviceId * 31 + Number(e.month.slice(5, 7)));
    const use = (cold ? rng.between(2.2, 4.6) : rng.between(1.1, 2.8)) * e.months;
    const value = Number((e.doubtful && max !== null ? max + 4.25 : previous + use).toFixed(3));
    const photoId = e.doubtful ? await storePhoto(tx, occupant.id, await cleanPhoto(await meterPhoto(value))) : null;
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO declaration (device_id, occupancy_id, location_id, value, declared_at, month, entered_by, channel,
                                photo_id, status, confirmed, plausible_max, previous_value, caller_name)
       VALUES ($1, $2, $3, $4, ${declaredAtSql('$5')}, $6::date, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
      [
        e.deviceId,
        occupant.id,
        device.flat,
        value,
        at,
        e.month,
        e.phone ? operatorId : null,
        e.phone ? 'phone' : 'occupant',
        photoId,
        e.doubtful ? 'doubtful' : 'accepted',
        e.doubtful,
        max,
        bounds.previous_value === null ? null : previous,
        e.phone ? occupant.name : null,
      ],
    );
    const id = rows[0]!.id;
    await applyDeclarations(tx, e.deviceId, e.month);
    if (e.doubtful) {
      await openDoubtfulAnomaly(tx, id);
      doubtful = { deviceId: e.deviceId, month: e.month.slice(0, 7), declarationId: id };
    }
    declarations++;
  }
  return {
    buildingId: plan.buildingId,
    flats: plan.flats,
    deviceIds: ids,
    since: new Date(span.sinceMs).toISOString(),
    months: span.months.map((m) => m.slice(0, 7)),
    declarations,
    late,
    doubtful,
  };
}
