/*
 * The inputs and the answer of a building's heat split by its method (docs/heat-method.md): the
 * building meter's energy in a month split into seven parts, each shared among the flats by its
 * own key. Pure data: no database here.
 */

/** How the heat that warms the hot water and the circulation loss are found. */
export type HotWaterHeat = 'norm' | 'meter' | 'formulaDE';

/** A dated heating-season period: first day, last day inclusive (null: still open). */
export interface SeasonPeriod {
  from: string;
  to: string | null;
}

/** A building's method parameters valid in the month (docs/heat-method.md, "The method"). */
export interface HeatMethod {
  hotWaterHeat: HotWaterHeat;
  /** kWh per m³ of hot water (norm and meter). */
  kwhPerM3: number;
  /** kWh per flat per month in the heating season (norm only; a flat's class overrides it). */
  circulationNorm: number;
  /** Hot-water temperature, °C (formulaDE). */
  hotWaterTemperature: number;
  /** District heat: the formulaDE estimate is divided by 1.15. */
  districtHeat: boolean;
  seasons: readonly SeasonPeriod[];
  /** Share of the season's space heating for common areas, by area among all flats (0–0.5). */
  commonShare: number;
  /** Share of the allocator flats' space heating split among them by area (0–0.5). */
  baseShare: number;
  /** k_min: a device flat's space heating per m² is at least k_min × the building's average (0–1). */
  minimumShare: number;
}

/** One flat of the building, in flat order. */
export interface SplitFlat {
  id: number;
  /** Floor area, m² (null: unknown, the month is incomplete). */
  area: number | null;
  /** Its heating device in service in the month: allocators, its own heat meter, or none. */
  heating: 'allocator' | 'energy' | null;
  /** Allocators: Qrad in the month (null: a device without a value). */
  qrad: number | null;
  /** Own heat meter: kWh in the month (null: no value). */
  kwh: number | null;
  /** Hot water m³ in the month (0 without a hot-water meter; null: a meter without a value). */
  hotWaterM3: number | null;
  /** Multiplies the flat's Qrad in the consumption key (default 1). */
  positionFactor: number;
  /** The flat's circulation class, kWh per month in the season (null: the building's norm). */
  circulationClass: number | null;
}

/** A building's month, as the split needs it. */
export interface SplitInput {
  /** 'YYYY-MM'. */
  month: string;
  /** The input meter's energy in the month (null: no value). */
  inputKwh: number | null;
  /**
   * The input meter's energy from the month's start up to day D 00:00, for each day D on which
   * the heating season starts or ends inside the month (null: no value there).
   */
  inputUpTo: ReadonlyMap<string, number | null>;
  /** The building's hot-water input meter: m³ in the month (null: no value); absent: none. */
  hotWaterInput: { m3: number | null } | null;
  /** The hot-water heat meter: kWh in the month (null: no value); absent: none. */
  hotWaterHeatMeter: { kwh: number | null } | null;
  flats: readonly SplitFlat[];
}

/** The seven building parts; they add up to the input. */
export const BUILDING_PARTS = [
  'hotWater',
  'circulation',
  'common',
  'noDevice',
  'heatMeter',
  'base',
  'consumption',
] as const;
export type BuildingPart = (typeof BUILDING_PARTS)[number];
export type PartAmounts = Record<BuildingPart, number>;

/** One flat's parts; `assigned` is heat added by the minimum rule, booked within the part it came from. */
export interface FlatParts extends PartAmounts {
  id: number;
  assigned: number;
  /** Space heating: common + noDevice + heatMeter + base + consumption + assigned. */
  space: number;
  /** Everything: space + hotWater + circulation. */
  total: number;
}

/** A stretch of the month in or out of the heating season, with the input's energy in it. */
export interface SplitPeriod {
  from: string;
  to: string;
  days: number;
  inSeason: boolean;
  inputKwh: number | null;
}

/** Why a month is unbalanced. */
export type UnbalancedReason =
  | 'negativeValue'
  | 'hotWaterAboveInput'
  | 'circulationAboveInput'
  | 'hotWaterAboveMeter'
  | 'meterAboveInput'
  | 'heatMetersAboveSpace'
  | 'minimumNotCovered';

/** What a month's split says. */
export interface SplitResult {
  status: 'split' | 'unbalanced' | 'incomplete';
  /** Unbalanced: why. */
  reason: UnbalancedReason | null;
  /** Incomplete: which values are missing, e.g. 'input', 'hotWaterM3:12'. */
  missing: string[];
  periods: SplitPeriod[];
  /** V, the building's hot-water volume, and V − the flats' m³ (null when unknown). */
  hotWaterM3: number | null;
  hotWaterLossesM3: number | null;
  /** The input rounded to the thousandth; the parts add up to it exactly. Null unless split. */
  inputKwh: number | null;
  parts: PartAmounts | null;
  /** Per flat in the order given; null unless split. */
  flats: FlatParts[] | null;
}
