import { energyOf, type Stretch } from './energy.js';
import { applyMinimum } from './minimum.js';
import { monthStretches } from './periods.js';
import { roundParts } from './rounding.js';
import { spaceOf, summerSpace } from './space.js';
import type { HeatMethod, SplitInput, SplitPeriod, SplitResult, UnbalancedReason } from './types.js';

/*
 * A building's heat in one month split by its method (docs/heat-method.md): the input meter's
 * energy into hot-water heat, circulation, common areas, flats without a working device, heat-meter
 * flats and the allocator flats' base and consumption parts, then each part among the flats.
 * Steps: periods.ts (the season's stretches), energy.ts (1), space.ts (2–5), minimum.ts and
 * rounding.ts (6).
 */

const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);

/** The values the split needs that are missing, named; a floor area only in a month with season days (a key there only). */
function missingOf(m: HeatMethod, input: SplitInput, days: readonly string[], season: boolean): string[] {
  const out: string[] = [];
  if (input.flats.length === 0) out.push('flats');
  if (input.inputKwh === null) out.push('input');
  for (const d of days) if ((input.inputUpTo.get(d) ?? null) === null) out.push(`inputAt:${d}`);
  if (input.hotWaterInput && input.hotWaterInput.m3 === null) out.push('hotWaterInput');
  for (const f of input.flats) {
    if (season && f.area === null) out.push(`area:${f.id}`);
    if (f.hotWaterM3 === null) out.push(`hotWaterM3:${f.id}`);
  }
  if (m.hotWaterHeat === 'meter' && (input.hotWaterHeatMeter?.kwh ?? null) === null) out.push('hotWaterHeatMeter');
  return out;
}

/** The stretches with the input's energy in each, from the input's values at the split days. */
function stretchesOf(m: HeatMethod, input: SplitInput): Stretch[] {
  const list = monthStretches(input.month, m.seasons);
  const upTo = list.map((s) => (s.first ? 0 : input.inputUpTo.get(s.from)!));
  return list.map((s, i) => ({ ...s, inputKwh: (i + 1 < list.length ? upTo[i + 1]! : input.inputKwh!) - upTo[i]! }));
}

/** Whether a value the split takes as it is is negative. */
function anyNegative(input: SplitInput, stretches: readonly Stretch[]): boolean {
  const values = [
    input.inputKwh!,
    input.hotWaterInput?.m3 ?? 0,
    input.hotWaterHeatMeter?.kwh ?? 0,
    ...stretches.map((s) => s.inputKwh),
    ...input.flats.flatMap((f) => [f.hotWaterM3!, f.qrad ?? 0, f.kwh ?? 0, f.area ?? 0, f.positionFactor]),
  ];
  return values.some((v) => v < 0);
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** Splits one building's month by its method; parts add up to the input to the thousandth. */
export function splitBuildingMonth(m: HeatMethod, input: SplitInput): SplitResult {
  const list = monthStretches(input.month, m.seasons);
  const season = list.some((s) => s.inSeason);
  const missing = missingOf(
    m,
    input,
    list.filter((s) => !s.first).map((s) => s.from),
    season,
  );
  const flatsM3 = sum(input.flats.map((f) => f.hotWaterM3 ?? 0));
  const v = input.hotWaterInput ? input.hotWaterInput.m3 : missing.length ? null : flatsM3;
  const none = { parts: null, flats: null, inputKwh: null };
  const base = {
    hotWaterM3: v === null ? null : r3(v),
    hotWaterLossesM3: v === null || missing.length ? null : r3(v - flatsM3),
    missing,
  };
  if (missing.length)
    return { status: 'incomplete', reason: null, periods: list.map((s) => periodOf(s, null)), ...base, ...none };
  const stretches = stretchesOf(m, input);
  const periods = stretches.map((s) => periodOf(s, r3(s.inputKwh)));
  const unbalanced = (reason: UnbalancedReason): SplitResult => ({
    status: 'unbalanced',
    reason,
    periods,
    ...base,
    ...none,
  });
  if (anyNegative(input, stretches)) return unbalanced('negativeValue');
  const flatM3 = input.flats.map((f) => f.hotWaterM3!);
  const energy = energyOf(m, input.flats, stretches, v!, flatM3, input.hotWaterHeatMeter?.kwh ?? null);
  if (typeof energy === 'string') return unbalanced(energy);
  // Without season days there is no space heating: the heat meters' kWh only, and no minimum.
  const space = season ? spaceOf(m, input.flats, energy.space) : summerSpace(input.flats);
  if (typeof space === 'string') return unbalanced(space);
  const minimum = applyMinimum(season ? m.minimumShare : 0, input.flats, space);
  if (!minimum) return unbalanced('minimumNotCovered');
  const booked = (part: number[], p: 'consumption' | 'common') =>
    minimum.from === p ? part.map((x, i) => x + minimum.assigned[i]!) : part;
  const rounded = roundParts(
    input.inputKwh!,
    input.flats.map((f) => f.id),
    {
      flats: {
        hotWater: energy.flatHotWater,
        circulation: energy.flatCirculation,
        common: booked(space.common, 'common'),
        noDevice: space.noDevice,
        heatMeter: space.heatMeter,
        base: space.base,
        consumption: booked(space.consumption, 'consumption'),
      },
      assigned: minimum.assigned,
      assignedIn: minimum.from,
    },
  );
  return { status: 'split', reason: null, periods, ...base, ...rounded };
}

function periodOf(
  s: { from: string; to: string; days: number; inSeason: boolean },
  inputKwh: number | null,
): SplitPeriod {
  return { from: s.from, to: s.to, days: s.days, inSeason: s.inSeason, inputKwh };
}
