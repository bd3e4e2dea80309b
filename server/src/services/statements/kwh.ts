import type { KwhMethod } from '@rodmenys/contract';
import { shareByQrad } from './kwh-share.js';
import type { Part, Parts } from './parts.js';
import type { BuildingFlat } from './selection.js';

/*
 * The allocators' kWh of a building in a month (docs/statements.md): the building heat meter's
 * energy, less the flats' own heat meters, shared by Qrad among the allocator flats.
 */

/** How a flat is heated: by its own heat meter (kWh), by allocators, or not at all. */
export type HeatingProc = 'energy' | 'allocator' | null;

/** A flat with a heat meter is heated by kWh; else by allocators. */
export const heatingProcOf = (parts: Parts, flatId: number): HeatingProc =>
  parts.has(flatId, 'heating', 'energy') ? 'energy' : parts.has(flatId, 'heating', 'allocator') ? 'allocator' : null;

/** A building's kWh sharing in one month. */
export interface BuildingKwh {
  method: KwhMethod;
  /** The building heat meter's energy. */
  energy: number | null;
  /** Per allocator flat its share. */
  share: Map<number, number>;
  /** Some value behind the sharing is partial. */
  partial: boolean;
}

/** The key of a building's month in the map kwhByBuilding returns. */
export const kwhKey = (building: number, month: string) => `${building}|${month}`;

/** One building's sharing in month `m`; partial when any value behind it is. */
export function buildingKwh(
  parts: Parts,
  building: number,
  members: readonly BuildingFlat[],
  heating: ReadonlyMap<number, HeatingProc>,
  m: string,
): BuildingKwh {
  const meter = parts.get(building, 'building', 'energy', m);
  const allocFlats = members.filter((f) => heating.get(f.flat_id) === 'allocator');
  const allocParts = allocFlats.map((f) => parts.get(f.flat_id, 'heating', 'allocator', m));
  const meterParts = members
    .filter((f) => heating.get(f.flat_id) === 'energy')
    .map((f) => parts.get(f.flat_id, 'heating', 'energy', m));
  const partial = [meter, ...allocParts, ...meterParts].some((p) => p?.partial);
  if (!meter) return { method: 'noBuildingMeter', energy: null, share: new Map(), partial };
  const shares = sharesOf(meter, meterParts, allocParts);
  if (!shares) return { method: 'incompleteBuilding', energy: meter.value, share: new Map(), partial };
  return {
    method: 'buildingMeterByQrad',
    energy: meter.value,
    share: new Map(allocFlats.map((f, i) => [f.flat_id, shares[i]!])),
    partial,
  };
}

/** The allocator flats' shares of the meter's energy less the flats' heat meters; null when unknown. */
function sharesOf(
  meter: Part,
  meterParts: ReadonlyArray<Part | undefined>,
  allocParts: ReadonlyArray<Part | undefined>,
): number[] | null {
  const flatMeters = sumOrNull(meterParts.map((p) => p?.value ?? 0));
  const qrads = allocParts.map((p) => (p ? p.qrad : 0));
  const energy = meter.value === null || flatMeters === null ? null : meter.value - flatMeters;
  if (energy === null || qrads.some((q) => q === null)) return null;
  return shareByQrad(energy, qrads as number[]);
}

const sumOrNull = (xs: ReadonlyArray<number | null>): number | null =>
  xs.some((x) => x === null) ? null : xs.reduce<number>((a, x) => a + (x ?? 0), 0);

/** Every building's sharing in every month computed, by kwhKey. */
export function kwhByBuilding(
  parts: Parts,
  buildings: ReadonlyMap<number, readonly BuildingFlat[]>,
  heating: ReadonlyMap<number, HeatingProc>,
  computed: readonly string[],
): Map<string, BuildingKwh> {
  const out = new Map<string, BuildingKwh>();
  for (const [building, members] of buildings)
    for (const m of computed) out.set(kwhKey(building, m), buildingKwh(parts, building, members, heating, m));
  return out;
}
