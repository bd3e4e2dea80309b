import type { HeatMethodVersion, StatementHeatBalance, StatementHeatParameters } from '@rodmenys/contract';
import type { Parts } from '../parts.js';
import type { BuildingFlat } from '../selection.js';
import { splitDays } from './periods.js';
import type { HeatMethod, SplitFlat, SplitInput, SplitResult } from './types.js';

/*
 * The statements' side of the split (docs/heat-method.md): a building's month as the split takes
 * it, read from the statements' parts (parts.ts) and the method version valid in that month.
 */

/** Finding a location's part (Parts, or another reader of the same parts). */
type PartLookup = Pick<Parts, 'get'>;
/** How a flat is heated in M − 12 … M (kwh.ts heatingProcOf). */
type HeatingProc = 'energy' | 'allocator' | null;

/** A method version's parameters as the split takes them; null for a version of the plain rule. */
export function methodOf(v: HeatMethodVersion | null): HeatMethod | null {
  if (!v || v.HotWaterHeat === null) return null;
  return {
    hotWaterHeat: v.HotWaterHeat,
    kwhPerM3: v.KwhPerM3,
    circulationNorm: v.CirculationNorm,
    hotWaterTemperature: v.HotWaterTemperature,
    districtHeat: v.DistrictHeat,
    seasons: v.Seasons.map((s) => ({ from: s.From, to: s.To })),
    commonShare: v.CommonShare,
    baseShare: v.BaseShare,
    minimumShare: v.MinimumShare,
  };
}

/** The key of a building's season day in the map of the input's energy up to that day. */
export const seasonDayKey = (building: number, day: string) => `${building}|${day}`;

/** One flat as the split takes it in month `m`. */
function flatOf(parts: PartLookup, f: BuildingFlat, proc: HeatingProc, v: HeatMethodVersion, m: string): SplitFlat {
  const own = v.Flats.find((x) => x.FlatId === f.flat_id);
  // A device group not in service in `m` has no part: the flat has no heating device that month.
  const alloc = proc === 'allocator' ? parts.get(f.flat_id, 'heating', 'allocator', m) : undefined;
  const meter = proc === 'energy' ? parts.get(f.flat_id, 'heating', 'energy', m) : undefined;
  const hot = parts.get(f.flat_id, 'hotWater', 'volume', m);
  return {
    id: f.flat_id,
    area: f.area_m2,
    heating: alloc ? 'allocator' : meter ? 'energy' : null,
    qrad: alloc ? alloc.qrad : null,
    kwh: meter ? meter.value : null,
    // No hot-water meter in service: 0 m³ (nothing to miss); a meter without a value: missing.
    hotWaterM3: hot ? hot.value : 0,
    positionFactor: own?.PositionFactor ?? 1,
    circulationClass: own?.CirculationClass ?? null,
  };
}

/** A building's month as the split takes it; the input's energy up to the season's days from `upTo`. */
export function splitInputOf(
  parts: PartLookup,
  building: number,
  members: readonly BuildingFlat[],
  heating: ReadonlyMap<number, HeatingProc>,
  v: HeatMethodVersion,
  method: HeatMethod,
  upTo: ReadonlyMap<string, number | null>,
  m: string,
): SplitInput {
  const input = parts.get(building, 'building', 'energy', m);
  // The building-level devices of the hot water's roles (docs/heat-method.md, "Devices"), in service in `m`.
  const hwInput = parts.get(building, 'hotWaterInput', 'volume', m);
  const hwHeat = parts.get(building, 'hotWaterHeat', 'energy', m);
  return {
    month: m,
    inputKwh: input?.value ?? null,
    inputUpTo: new Map(splitDays(m, method.seasons).map((d) => [d, upTo.get(seasonDayKey(building, d)) ?? null])),
    hotWaterInput: hwInput ? { m3: hwInput.value } : null,
    hotWaterHeatMeter: hwHeat ? { kwh: hwHeat.value } : null,
    flats: members.map((f) => flatOf(parts, f, heating.get(f.flat_id) ?? null, v, m)),
  };
}

/** A building's balance without the parameters, which are each flat's (parametersOf). */
export type BuildingHeatBalance = Omit<StatementHeatBalance, 'Parameters'>;

/**
 * The parameters of version `v` behind flat `flatId`'s month (docs/heat-method.md, "Publication"): the
 * building's and the flat's own; frozen with the figures when they are published.
 */
export function parametersOf(v: HeatMethodVersion, flatId: number): StatementHeatParameters {
  const own = v.Flats.find((x) => x.FlatId === flatId);
  return {
    KwhPerM3: v.KwhPerM3,
    CirculationNorm: v.CirculationNorm,
    HotWaterTemperature: v.HotWaterTemperature,
    DistrictHeat: v.DistrictHeat,
    // In the contract's order (jsonb keeps its own).
    Seasons: v.Seasons.map((s) => ({ From: s.From, To: s.To })),
    CommonShare: v.CommonShare,
    BaseShare: v.BaseShare,
    MinimumShare: v.MinimumShare,
    PositionFactor: own?.PositionFactor ?? 1,
    CirculationClass: own?.CirculationClass ?? null,
  };
}

/** The building's balance of a month's split, as the statements show it (each flat adds its parameters). */
export function balanceOf(v: HeatMethodVersion, method: HeatMethod, r: SplitResult): BuildingHeatBalance {
  const p = r.parts;
  return {
    Method: method.hotWaterHeat,
    ValidFrom: v.ValidFrom,
    Status: r.status,
    Reason: r.reason,
    InputKwh: r.inputKwh,
    HotWaterKwh: p?.hotWater ?? null,
    CirculationKwh: p?.circulation ?? null,
    CommonKwh: p?.common ?? null,
    NoDeviceKwh: p?.noDevice ?? null,
    HeatMeterKwh: p?.heatMeter ?? null,
    BaseKwh: p?.base ?? null,
    ConsumptionKwh: p?.consumption ?? null,
    HotWaterM3: r.hotWaterM3,
    HotWaterLossesM3: r.hotWaterLossesM3,
  };
}
