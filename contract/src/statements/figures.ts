import { type Static, Type } from '@sinclair/typebox';
import { Day, Id, MonthParam, Nullable, Timestamp } from '../common.js';
import { MonthEndSource } from '../data-quality.js';
import { HeatSeason } from '../heat-methods.js';

/**
 * Monthly consumption information per flat (docs/statements.md): for a month M, per flat and
 * kind, the consumption in M, in M−1 and in the same month a year before, from the month-end
 * values; the building's average; allocators in units, Qrad and (with a building heat meter) kWh.
 */
export const STATEMENT_KINDS = ['heating', 'hotWater', 'coldWater'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];
export const StatementKind = Type.Union(STATEMENT_KINDS.map((k) => Type.Literal(k)));

/** The unit a kind's figures are in: kWh (heat meters, or allocators shared from a building meter), Qrad, m³. */
export const STATEMENT_UNITS = ['kWh', 'Qrad', 'm3'] as const;
export type StatementUnit = (typeof STATEMENT_UNITS)[number];
export const StatementUnit = Type.Union(STATEMENT_UNITS.map((u) => Type.Literal(u)));

/** Against the same month a year before: above `HIGH` times it is high, below `LOW` times it is low. */
export const STATEMENT_HIGH_FACTOR = 1.5;
export const STATEMENT_LOW_FACTOR = 0.5;

/** One month's consumption of a flat and kind. */
export const StatementFigure = Type.Object({
  /** Null when a device of the flat has no value for the month (see `Incomplete`). */
  Value: Nullable(Type.Number()),
  /** Some month-end value behind it is interpolated, estimated or set by hand. */
  Partial: Type.Boolean(),
  /** Devices of the flat without a month-end value at either end: the figure is not given. */
  Incomplete: Type.Boolean(),
  /** The sources of the month-end values behind it (each once). */
  Sources: Type.Array(MonthEndSource),
});
export type StatementFigure = Static<typeof StatementFigure>;

/**
 * A figure's markers: estimated (a value behind it not measured), incomplete, high or low against
 * last year, overdue (a device feeding it was past its verification due date or battery end
 * in M, docs/device-lifetime.md; which ones: `Overdue`), and lateDeclaration (it carries the
 * correction of a late declaration, docs/declared-readings.md; of which months: `LateDeclarations`).
 */
export const STATEMENT_MARKERS = ['estimated', 'incomplete', 'high', 'low', 'overdue', 'lateDeclaration'] as const;
export type StatementMarker = (typeof STATEMENT_MARKERS)[number];
export const StatementMarker = Type.Union(STATEMENT_MARKERS.map((m) => Type.Literal(m)));

/**
 * How allocators' kWh were found: shared from the building heat meter by Qrad (the plain rule,
 * plainQrad); not at all (no building meter, or a value behind the sharing missing); 0 for every
 * allocator flat because the building's allocators counted nothing in M (ΣQrad = 0, nothing
 * missing); split by the building's heat method (docs/heat-method.md), or not, the month being
 * unbalanced by it.
 */
export const KWH_METHODS = [
  'buildingMeterByQrad',
  'noBuildingMeter',
  'incompleteBuilding',
  'noAllocatorConsumption',
  'heatMethod',
  'heatMethodUnbalanced',
] as const;
export type KwhMethod = (typeof KWH_METHODS)[number];

/** A flat with its own heat meter, whose energy in M is subtracted from the building meter's. */
export const StatementSubtractedFlat = Type.Object({
  FlatId: Id,
  Flat: Type.String(),
  /** The flat heat meter's energy in M; null when it has no value (E is then unknown). */
  Kwh: Nullable(Type.Number()),
});
export type StatementSubtractedFlat = Static<typeof StatementSubtractedFlat>;

/**
 * The building line of allocators' kWh in M (docs/statements.md): the building heat meter's
 * energy, what was subtracted for the flats with their own heat meter, and E, the energy left
 * for the allocator flats; what the shares add up to and what was not shared.
 */
export const StatementBuildingLine = Type.Object({
  /** The building heat meter's energy in M; null when it has no value. */
  MeterKwh: Nullable(Type.Number()),
  /** The flats with their own heat meter, in address order. */
  Subtracted: Type.Array(StatementSubtractedFlat),
  /** Their energy together; null when one of them has no value. */
  SubtractedKwh: Nullable(Type.Number()),
  /** E = MeterKwh − SubtractedKwh: the energy of the allocator flats; null when unknown. */
  AllocatorKwh: Nullable(Type.Number()),
  /** What the allocator flats' kWh add up to: E when shared, 0 when the allocators counted nothing; else null. */
  SharedKwh: Nullable(Type.Number()),
  /** E that was not shared (the allocators counted nothing): E − SharedKwh; null when unknown. */
  UnsharedKwh: Nullable(Type.Number()),
});
export type StatementBuildingLine = Static<typeof StatementBuildingLine>;

/** Why a month is unbalanced by a building's heat method (docs/heat-method.md, "Unbalanced"). */
export const HEAT_UNBALANCED_REASONS = [
  'negativeValue',
  'hotWaterAboveInput',
  'circulationAboveInput',
  'hotWaterAboveMeter',
  'meterAboveInput',
  'heatMetersAboveSpace',
  'minimumNotCovered',
] as const;
export type HeatUnbalancedReason = (typeof HEAT_UNBALANCED_REASONS)[number];

/**
 * The parameters of the method version that split the month (docs/heat-method.md, "Publication"): the
 * building's, and this flat's position factor and circulation class. Frozen with a publication, so a
 * published statement names the parameters that produced it even after the version is edited.
 */
export const StatementHeatParameters = Type.Object({
  KwhPerM3: Type.Number(),
  CirculationNorm: Type.Number(),
  HotWaterTemperature: Type.Number(),
  DistrictHeat: Type.Boolean(),
  Seasons: Type.Array(HeatSeason),
  CommonShare: Type.Number(),
  BaseShare: Type.Number(),
  MinimumShare: Type.Number(),
  /** This flat's position factor (1 when the version does not list it). */
  PositionFactor: Type.Number(),
  /** This flat's circulation class; null: the building's circulation norm. */
  CirculationClass: Nullable(Type.Number()),
});
export type StatementHeatParameters = Static<typeof StatementHeatParameters>;

/**
 * A building's heat balance in M by its method (docs/heat-method.md): the input split into seven
 * parts that add up to it, the hot-water volume and its losses; or why it is not split.
 */
export const StatementHeatBalance = Type.Object({
  /** The method's hot-water mode and the month its version is valid from. */
  Method: Type.Union(['norm', 'meter', 'formulaDE'].map((m) => Type.Literal(m))),
  ValidFrom: MonthParam,
  Status: Type.Union(['split', 'unbalanced', 'incomplete'].map((m) => Type.Literal(m))),
  Reason: Nullable(Type.Union(HEAT_UNBALANCED_REASONS.map((r) => Type.Literal(r)))),
  InputKwh: Nullable(Type.Number()),
  HotWaterKwh: Nullable(Type.Number()),
  CirculationKwh: Nullable(Type.Number()),
  CommonKwh: Nullable(Type.Number()),
  NoDeviceKwh: Nullable(Type.Number()),
  HeatMeterKwh: Nullable(Type.Number()),
  BaseKwh: Nullable(Type.Number()),
  ConsumptionKwh: Nullable(Type.Number()),
  HotWaterM3: Nullable(Type.Number()),
  HotWaterLossesM3: Nullable(Type.Number()),
  /** The version's parameters; null in a publication made before they were frozen with it. */
  Parameters: Nullable(StatementHeatParameters),
});
export type StatementHeatBalance = Static<typeof StatementHeatBalance>;

/** A flat's heat in M by the building's method, kWh; Space is what `Current` shows (docs/heat-method.md). */
export const StatementHeatParts = Type.Object({
  Consumption: Type.Number(),
  Base: Type.Number(),
  Common: Type.Number(),
  NoDevice: Type.Number(),
  HeatMeter: Type.Number(),
  /** Heat added by the minimum rule. */
  Assigned: Type.Number(),
  Space: Type.Number(),
  HotWater: Type.Number(),
  Circulation: Type.Number(),
  Total: Type.Number(),
});
export type StatementHeatParts = Static<typeof StatementHeatParts>;

/**
 * The parts of a building's heat balance and of a flat's heat in the order the pictures draw them,
 * numbered from 1 (docs/statements.md, "The heat balance as a picture"): each with its field in
 * `StatementHeatBalance` and in `StatementHeatParts`. The heat the minimum rule assigns is a flat's
 * only: the building's balance has no part of it.
 */
export const HEAT_BAR_PARTS = [
  { Name: 'hotWater', Balance: 'HotWaterKwh', Flat: 'HotWater' },
  { Name: 'circulation', Balance: 'CirculationKwh', Flat: 'Circulation' },
  { Name: 'common', Balance: 'CommonKwh', Flat: 'Common' },
  { Name: 'noDevice', Balance: 'NoDeviceKwh', Flat: 'NoDevice' },
  { Name: 'heatMeter', Balance: 'HeatMeterKwh', Flat: 'HeatMeter' },
  { Name: 'base', Balance: 'BaseKwh', Flat: 'Base' },
  { Name: 'consumption', Balance: 'ConsumptionKwh', Flat: 'Consumption' },
  { Name: 'assigned', Balance: null, Flat: 'Assigned' },
] as const satisfies readonly {
  Name: string;
  Balance: keyof StatementHeatBalance | null;
  Flat: keyof StatementHeatParts;
}[];

/** A device feeding a figure that was past its due date in M (docs/device-lifetime.md, "Overdue figures"). */
export const StatementOverdueDevice = Type.Object({
  DeviceId: Id,
  /** Serial number. */
  DeviceCode: Type.String(),
  DeviceTypeId: Type.Integer(),
  /** The earlier of its verification due date and battery end. */
  DueDate: Day,
  Reason: Type.Union([Type.Literal('verification'), Type.Literal('battery')]),
});
export type StatementOverdueDevice = Static<typeof StatementOverdueDevice>;

export const StatementKindFigures = Type.Object({
  Kind: StatementKind,
  Unit: StatementUnit,
  /** Devices of this kind in the flat during M. */
  Devices: Type.Integer(),
  Current: StatementFigure,
  Previous: StatementFigure,
  LastYear: StatementFigure,
  /**
   * Heating with degree-days known for the flat's city in M and a year before: last year's
   * consumption × DD(M) / DD(M − 12). Null otherwise.
   */
  LastYearCorrected: Nullable(Type.Number()),
  /** The building's average of this kind in M: per flat (of those with a value) and per m² (flats with an area). */
  BuildingAverage: Nullable(Type.Number()),
  BuildingAveragePerM2: Nullable(Type.Number()),
  /** Allocators: units and Qrad (units × rating factor) in M; kWh as in `Current` when the unit is kWh. */
  Units: Nullable(Type.Number()),
  Qrad: Nullable(Type.Number()),
  /** Allocators: how kWh were found (null for meters). */
  KwhMethod: Nullable(Type.Union(KWH_METHODS.map((m) => Type.Literal(m)))),
  /**
   * The building heat meter's energy in M (null without one, or without its value), before the
   * flats' own heat meters are subtracted: E is `BuildingLine.AllocatorKwh`.
   */
  BuildingKwh: Nullable(Type.Number()),
  /** Allocators in a building with a heat meter in M: the building line (null otherwise). */
  BuildingLine: Nullable(StatementBuildingLine),
  /** Heating in a building with a heat method in M: its balance (null otherwise, and before it existed). */
  HeatBalance: Nullable(StatementHeatBalance),
  /** Heating of a flat split by its building's method in M: its parts (null otherwise). */
  HeatParts: Nullable(StatementHeatParts),
  Markers: Type.Array(StatementMarker),
  /**
   * The devices behind this month's figure past their due date in M (the flat's devices of the
   * kind; for kWh shared from the building, the building's devices too): the `overdue` marker.
   */
  Overdue: Type.Array(StatementOverdueDevice),
  /**
   * The months of late declarations this month's figure carries (docs/declared-readings.md, "Late
   * declarations"): declared after their month's estimate could no longer be recalculated, they count
   * here, against the kept estimate: the `lateDeclaration` marker.
   */
  LateDeclarations: Type.Array(MonthParam),
});
export type StatementKindFigures = Static<typeof StatementKindFigures>;

/** A publication of a building's month: the figures are frozen from then on. */
export const StatementPublication = Type.Object({
  BuildingId: Id,
  Version: Type.Integer({ minimum: 1 }),
  PublishedAt: Timestamp,
  PublishedBy: Nullable(Type.String()),
});
export type StatementPublication = Static<typeof StatementPublication>;

/** One flat's figures for month M. */
export const StatementRow = Type.Object({
  FlatId: Id,
  BuildingId: Id,
  /** The address as the readings rows name it. */
  City: Nullable(Type.String()),
  Street: Nullable(Type.String()),
  Building: Nullable(Type.String()),
  Flat: Type.String(),
  FlatOrder: Nullable(Type.Integer()),
  AreaM2: Nullable(Type.Number()),
  ClientCode: Nullable(Type.String()),
  Kinds: Type.Array(StatementKindFigures),
  /** Set when these are the published (frozen) figures. */
  Published: Nullable(StatementPublication),
});
export type StatementRow = Static<typeof StatementRow>;

export const MonthValue = Type.Object({ Month: MonthParam, Value: Nullable(Type.Number()), Partial: Type.Boolean() });
export type MonthValue = Static<typeof MonthValue>;

/** One flat's statement: its figures and the last 13 months (M − 12 … M) per kind. */
export const FlatStatement = Type.Object({
  Month: MonthParam,
  Row: StatementRow,
  History: Type.Array(Type.Object({ Kind: StatementKind, Unit: StatementUnit, Months: Type.Array(MonthValue) })),
  /** Degree-days of the flat's city in M and a year before, when known. */
  DegreeDays: Nullable(Type.Object({ Current: Type.Number(), LastYear: Type.Number() })),
});
export type FlatStatement = Static<typeof FlatStatement>;

/** Why an occupant's statement has no comparison with a month (docs/occupancies.md). */
export const NO_COMPARISON_REASONS = ['otherOccupancy'] as const;
export const NoComparisonReason = Type.Union(NO_COMPARISON_REASONS.map((r) => Type.Literal(r)));

/**
 * One kind of an occupant's statement: their days of the month, in the flat's unit of the kind. The
 * kind, its unit, the figure and the allocators' units and Qrad mean what they mean in the flat's
 * figures (`StatementKindFigures`), for the occupant's days; the comparisons are their own.
 */
export const OccupancyKindFigures = Type.Composite([
  /** `Current`: the occupant's consumption on their days; the occupants' figures add up to the flat's. */
  Type.Pick(StatementKindFigures, ['Kind', 'Unit', 'Current']),
  Type.Object({
    /** The month before and the same month last year, only when the occupancy covered the whole of it. */
    Previous: Nullable(StatementFigure),
    PreviousMissing: Nullable(NoComparisonReason),
    LastYear: Nullable(StatementFigure),
    LastYearMissing: Nullable(NoComparisonReason),
  }),
  /**
   * `BuildingAverage`: the flat's building average of the kind in the month (per flat, not per occupant).
   * Allocators: the occupant's units and Qrad on their days; kWh are the flat's shared by units.
   * `Overdue`: the flat's figure's overdue devices (docs/device-lifetime.md), the same for each occupant;
   * `LateDeclarations` likewise (docs/declared-readings.md).
   * `HeatParts`: heating by the building's heat method, the flat's parts split among its occupants
   * (docs/heat-method.md, "Occupants"): area and norm parts by days, consumption parts by units; the
   * occupant's `Current` is their `Space`. Null otherwise.
   */
  Type.Pick(StatementKindFigures, ['BuildingAverage', 'Units', 'Qrad', 'Overdue', 'LateDeclarations', 'HeatParts']),
]);
export type OccupancyKindFigures = Static<typeof OccupancyKindFigures>;

/** An occupant's statement of a month: their days [From, Till] and their figures. */
export const OccupancyStatement = Type.Object({
  OccupancyId: Id,
  ClientCode: Type.String(),
  Name: Type.String(),
  /** The first and the last day of the month the occupant lived there. */
  From: Day,
  Till: Day,
  Days: Type.Integer({ minimum: 1 }),
  Kinds: Type.Array(OccupancyKindFigures),
});
export type OccupancyStatement = Static<typeof OccupancyStatement>;

/**
 * One occupant's part of a flat's month in the figures of a selection: the occupant's statement with
 * its flat, as the flat's row is split into one row per occupancy when more than one occupant lived
 * there in the month (docs/occupancies.md).
 */
export const FlatOccupancyStatement = Type.Composite([Type.Object({ FlatId: Id }), OccupancyStatement]);
export type FlatOccupancyStatement = Static<typeof FlatOccupancyStatement>;

/** The language of a statement, its PDF or an e-mail about it. */
export const StatementLanguage = Type.Union([Type.Literal('lt'), Type.Literal('en')]);
