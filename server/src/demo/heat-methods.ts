import { DEVICE_TYPE, type DeviceRole, type HeatMethodBody, LOCATION_LEVEL } from '@rodmenys/contract';
import type { Tx } from '../db/db.js';
import { storeHeatMethodVersion } from '../services/heat-methods/heat-methods.js';
import { MANUFACTURERS, MODELS } from './names.js';
import { perDayOf } from './readings.js';

/*
 * The demo's heat methods (docs/heat-method.md, "In the demo"): two buildings besides the manager's
 * split their heat by a method, so a newcomer sees every part. The first building heated by
 * allocators only: norm hot water, a heating season from 15 October, a common share, a base
 * share, the minimum share (a large flat heating little is raised), a corner flat with a position
 * factor, and a flat whose allocators never reported (the occupant refused the reader: valued by
 * area). Another building with allocators (the one whose input meter takes the most): a hot-water
 * heat meter and a hot-water input meter, the `meter` method. Nothing here draws from the demo's random numbers:
 * the rest of the demo stays as it was.
 */

/** What the planner needs of a location and a device of the generator. */
interface Loc {
  id: number;
  parentId: number | null;
  level: number;
  flatOrder: number | null;
}
interface Dev {
  deviceId: number;
  deviceCode: string;
  deviceTypeId: number;
  locationId: number;
  counterCode: string;
  model: string;
  description: string;
  ratingFactor: string | null;
  installedAt: string;
  role?: DeviceRole | null;
}

/** The demo's heat-method buildings and their special flats. */
export interface DemoHeat {
  /** The building with the norm method, and its flats by role. */
  norm: { buildingId: number; cornerFlat: number; minimumFlat: number; refusedFlat: number } | null;
  /** The building with the meter method. */
  meter: { buildingId: number } | null;
  /** The allocators of the refused flat: they never report. */
  refusedDevices: number[];
}

const flatsOf = (locations: readonly Loc[], building: number) =>
  locations
    .filter((l) => l.parentId === building && l.level === LOCATION_LEVEL.flat)
    .sort((a, b) => (a.flatOrder ?? 0) - (b.flatOrder ?? 0));

/** A flat's floor area in the demo's method buildings: 40–69 m² by its place, the minimum flat 110 m². */
const areaOf = (order: number) => 40 + ((order * 7) % 30);

/**
 * Picks the method buildings (not the manager's) and adds the meter building's two hot-water devices
 * to `devices` (ids after the last, serials not in use).
 */
export function planDemoHeat(
  locations: readonly Loc[],
  devices: Dev[],
  managerBuilding: number,
  seed: number,
  installedAt: string,
): DemoHeat {
  const buildings = locations.filter((l) => l.level === LOCATION_LEVEL.building && l.id !== managerBuilding);
  const byLoc = new Map<number, Dev[]>();
  for (const d of devices) byLoc.set(d.locationId, [...(byLoc.get(d.locationId) ?? []), d]);
  const allocatorsOf = (flat: number) =>
    (byLoc.get(flat) ?? []).filter((d) => d.deviceTypeId === DEVICE_TYPE.allocator);
  // Allocators in every flat, at least three flats.
  const normB = buildings.find((b) => {
    const flats = flatsOf(locations, b.id);
    return flats.length >= 3 && flats.every((f) => allocatorsOf(f.id).length > 0);
  });
  let norm: DemoHeat['norm'] = null;
  let refusedDevices: number[] = [];
  if (normB) {
    const flats = flatsOf(locations, normB.id);
    const corner = flats[0]!;
    const refused = flats.at(-1)!;
    // The flat whose allocators count least for their rooms, with 110 m².
    const rating = (f: Loc) => allocatorsOf(f.id).reduce((a, d) => a + Number(d.ratingFactor), 0);
    const minimum = flats.slice(1, -1).reduce((a, f) => (rating(f) < rating(a) ? f : a));
    // Its allocators count at the lowest rating factor: it heats too little for its area.
    for (const d of allocatorsOf(minimum.id)) d.ratingFactor = '0.500';
    norm = { buildingId: normB.id, cornerFlat: corner.id, minimumFlat: minimum.id, refusedFlat: refused.id };
    refusedDevices = allocatorsOf(refused.id).map((d) => d.deviceId);
  }
  // The meter building: one with allocator flats (so its flat heat meters pay exactly as measured),
  // the input meter taking the most (its summer base holds the hot water's heat).
  const inputOf = (b: Loc) => (byLoc.get(b.id) ?? []).find((d) => d.deviceTypeId === DEVICE_TYPE.buildingHeatMeter);
  const rest = buildings
    .filter((b) => b.id !== normB?.id && inputOf(b) && flatsOf(locations, b.id).some((f) => allocatorsOf(f.id).length))
    .map((b) => ({ b, perDay: perDayOf(seed, inputOf(b)!.deviceCode, DEVICE_TYPE.buildingHeatMeter) }))
    .sort((x, y) => y.perDay - x.perDay);
  const meterB = rest[0]?.b;
  if (meterB) {
    const codes = new Set(devices.map((d) => d.deviceCode));
    let id = Math.max(...devices.map((d) => d.deviceId));
    const add = (typeId: number, role: DeviceRole, description: string) => {
      id++;
      let code = `9${String(id).padStart(7, '0')}`;
      while (codes.has(code)) code = String(Number(code) + 1);
      codes.add(code);
      devices.push({
        deviceId: id,
        deviceCode: code,
        deviceTypeId: typeId,
        locationId: meterB.id,
        counterCode: `${MANUFACTURERS[typeId]}${id.toString(16).toUpperCase().padStart(8, '0')}`,
        model: MODELS[typeId]![0]!,
        description,
        ratingFactor: null,
        installedAt,
        role,
      });
    };
    add(DEVICE_TYPE.hotWaterMeter, 'hotWaterInput', 'Karšto vandens įvadas');
    add(DEVICE_TYPE.buildingHeatMeter, 'hotWaterHeat', 'Karšto vandens šilumokaitis');
  }
  return { norm, meter: meterB ? { buildingId: meterB.id } : null, refusedDevices };
}

/** The heating seasons over the demo's months: 15 October to 30 April, the last one open. */
function seasons(firstYear: number, lastYear: number) {
  const out: { From: string; To: string | null }[] = [];
  for (let y = firstYear; y <= lastYear; y++) out.push({ From: `${y}-10-15`, To: `${y + 1}-04-30` });
  out.at(-1)!.To = null;
  return out;
}

const BASE: Omit<HeatMethodBody, 'HotWaterHeat' | 'Seasons' | 'Flats'> = {
  KwhPerM3: 51,
  CirculationNorm: 80,
  HotWaterTemperature: 60,
  DistrictHeat: true,
  CommonShare: 0,
  BaseShare: 0.3,
  MinimumShare: 0,
};

/**
 * Stores the methods, valid from the demo's first month (`from`, 'YYYY-MM'), and the flats' floor
 * areas of the method buildings (the area keys need them). `nowYear`: the year of the last month.
 */
export async function loadDemoHeat(
  tx: Tx,
  heat: DemoHeat,
  locations: readonly Loc[],
  from: string,
  nowYear: number,
): Promise<void> {
  const periods = seasons(Number(from.slice(0, 4)) - 1, nowYear);
  const store = async (building: number, body: HeatMethodBody) => {
    const flats = flatsOf(locations, building);
    for (const f of flats) {
      const area = heat.norm?.minimumFlat === f.id ? 110 : areaOf(f.flatOrder ?? 0);
      await tx.query('UPDATE location SET area_m2 = $2 WHERE id = $1', [f.id, area]);
    }
    await storeHeatMethodVersion(tx, building, from, body, null);
  };
  if (heat.norm)
    await store(heat.norm.buildingId, {
      ...BASE,
      HotWaterHeat: 'norm',
      Seasons: periods,
      CommonShare: 0.05,
      MinimumShare: 0.5,
      Flats: [{ FlatId: heat.norm.cornerFlat, PositionFactor: 1.15, CirculationClass: null }],
    });
  // Its flats' own heat meters (if any) pay as measured: no common share, no minimum.
  if (heat.meter) await store(heat.meter.buildingId, { ...BASE, HotWaterHeat: 'meter', Seasons: periods, Flats: [] });
}
