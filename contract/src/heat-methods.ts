import { type Static, Type } from '@sinclair/typebox';
import { Day, Id, IdParams, MonthParam, Nullable } from './common.js';
import { defineEndpoint } from './endpoint.js';

/*
 * A building's heat method (docs/heat-method.md): how its input meter's energy is split into hot
 * water, circulation, common areas and space heating, valid from a month on. Group 1 sets it;
 * group 2 reads it for the buildings in its scope.
 */

/** How the hot water's heat and the circulation are found; null: the plain rule (plainQrad). */
export const HOT_WATER_HEAT = ['norm', 'meter', 'formulaDE'] as const;
export type HotWaterHeatMode = (typeof HOT_WATER_HEAT)[number];

/** The largest circulation norm or class, kWh per flat and month (the regulator's largest class is 240). */
export const MAX_CIRCULATION_KWH = 1000;
/** Heating-season periods a method may list. */
export const MAX_HEAT_SEASONS = 100;

/** A heating-season period: first day, last day inclusive (null: open). */
export const HeatSeason = Type.Object({ From: Day, To: Nullable(Day) });
export type HeatSeason = Static<typeof HeatSeason>;

/** One flat's parameters: its position factor and circulation class (null: the building's norm). */
export const HeatMethodFlat = Type.Object({
  FlatId: Id,
  PositionFactor: Type.Number({ minimum: 0.1, maximum: 10 }),
  CirculationClass: Nullable(Type.Number({ minimum: 0, maximum: MAX_CIRCULATION_KWH })),
});
export type HeatMethodFlat = Static<typeof HeatMethodFlat>;

const PARAMS = {
  HotWaterHeat: Nullable(Type.Union(HOT_WATER_HEAT.map((m) => Type.Literal(m)))),
  KwhPerM3: Type.Number({ minimum: 0, maximum: 200 }),
  CirculationNorm: Type.Number({ minimum: 0, maximum: MAX_CIRCULATION_KWH }),
  HotWaterTemperature: Type.Number({ minimum: 10, maximum: 100 }),
  DistrictHeat: Type.Boolean(),
  Seasons: Type.Array(HeatSeason, { maxItems: MAX_HEAT_SEASONS }),
  CommonShare: Type.Number({ minimum: 0, maximum: 0.5 }),
  BaseShare: Type.Number({ minimum: 0, maximum: 0.5 }),
  MinimumShare: Type.Number({ minimum: 0, maximum: 1 }),
  /** Flats not listed have factor 1 and the building's circulation norm. */
  Flats: Type.Array(HeatMethodFlat, { maxItems: 5000 }),
};

/** A method's parameters, as set. */
export const HeatMethodBody = Type.Object(PARAMS, { additionalProperties: false });
export type HeatMethodBody = Static<typeof HeatMethodBody>;

/** One version of a building's method: valid from ValidFrom until the next version's month. */
export const HeatMethodVersion = Type.Object({
  ValidFrom: MonthParam,
  ...PARAMS,
  ChangedBy: Nullable(Type.String()),
  ChangedAt: Type.String(),
});
export type HeatMethodVersion = Static<typeof HeatMethodVersion>;

/** A building's method versions, oldest first, with its flats (for the per-flat parameters). */
export const BuildingHeatMethods = Type.Object({
  BuildingId: Id,
  Path: Type.String(),
  Flats: Type.Array(Type.Object({ FlatId: Id, Flat: Type.String(), AreaM2: Nullable(Type.Number()) })),
  Versions: Type.Array(HeatMethodVersion),
});
export type BuildingHeatMethods = Static<typeof BuildingHeatMethods>;

export const getBuildingHeatMethods = defineEndpoint({
  method: 'GET',
  path: '/heat-methods/buildings/:id',
  summary:
    "A building's heat method versions (docs/heat-method.md). Group 1, and group 2 for a building in its scope; " +
    '403 for group 3, 404 for a building out of scope.',
  tags: ['statements'],
  auth: 'user',
  params: IdParams,
  response: BuildingHeatMethods,
});

export const setBuildingHeatMethod = defineEndpoint({
  method: 'PUT',
  path: '/heat-methods/buildings/:id/:month',
  summary:
    "Sets a building's heat method from a month on (HotWaterHeat null: the plain rule from then on); audited. " +
    'Group 1 only.',
  tags: ['statements'],
  auth: 'operator',
  params: Type.Object({ id: Id, month: MonthParam }),
  body: HeatMethodBody,
  response: BuildingHeatMethods,
});
