import type { HeatMethodVersion, KwhMethod, MonthEndSource, StatementBuildingLine } from '@rodmenys/contract';
import { type BuildingHeatBalance, balanceOf, methodOf, splitInputOf } from './heat-split/from-parts.js';
import { splitBuildingMonth } from './heat-split/split.js';
import type { FlatParts } from './heat-split/types.js';
import { shareByQrad } from './kwh-share.js';
import type { Part, Parts } from './parts.js';
import type { BuildingFlat } from './selection.js';

/*
 * The allocators' kWh of a building in a month (docs/statements.md): the building heat meter's
 * energy, less the flats' own heat meters (E), shared by Qrad among the allocator flats. A flat
 * heat meter without a value leaves E unknown: no flat gets kWh (a missing value is never 0).
 * When the allocators count nothing (ΣQrad = 0), every allocator flat gets 0 kWh and E stays
 * unshared on the building line.
 */

/** How a flat is heated: by its own heat meter (kWh), by allocators, or not at all. */
export type HeatingProc = 'energy' | 'allocator' | null;

/** A flat with a heat meter is heated by kWh; else by allocators. */
export const heatingProcOf = (parts: Parts, flatId: number): HeatingProc =>
  parts.has(flatId, 'heating', 'energy') ? 'energy' : parts.has(flatId, 'heating', 'allocator') ? 'allocator' : null;

/** Finding a location's part of a kind and proc in a month (Parts, or another reader of the same parts). */
export type PartLookup = Pick<Parts, 'get'>;

/** A building's kWh sharing in one month. */
export interface BuildingKwh {
  method: KwhMethod;
  /** The building heat meter's energy. */
  energy: number | null;
  /** Per allocator flat its share. */
  share: Map<number, number>;
  /** Some value behind the sharing is partial. */
  partial: boolean;
  /** The sources of every value behind the sharing, sorted. */
  sources: MonthEndSource[];
  /** What the meter measured, what was subtracted for which flats, E; null without a building meter. */
  line: StatementBuildingLine | null;
  /**
   * By the building's heat method (docs/heat-method.md): its balance, the version that split the month
   * (its parameters go with each flat's figures), and each flat's parts when split.
   */
  balance?: BuildingHeatBalance;
  version?: HeatMethodVersion;
  flats?: ReadonlyMap<number, FlatParts>;
}

/** A building's method versions (oldest first) and the input's energy up to season days, for the split. */
export interface MethodInputs {
  versions: ReadonlyMap<number, readonly HeatMethodVersion[]>;
  upTo: ReadonlyMap<string, number | null>;
}

/** The key of a building's month in the map kwhByBuilding returns. */
export const kwhKey = (building: number, month: string) => `${building}|${month}`;

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const r3 = (x: number | null) => (x === null ? null : round3(x));

/** The sorted union of the parts' sources. */
const sourcesOf = (parts: ReadonlyArray<Part | undefined>): MonthEndSource[] =>
  [...new Set(parts.flatMap((p) => p?.sources ?? []))].sort();

/** The flats with their own heat meter in service in `m`, with their energy (null: no value). */
function ownMeters(
  parts: PartLookup,
  members: readonly BuildingFlat[],
  heating: ReadonlyMap<number, HeatingProc>,
  m: string,
) {
  return members
    .filter((f) => heating.get(f.flat_id) === 'energy')
    .map((f) => ({ flat: f, part: parts.get(f.flat_id, 'heating', 'energy', m) }))
    .filter((x): x is { flat: BuildingFlat; part: Part } => !!x.part);
}

/** E: the meter's energy less the flats' own meters; null when any of them has no value. */
function energyForAllocators(meter: Part, own: ReadonlyArray<{ part: Part }>): number | null {
  if (meter.value === null || own.some((o) => o.part.value === null)) return null;
  return own.reduce((e, o) => e - o.part.value!, meter.value);
}

/** How E is shared by the allocator flats' Qrad: their shares, all 0 (ΣQrad = 0), or not at all. */
function shareEnergy(
  e: number | null,
  qrads: ReadonlyArray<number | null>,
): { method: KwhMethod; shares: number[] | null } {
  if (e === null || qrads.some((q) => q === null)) return { method: 'incompleteBuilding', shares: null };
  const known = qrads as number[];
  if (known.every((q) => q === 0)) return { method: 'noAllocatorConsumption', shares: known.map(() => 0) };
  const shares = shareByQrad(e, known);
  return shares ? { method: 'buildingMeterByQrad', shares } : { method: 'incompleteBuilding', shares: null };
}

/** The building line of a sharing. */
function lineOf(
  meter: Part,
  own: ReadonlyArray<{ flat: BuildingFlat; part: Part }>,
  e: number | null,
  shares: number[] | null,
): StatementBuildingLine {
  const subtracted = own.some((o) => o.part.value === null) ? null : own.reduce((a, o) => a + o.part.value!, 0);
  const shared = shares === null ? null : round3(shares.reduce((a, s) => a + s, 0));
  return {
    MeterKwh: r3(meter.value),
    Subtracted: own.map((o) => ({ FlatId: o.flat.flat_id, Flat: o.flat.flat, Kwh: r3(o.part.value) })),
    SubtractedKwh: r3(subtracted),
    AllocatorKwh: r3(e),
    SharedKwh: shared,
    UnsharedKwh: e === null || shared === null ? null : round3(round3(e) - shared),
  };
}

/** One building's sharing in month `m`; partial when any value behind it is. */
export function buildingKwh(
  parts: PartLookup,
  building: number,
  members: readonly BuildingFlat[],
  heating: ReadonlyMap<number, HeatingProc>,
  m: string,
): BuildingKwh {
  const meter = parts.get(building, 'building', 'energy', m);
  const allocFlats = members.filter((f) => heating.get(f.flat_id) === 'allocator');
  const allocParts = allocFlats.map((f) => parts.get(f.flat_id, 'heating', 'allocator', m));
  const own = ownMeters(parts, members, heating, m);
  const behind = [meter, ...allocParts, ...own.map((o) => o.part)];
  const partial = behind.some((p) => p?.partial);
  const sources = sourcesOf(behind);
  if (!meter) return { method: 'noBuildingMeter', energy: null, share: new Map(), partial, sources, line: null };
  const e = energyForAllocators(meter, own);
  const { method, shares } = shareEnergy(
    e,
    allocParts.map((p) => (p ? p.qrad : 0)),
  );
  return {
    method,
    energy: meter.value,
    share: new Map(shares ? allocFlats.map((f, i) => [f.flat_id, shares[i]!]) : []),
    partial,
    sources,
    line: lineOf(meter, own, e, shares),
  };
}

/**
 * One building's month split by its heat method (docs/heat-method.md): every flat's space heating
 * as its share (allocator, heat-meter and no-device flats alike); none when the month is unbalanced
 * or incomplete. Without an input meter in the month the plain rule's answer stands (no kWh).
 */
export function buildingKwhByMethod(
  parts: PartLookup,
  building: number,
  members: readonly BuildingFlat[],
  heating: ReadonlyMap<number, HeatingProc>,
  version: HeatMethodVersion,
  upTo: ReadonlyMap<string, number | null>,
  m: string,
): BuildingKwh {
  const method = methodOf(version);
  // The plain rule's sharing only when it is the answer (no method, or no input meter in `m`): by the
  // method only the meter's energy is kept of it (docs/statements.md, "Figures of many flats").
  const meter = parts.get(building, 'building', 'energy', m);
  if (!method || !meter) return buildingKwh(parts, building, members, heating, m);
  const input = splitInputOf(parts, building, members, heating, version, method, upTo, m);
  const r = splitBuildingMonth(method, input);
  const hot = members.map((f) => parts.get(f.flat_id, 'hotWater', 'volume', m));
  const behind = [
    meter,
    parts.get(building, 'hotWaterInput', 'volume', m),
    parts.get(building, 'hotWaterHeat', 'energy', m),
    ...hot,
    ...members.flatMap((f) => heatingParts(parts, f, m)),
  ];
  const flats = new Map((r.flats ?? []).map((f) => [f.id, f]));
  return {
    method:
      r.status === 'split' ? 'heatMethod' : r.status === 'unbalanced' ? 'heatMethodUnbalanced' : 'incompleteBuilding',
    energy: meter.value,
    share: new Map([...flats].map(([id, f]) => [id, f.space])),
    partial: behind.some((p) => p?.partial),
    sources: sourcesOf(behind),
    line: null,
    balance: balanceOf(version, method, r),
    version,
    flats,
  };
}

/** A flat's heating parts of month `m` (allocators and its own heat meter). */
const heatingParts = (parts: PartLookup, f: BuildingFlat, m: string) => [
  parts.get(f.flat_id, 'heating', 'allocator', m),
  parts.get(f.flat_id, 'heating', 'energy', m),
];

/** Every building's sharing in every month computed, by kwhKey: by its heat method where one is valid that month. */
export function kwhByBuilding(
  parts: Parts,
  buildings: ReadonlyMap<number, readonly BuildingFlat[]>,
  heating: ReadonlyMap<number, HeatingProc>,
  computed: readonly string[],
  methods?: MethodInputs,
): Map<string, BuildingKwh> {
  const out = new Map<string, BuildingKwh>();
  for (const [building, members] of buildings)
    for (const m of computed) {
      const version = methods?.versions.get(building)?.findLast((v) => v.ValidFrom <= m);
      out.set(
        kwhKey(building, m),
        version && methodOf(version)
          ? buildingKwhByMethod(parts, building, members, heating, version, methods!.upTo, m)
          : buildingKwh(parts, building, members, heating, m),
      );
    }
  return out;
}
