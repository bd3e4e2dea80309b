import type { MonthStretch } from './periods.js';
import { workingOf } from './space.js';
import type { HeatMethod, SplitFlat, UnbalancedReason } from './types.js';

/*
 * Step 1 of the split (docs/heat-method.md): per stretch of the month, the heat that warmed the hot
 * water (Q_hw), the circulation loss (Q_circ) and what is left for space heating (S, 0 outside the
 * season); then Q_hw and Q_circ per flat. Exact amounts; rounding comes last. In a month without
 * season days the flats' heat meters' kWh (`taken`) come out of the input before the circulation
 * (with formulaDE before the hot water); only more than the input less Q_hw is unbalanced.
 */

/** A stretch with the input's energy in it. */
export interface Stretch extends MonthStretch {
  inputKwh: number;
}

/** Step 1's answer: the building's amounts and each flat's hot water and circulation. */
export interface Energy {
  hotWater: number;
  circulation: number;
  /** Space heating, the season's stretches only. */
  space: number;
  flatHotWater: number[];
  flatCirculation: number[];
}

/** kWh per m³ of hot water by HeizkostenV §9(2): 2.5 × (t_w − 10 °C), / 1.15 for district heat. */
export const formulaKwhPerM3 = (m: HeatMethod) => (2.5 * (m.hotWaterTemperature - 10)) / (m.districtHeat ? 1.15 : 1);

/** One stretch's amounts: Q_hw, Q_circ per flat (exact) and S; or why it is unbalanced. */
interface StretchAmounts {
  hotWater: number;
  /** The circulation of each flat in this stretch. */
  circulation: number[];
  space: number;
}

const equally = (total: number, n: number) => Array.from({ length: n }, () => total / n);
const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);
/** An amount that is below 0 by more than the float arithmetic's noise on `scale`. */
const belowZero = (x: number, scale: number) => x < -1e-9 * Math.max(1, scale);

/** Norm: Q_hw = q × V; in the season each flat's circulation norm prorated, outside it the remainder. */
function normStretch(m: HeatMethod, flats: readonly SplitFlat[], s: Stretch, share: number, v: number, taken: number) {
  const hotWater = m.kwhPerM3 * v * share;
  if (s.inputKwh < hotWater) return 'hotWaterAboveInput' as const;
  if (!s.inSeason) {
    const rest = s.inputKwh - hotWater - taken;
    if (belowZero(rest, s.inputKwh)) return 'heatMetersAboveSpace' as const;
    return { hotWater, circulation: equally(Math.max(0, rest), flats.length), space: 0 } as StretchAmounts;
  }
  const circulation = flats.map((f) => (f.circulationClass ?? m.circulationNorm) * share);
  const space = s.inputKwh - hotWater - sum(circulation);
  if (space < 0) return 'circulationAboveInput' as const;
  return { hotWater, circulation, space };
}

/** Meter: the hot-water heat meter measures Q_hw + Q_circ; the rest of the input is space heating (or circulation outside the season). */
function meterStretch(m: HeatMethod, n: number, s: Stretch, share: number, v: number, meterKwh: number, taken: number) {
  const hotWater = m.kwhPerM3 * v * share;
  const meter = meterKwh * share;
  if (meter < hotWater) return 'hotWaterAboveMeter' as const;
  if (s.inputKwh < meter) return 'meterAboveInput' as const;
  const rest = s.inputKwh - meter;
  const circulation = meter - hotWater + (s.inSeason ? 0 : rest - taken);
  if (belowZero(circulation, s.inputKwh)) return 'heatMetersAboveSpace' as const;
  return { hotWater, circulation: equally(circulation, n), space: s.inSeason ? rest : 0 } as StretchAmounts;
}

/** formulaDE: Q_hw by the estimate (circulation included); outside the season all the input is hot water. */
function formulaStretch(m: HeatMethod, n: number, s: Stretch, share: number, v: number, taken: number) {
  const estimate = formulaKwhPerM3(m) * v * share;
  if (s.inputKwh < estimate) return 'hotWaterAboveInput' as const;
  if (!s.inSeason && belowZero(s.inputKwh - estimate - taken, s.inputKwh)) return 'heatMetersAboveSpace' as const;
  const hotWater = s.inSeason ? estimate : Math.max(estimate, s.inputKwh - taken);
  return { hotWater, circulation: equally(0, n), space: s.inSeason ? s.inputKwh - hotWater : 0 } as StretchAmounts;
}

/**
 * Step 1 over the month's stretches. V and the hot-water heat meter are not read inside the month:
 * each stretch takes them by its share of the month's days (docs/heat-method.md, "A split month").
 */
export function energyOf(
  m: HeatMethod,
  flats: readonly SplitFlat[],
  stretches: readonly Stretch[],
  v: number,
  flatM3: readonly number[],
  meterKwh: number | null,
): Energy | UnbalancedReason {
  const days = sum(stretches.map((s) => s.days));
  // A month without season days: the flats' heat meters' kWh are taken from its one stretch.
  const summer = !stretches.some((s) => s.inSeason);
  const taken = summer ? sum(flats.map((f) => (workingOf(f) === 'energy' ? f.kwh! : 0))) : 0;
  let hotWater = 0;
  let space = 0;
  const flatCirculation = flats.map(() => 0);
  for (const s of stretches) {
    const share = s.days / days;
    const a =
      m.hotWaterHeat === 'norm'
        ? normStretch(m, flats, s, share, v, taken)
        : m.hotWaterHeat === 'meter'
          ? meterStretch(m, flats.length, s, share, v, meterKwh ?? 0, taken)
          : formulaStretch(m, flats.length, s, share, v, taken);
    if (typeof a === 'string') return a;
    hotWater += a.hotWater;
    space += a.space;
    for (const [i, c] of a.circulation.entries()) flatCirculation[i]! += c;
  }
  // The hot water's heat follows the flats' m³ (the losses' heat with it); no m³ at all: equally.
  const m3 = sum(flatM3);
  const flatHotWater = m3 > 0 ? flatM3.map((x) => (hotWater * x) / m3) : equally(hotWater, flats.length);
  return { hotWater, circulation: sum(flatCirculation), space, flatHotWater, flatCirculation };
}
