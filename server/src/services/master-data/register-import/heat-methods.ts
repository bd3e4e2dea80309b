import {
  ADDRESS_LEVELS,
  type HeatMethodBody,
  HOT_WATER_HEAT,
  type ImportErrorCode,
  MAX_CIRCULATION_KWH,
  MAX_HEAT_SEASONS,
  type RegisterColumn,
} from '@rodmenys/contract';
import type { Tx } from '../../../db/db.js';
import type { Actor } from '../../audit/record-audit.js';
import { writeHeatMethodVersion } from '../../heat-methods/heat-methods.js';
import type { RegisterRow } from '../register-file.js';
import { dateTime, number, text } from './cells.js';
import { keyOf, type RowErrors } from './types.js';

/*
 * The register's heat-method columns (docs/master-data.md, "Heat method columns"): a building's method
 * from a month on, on any of its rows (the same on each), and each flat's position factor and circulation
 * class, on the flat's rows. Checked as the API checks them (docs/heat-method.md), written as a version.
 */

const BUILDING_COLUMNS = [
  'HeatMethodFrom',
  'HeatMethod',
  'HeatKwhPerM3',
  'HeatCirculationNorm',
  'HeatingSeason',
  'HeatCommonShare',
  'HeatBaseShare',
  'HeatMinimumShare',
] as const satisfies readonly RegisterColumn[];
const FLAT_COLUMNS = ['PositionFactor', 'CirculationClass'] as const satisfies readonly RegisterColumn[];
/** The method's modes as the file names them: `none` is the plain rule from that month on. */
const MODES = [...HOT_WATER_HEAT, 'none'] as const;
/** q when the file leaves it empty: 1 m³ from +8 to +52 °C (docs/heat-method.md). */
const DEFAULT_KWH_PER_M3 = 51;

interface BuildingMethod {
  line: number;
  address: string[];
  month: string;
  body: Omit<HeatMethodBody, 'Flats'>;
  /** The cells as given, to compare rows of the same building. */
  same: string;
}
interface FlatParams {
  line: number;
  buildingKey: string;
  flatKey: string;
  positionFactor: number;
  circulationClass: number | null;
  same: string;
}

/** What the file sets: methods by building key, flats' parameters by flat key. */
export interface HeatPlan {
  buildings: Map<string, BuildingMethod>;
  flats: Map<string, FlatParams>;
}

/** Checks the heat-method cells of every row (line and column in `errors`), and that rows agree. */
export function planHeatMethods(rows: readonly RegisterRow[], errors: RowErrors): HeatPlan {
  const plan: HeatPlan = { buildings: new Map(), flats: new Map() };
  for (const r of rows) {
    const fail = (code: ImportErrorCode, column: RegisterColumn, message: string, extra: object = {}) =>
      errors.add(r.line, code, { column, ...extra }, message);
    const address = ADDRESS_LEVELS.map((c) => text(r.cells[c]) ?? '');
    const buildingKey = keyOf(address);
    const flat = text(r.cells.Flat);
    const num = (column: RegisterColumn, min: number, max: number): number | null | undefined => {
      const raw = text(r.cells[column]);
      if (raw === null) return null;
      const n = number(r.cells[column]);
      if (n === undefined || n < min || n > max) {
        fail('INVALID_NUMBER', column, `${column} is not a number from ${min} to ${max}: "${raw}"`, { value: raw });
        return undefined;
      }
      return n;
    };
    if (BUILDING_COLUMNS.some((c) => text(r.cells[c]) !== null)) {
      const before = errors.count;
      const monthText = text(r.cells.HeatMethodFrom);
      const month = monthText && /^(199\d|2[01]\d\d|2200)-(0[1-9]|1[0-2])$/.test(monthText) ? monthText : null;
      if (monthText === null) fail('REQUIRED', 'HeatMethodFrom', 'HeatMethodFrom is required for a heat method');
      else if (month === null)
        fail('INVALID_DATE', 'HeatMethodFrom', `HeatMethodFrom is not a month YYYY-MM: "${monthText}"`, {
          value: monthText,
        });
      const mode = text(r.cells.HeatMethod);
      const known = MODES.find((m) => m.toLowerCase() === mode?.toLowerCase());
      if (mode === null) fail('REQUIRED', 'HeatMethod', 'HeatMethod is required for a heat method');
      else if (!known)
        fail('INVALID_CHOICE', 'HeatMethod', `HeatMethod must be one of ${MODES.join(', ')}: "${mode}"`, {
          value: mode,
          allowed: MODES.join(', '),
        });
      const kwhPerM3 = num('HeatKwhPerM3', 0, 200);
      const circulation = num('HeatCirculationNorm', 0, MAX_CIRCULATION_KWH);
      // No circulation norm is invented for a provider.
      if (known === 'norm' && circulation === null)
        fail('REQUIRED', 'HeatCirculationNorm', 'HeatCirculationNorm is required for the norm method');
      const common = num('HeatCommonShare', 0, 50);
      const base = num('HeatBaseShare', 0, 50);
      const minimum = num('HeatMinimumShare', 0, 1);
      const seasons = parseSeasons(text(r.cells.HeatingSeason));
      if (seasons === undefined) {
        const value = text(r.cells.HeatingSeason)!;
        fail('INVALID_SEASON', 'HeatingSeason', `HeatingSeason is not a list of periods: "${value}"`, { value });
      }
      if (errors.count === before) {
        const method: BuildingMethod = {
          line: r.line,
          address,
          month: month!,
          body: {
            HotWaterHeat: known === 'none' ? null : (known as (typeof HOT_WATER_HEAT)[number]),
            KwhPerM3: kwhPerM3 ?? DEFAULT_KWH_PER_M3,
            CirculationNorm: circulation ?? 0,
            HotWaterTemperature: 60,
            DistrictHeat: true,
            Seasons: seasons!,
            CommonShare: Number(((common ?? 0) / 100).toFixed(6)),
            BaseShare: Number(((base ?? 0) / 100).toFixed(6)),
            MinimumShare: minimum ?? 0,
          },
          same: '',
        };
        method.same = JSON.stringify([method.month, method.body]);
        const earlier = plan.buildings.get(buildingKey);
        if (earlier && earlier.same !== method.same)
          fail('HEAT_METHOD_CONFLICT', 'HeatMethod', `The building's heat method differs from line ${earlier.line}`, {
            line: earlier.line,
          });
        else if (!earlier) plan.buildings.set(buildingKey, method);
      }
    }
    if (FLAT_COLUMNS.some((c) => text(r.cells[c]) !== null)) {
      if (flat === null) {
        fail('FLAT_MISMATCH', 'PositionFactor', "A flat's heat parameters need its flat");
        continue;
      }
      const before = errors.count;
      const factor = num('PositionFactor', 0.1, 10);
      const circulationClass = num('CirculationClass', 0, MAX_CIRCULATION_KWH);
      if (errors.count > before) continue;
      const flatKey = keyOf([...address, flat]);
      const params: FlatParams = {
        line: r.line,
        buildingKey,
        flatKey,
        positionFactor: factor ?? 1,
        circulationClass: circulationClass ?? null,
        same: JSON.stringify([factor ?? 1, circulationClass ?? null]),
      };
      const earlier = plan.flats.get(flatKey);
      if (earlier && earlier.same !== params.same)
        fail('HEAT_METHOD_CONFLICT', 'PositionFactor', `The flat's heat parameters differ from line ${earlier.line}`, {
          line: earlier.line,
        });
      else if (!earlier) plan.flats.set(flatKey, params);
    }
  }
  // A flat's parameters are part of its building's method version: the file must give the method.
  for (const f of plan.flats.values()) {
    if (!plan.buildings.has(f.buildingKey))
      errors.add(
        f.line,
        'REQUIRED',
        { column: 'HeatMethodFrom' },
        "HeatMethodFrom is required: a flat's heat parameters belong to its building's method",
      );
  }
  return plan;
}

/**
 * `2026-10-15..2027-04-30, 2027-10-01..` (the last day may be left open): the periods in order, or
 * undefined when a period is not two days, ends before it starts or overlaps another. Empty: none.
 */
export function parseSeasons(cell: string | null): HeatMethodBody['Seasons'] | undefined {
  if (cell === null) return [];
  const periods = cell
    .split(/[,\n]/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (periods.length > MAX_HEAT_SEASONS) return undefined;
  const out: HeatMethodBody['Seasons'] = [];
  for (const p of periods) {
    const m = /^(\S+)\s*\.\.\s*(\S*)$/.exec(p);
    const from = m ? day(m[1]!) : undefined;
    const to = m?.[2] ? day(m[2]) : null;
    if (!from || to === undefined || (to !== null && to < from)) return undefined;
    out.push({ From: from, To: to });
  }
  out.sort((a, b) => a.From.localeCompare(b.From));
  for (const [i, s] of out.entries()) {
    const next = out[i + 1];
    if (next && (s.To === null || next.From <= s.To)) return undefined;
  }
  return out;
}

const day = (s: string) => {
  const t = dateTime(s);
  return t && t.slice(11) === '00:00:00' ? t.slice(0, 10) : undefined;
};

/** Writes each building's version with its flats' parameters (after the locations are written). */
export async function writeHeatMethods(
  tx: Tx,
  plan: HeatPlan,
  actor: Actor,
  locationId: (key: string) => number | undefined,
): Promise<number> {
  let written = 0;
  for (const [key, m] of plan.buildings) {
    const id = locationId(key);
    if (id === undefined) continue;
    const flats = [...plan.flats.values()]
      .filter((f) => f.buildingKey === key)
      .flatMap((f) => {
        const flatId = locationId(f.flatKey);
        return flatId === undefined
          ? []
          : [{ FlatId: flatId, PositionFactor: f.positionFactor, CirculationClass: f.circulationClass }];
      });
    await writeHeatMethodVersion(tx, actor, { id, path: m.address.filter(Boolean).join(', ') }, m.month, {
      ...m.body,
      Flats: flats,
    });
    written++;
  }
  return written;
}
