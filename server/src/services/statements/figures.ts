import {
  DEVICE_TYPE,
  DEVICE_TYPES,
  type FlatStatement,
  LOCATION_LEVEL,
  MONTH_END_SOURCES,
  type MonthEndSource,
  STATEMENT_HIGH_FACTOR,
  STATEMENT_LOW_FACTOR,
  type StatementFigure,
  type StatementKind,
  type StatementKindFigures,
  type StatementMarker,
  type StatementRow,
  type StatementUnit,
} from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { buildingOrder } from '../devices/device-row.js';
import { buildingIdOf, cityIdOf, inScope } from '../sql.js';
import { shareByQrad } from './kwh-share.js';

/** Which flats: the caller's scope and subtrees (as GetDevicesData), or given flats. */
export type FlatSelection =
  | { scope: number[] | null; parents: number[] | null; flatIds?: undefined }
  | { flatIds: number[]; scope: number[] | null; parents?: undefined };

/** The months a statement shows: M − 12 … M, as YYYY-MM. */
export function statementMonths(month: string): string[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return Array.from({ length: 13 }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - 12 + i, 1));
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  });
}

const NOT_MEASURED: ReadonlySet<string> = new Set(['interpolated', 'estimated', 'manual']);

interface FlatMeta {
  flat_id: number;
  building_id: number;
  city_id: number | null;
  city: string | null;
  street: string | null;
  building: string | null;
  flat: string;
  flat_order: number | null;
  area_m2: number | null;
  client_code: string | null;
  selected: boolean;
}

/** One location's (a flat, or a building for its heat meter) consumption of one device type group in one month. */
interface Part {
  location_id: number;
  kind: StatementKind | 'building';
  proc: 'allocator' | 'energy' | 'volume';
  month: string;
  devices: number;
  value: number | null;
  qrad: number | null;
  /** The sources of the values behind it, sorted. */
  sources: MonthEndSource[];
  /** Some value behind it is interpolated, estimated or manual. */
  partial: boolean;
}

/**
 * Per device and month computed, the consumption: the month end of the month minus the one
 * before; a device installed inside the month starts at its first reading, one removed inside it
 * ends at its last reading up to its removal (as a readings period does, docs/domain.md §8).
 * Summed per location, kind and month. Every device of the buildings that hold a selected flat:
 * the building averages and the kWh sharing need the whole building.
 */
/** SQL: the bit of a month-end source in MONTH_END_SOURCES order, 0 for none. */
const SOURCE_BIT = (column: string) =>
  `CASE ${column} ${MONTH_END_SOURCES.map((source, i) => `WHEN '${source}' THEN ${1 << i}`).join(' ')} ELSE 0 END`;

/**
 * The parts of the buildings that hold the selected flats, one row per location, device type and
 * month computed (`i`, 1-based in $2); and, with `i` 0, the location's device types in service in
 * some month of M − 12 … M ($4 … $5), as the months computed count it: the kinds a statement shows
 * need not compute every month. `byMonth` reads the month ends month by month and joins them by
 * hash (many buildings: a few pages a month), else by key per device (a few buildings).
 */
const partsSql = (byMonth: boolean) => `WITH b AS (
    SELECT DISTINCT ${buildingIdOf('l')} AS id FROM location l WHERE l.id = ANY ($1::int[])
  ), m AS (
    SELECT g.month, g.i::int AS i, (g.month - interval '1 month')::date AS prev,
           g.month::timestamp::timestamptz AS s, (g.month + interval '1 month')::timestamp::timestamptz AS e
      FROM unnest($2::date[]) WITH ORDINALITY AS g(month, i)
  ), dev AS MATERIALIZED (
    -- The buildings' devices, planned on their own: a few hundred rows, found through the location index.
    SELECT d.id, d.device_type_id AS type, d.rating_factor, d.installed_at, d.removed_at, t.data_load_proc AS proc,
           l.id AS location_id
      FROM b JOIN location l ON ${buildingIdOf('l')} = b.id AND l.path @> ARRAY[b.id]
      JOIN device d ON d.location_id = l.id
      JOIN device_type t ON t.id = d.device_type_id
     WHERE d.device_type_id IN (${DEVICE_TYPES.join(', ')})
  ), dm AS (
    SELECT dev.*, m.i, m.month, m.prev, m.s, m.e,
           coalesce(dev.installed_at, '-infinity') < m.s AS from_start,
           coalesce(dev.removed_at, 'infinity') >= m.e AS to_end
      FROM dev JOIN m ON coalesce(dev.installed_at, '-infinity') < m.e AND coalesce(dev.removed_at, 'infinity') >= m.s
  ), me AS MATERIALIZED (
    -- The month ends of those devices at the months computed and the months before them, read once,
    -- then joined twice; the source as its bit in MONTH_END_SOURCES order.
    SELECT x.device_id, x.month, x.value, ${SOURCE_BIT('x.source')} AS bit
      FROM ${byMonth ? 'month_end x JOIN dev ON dev.id = x.device_id + 0 -- "+ 0": not by key per device' : 'dev JOIN month_end x ON x.device_id = dev.id'}
     WHERE x.month = ANY ($3::date[])
  ), w AS (
    -- A device in service the whole month: its two month ends. Installed or removed inside it: its
    -- first or last reading, looked up only for those few (a subquery in CASE runs only when chosen).
    SELECT dm.location_id, dm.type, dm.proc, dm.i, dm.rating_factor, dm.from_start, dm.to_end,
           ms.value AS ms_v, ms.bit AS ms_bit, me.value AS me_v, me.bit AS me_bit,
           CASE WHEN NOT dm.from_start THEN
             (SELECT r.value FROM reading r
               WHERE r.device_id = dm.id AND r.ts >= dm.installed_at AND r.ts <= dm.e
                 AND r.ts <= coalesce(dm.removed_at, 'infinity')
               ORDER BY r.ts LIMIT 1) END AS ini_v,
           CASE WHEN NOT dm.to_end THEN
             (SELECT r.value FROM reading r
               WHERE r.device_id = dm.id AND r.ts <= dm.removed_at AND r.ts >= coalesce(dm.installed_at, '-infinity')
               ORDER BY r.ts DESC LIMIT 1) END AS fin_v
      FROM dm
      LEFT JOIN me ms ON ms.device_id = dm.id AND ms.month = dm.prev
      LEFT JOIN me ON me.device_id = dm.id AND me.month = dm.month
  ), v AS (
    SELECT w.location_id, w.type, w.proc, w.i, w.rating_factor,
           CASE WHEN w.from_start THEN w.ms_v ELSE w.ini_v END AS start_v,
           CASE WHEN w.from_start THEN w.ms_bit WHEN w.ini_v IS NOT NULL THEN 1 END AS start_bit,
           CASE WHEN w.to_end THEN w.me_v ELSE w.fin_v END AS end_v,
           CASE WHEN w.to_end THEN w.me_bit WHEN w.fin_v IS NOT NULL THEN 1 END AS end_bit
      FROM w
  )
  SELECT v.location_id, v.i, v.type, v.proc, count(*)::int AS devices,
         CASE WHEN bool_and(v.end_v IS NOT NULL AND v.start_v IS NOT NULL)
              THEN sum(v.end_v - v.start_v)::float8 END AS value,
         CASE WHEN bool_and(v.end_v IS NOT NULL AND v.start_v IS NOT NULL AND v.rating_factor IS NOT NULL)
              THEN sum((v.end_v - v.start_v) * v.rating_factor)::float8 END AS qrad,
         -- The sources used, as bits (cheaper than distinct arrays per group).
         bit_or(coalesce(v.start_bit, 0) | coalesce(v.end_bit, 0)) AS bits
    FROM v
   GROUP BY v.location_id, v.i, v.type, v.proc
  UNION ALL
  SELECT dev.location_id, 0, dev.type, dev.proc, NULL, NULL, NULL, NULL
    FROM dev
   WHERE EXISTS (SELECT FROM generate_series($4::date, $5::date, interval '1 month') g
                  WHERE coalesce(dev.installed_at, '-infinity') < (g + interval '1 month')::timestamp::timestamptz
                    AND coalesce(dev.removed_at, 'infinity') >= g::timestamp::timestamptz)
   GROUP BY dev.location_id, dev.type, dev.proc`;
const PARTS_BY_KEY = partsSql(false);
const PARTS_BY_MONTH = partsSql(true);
/** From this many flats (the selection's buildings' flats) on, month ends are read month by month. */
const BY_MONTH_FROM_FLATS = 1000;

/** The statement kind of a device type ('building': the building heat meter). */
const kindOf = (type: number): Part['kind'] =>
  type === DEVICE_TYPE.buildingHeatMeter
    ? 'building'
    : type === DEVICE_TYPE.allocator || type === DEVICE_TYPE.heatMeter
      ? 'heating'
      : type === DEVICE_TYPE.hotWaterMeter
        ? 'hotWater'
        : 'coldWater';

/** The sources of each combination of source bits, sorted, and whether any is not measured. */
const SOURCES_OF_BITS = Array.from({ length: 1 << MONTH_END_SOURCES.length }, (_, bits) => {
  const sources = MONTH_END_SOURCES.filter((_, i) => bits & (1 << i));
  return { sources: [...sources].sort(), partial: sources.some((s) => NOT_MEASURED.has(s)) };
});

/** The flats of the selection, and every other flat of their buildings (for averages and sharing). */
async function loadFlats(db: Queryable, selection: FlatSelection): Promise<FlatMeta[]> {
  const where = selection.flatIds
    ? `s.id = ANY ($1::int[]) AND ${inScope('s', '$2')}`
    : `${inScope('s', '$1')} AND ${inScope('s', '$2')}`;
  const params = selection.flatIds ? [selection.flatIds, selection.scope] : [selection.scope, selection.parents];
  const { rows } = await db.query<FlatMeta>(
    `WITH sel AS (SELECT s.id, ${buildingIdOf('s')} AS building FROM location s WHERE s.level = ${LOCATION_LEVEL.flat} AND ${where})
     SELECT l.id AS flat_id, ${buildingIdOf('l')} AS building_id, ${cityIdOf('l')} AS city_id, l.city, l.street, l.building, l.flat,
            l.flat_order, l.area_m2::float8 AS area_m2, c.code AS client_code,
            l.id IN (SELECT id FROM sel) AS selected
       FROM location l
       JOIN location bl ON bl.id = ${buildingIdOf('l')}
       LEFT JOIN client c ON c.id = l.client_id
      WHERE l.level = ${LOCATION_LEVEL.flat} AND ${buildingIdOf('l')} IN (SELECT building FROM sel)
      ORDER BY ${buildingOrder('bl')}, l.flat_order NULLS FIRST, l.flat, l.id`,
    params,
  );
  return rows;
}

const sumOrNull = (xs: ReadonlyArray<number | null>): number | null =>
  xs.some((x) => x === null) ? null : xs.reduce<number>((a, x) => a + (x ?? 0), 0);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

interface Cell {
  value: number | null;
  partial: boolean;
  incomplete: boolean;
  sources: MonthEndSource[];
}
const cellOf = (part: Part | undefined, value: number | null = part?.value ?? null): Cell => ({
  value: value === null ? null : round3(value),
  partial: !!part && part.partial,
  incomplete: !!part && part.value === null,
  sources: part ? part.sources : [],
});
const figure = (c: Cell | undefined): StatementFigure => ({
  Value: c?.value ?? null,
  Partial: c?.partial ?? false,
  Incomplete: c?.incomplete ?? false,
  Sources: c?.sources ?? [],
});

/**
 * The statements of the selected flats for month M, computed now from the month-end values
 * (docs/statements.md). Flats in address order. Published snapshots are not looked at here.
 */
export function computeStatements(db: Queryable, month: string, selection: FlatSelection): Promise<FlatStatement[]> {
  return compute(db, month, selection, true);
}

/**
 * The figures of the selected flats for month M (the statements without their history): only
 * M − 12, M − 1 and M are computed, a quarter of a statement's 13 months.
 */
export async function computeRows(db: Queryable, month: string, selection: FlatSelection): Promise<StatementRow[]> {
  return (await compute(db, month, selection, false)).map((s) => s.Row);
}

async function compute(
  db: Queryable,
  month: string,
  selection: FlatSelection,
  withHistory: boolean,
): Promise<FlatStatement[]> {
  const flats = await loadFlats(db, selection);
  if (!flats.some((f) => f.selected)) return [];
  const months = statementMonths(month);
  const computed = withHistory ? months : [months[0]!, months[11]!, month];
  // The month ends read: each computed month's and the one before it.
  const ends = [...new Set(computed.flatMap((m) => [statementMonths(m)[11]!, m]))];
  const { rows: partRows } = await db.query<{
    location_id: number;
    i: number;
    type: number;
    proc: Part['proc'];
    devices: number;
    value: number | null;
    qrad: number | null;
    bits: number;
  }>(flats.length >= BY_MONTH_FROM_FLATS ? PARTS_BY_MONTH : PARTS_BY_KEY, [
    [...new Set(flats.map((f) => f.flat_id))],
    computed.map((m) => `${m}-01`),
    ends.map((m) => `${m}-01`),
    `${months[0]}-01`,
    `${month}-01`,
  ]);
  // Per location its parts (a few: a linear search is quicker than keys built for every lookup), and
  // the kind and proc it has a device of in M − 12 … M.
  const byLoc = new Map<number, Part[]>();
  const present = new Set<string>();
  for (const r of partRows) {
    const kind = kindOf(r.type);
    if (r.i === 0) {
      present.add(`${r.location_id}|${kind}|${r.proc}`);
      continue;
    }
    const { sources, partial } = SOURCES_OF_BITS[r.bits]!;
    const p: Part = {
      location_id: r.location_id,
      kind,
      proc: r.proc,
      month: computed[r.i - 1]!,
      devices: r.devices,
      value: r.value,
      qrad: r.qrad,
      sources,
      partial,
    };
    const list = byLoc.get(r.location_id);
    if (list) list.push(p);
    else byLoc.set(r.location_id, [p]);
  }
  const cityIds = [...new Set(flats.map((f) => f.city_id).filter((c): c is number => c !== null))];
  const { rows: dd } = await db.query<{ city_id: number; month: string; value: number }>(
    `SELECT city_id, to_char(month, 'YYYY-MM') AS month, value::float8 AS value FROM degree_days
      WHERE city_id = ANY ($1::int[]) AND month IN ($2::date, $3::date)`,
    [cityIds, `${month}-01`, `${months[0]}-01`],
  );

  // A flat with a heat meter is heated by kWh; else by allocators.
  const part = (loc: number, kind: string, proc: string, m: string) =>
    byLoc.get(loc)?.find((p) => p.month === m && p.kind === kind && p.proc === proc);
  const heatingProc = (flat: number): 'energy' | 'allocator' | null =>
    present.has(`${flat}|heating|energy`) ? 'energy' : present.has(`${flat}|heating|allocator`) ? 'allocator' : null;

  // Allocators' kWh per building and month: the building meter's energy, less the flats' own heat
  // meters, shared by Qrad among the allocator flats. Partial when any value behind it is.
  const kwh = new Map<
    string,
    {
      method: 'buildingMeterByQrad' | 'noBuildingMeter' | 'incompleteBuilding';
      energy: number | null;
      share: Map<number, number>;
      partial: boolean;
    }
  >();
  const buildings = new Map<number, FlatMeta[]>();
  for (const f of flats) {
    const list = buildings.get(f.building_id) ?? [];
    list.push(f);
    buildings.set(f.building_id, list);
  }
  const heating = new Map(flats.map((f) => [f.flat_id, heatingProc(f.flat_id)]));
  for (const [building, members] of buildings) {
    for (const m of computed) {
      const meter = part(building, 'building', 'energy', m);
      const allocFlats = members.filter((f) => heating.get(f.flat_id) === 'allocator');
      const allocParts = allocFlats.map((f) => part(f.flat_id, 'heating', 'allocator', m));
      const meterFlats = members.filter((f) => heating.get(f.flat_id) === 'energy');
      const meterParts = meterFlats.map((f) => part(f.flat_id, 'heating', 'energy', m));
      const partial = [meter, ...allocParts, ...meterParts].some((p) => p?.partial);
      const key = `${building}|${m}`;
      if (!meter) {
        kwh.set(key, { method: 'noBuildingMeter', energy: null, share: new Map(), partial });
        continue;
      }
      const flatMeters = sumOrNull(meterParts.map((p) => p?.value ?? 0));
      const qrads = allocParts.map((p) => (p ? p.qrad : 0));
      const energy = meter.value === null || flatMeters === null ? null : meter.value - flatMeters;
      const shares = energy === null || qrads.some((q) => q === null) ? null : shareByQrad(energy, qrads as number[]);
      if (!shares) {
        kwh.set(key, { method: 'incompleteBuilding', energy: meter.value, share: new Map(), partial });
        continue;
      }
      kwh.set(key, {
        method: 'buildingMeterByQrad',
        energy: meter.value,
        share: new Map(allocFlats.map((f, i) => [f.flat_id, shares[i]!])),
        partial,
      });
    }
  }

  /** A flat's cell of one kind and month, in the kind's unit. */
  const cell = (f: FlatMeta, kind: StatementKind, m: string): { cell: Cell | undefined; unit: StatementUnit } => {
    if (kind === 'heating') {
      const proc = heating.get(f.flat_id);
      if (proc === 'energy') return { cell: partCell(part(f.flat_id, 'heating', 'energy', m)), unit: 'kWh' };
      const p = part(f.flat_id, 'heating', 'allocator', m);
      const k = kwh.get(`${f.building_id}|${m}`);
      const useKwh = kwhUnit(f.building_id);
      if (!useKwh) return { cell: p ? { ...cellOf(p, p.qrad), incomplete: p.qrad === null } : undefined, unit: 'Qrad' };
      if (!p) return { cell: undefined, unit: 'kWh' };
      const share = k?.share.get(f.flat_id);
      return {
        cell: {
          value: share ?? null,
          partial: !!k?.partial,
          incomplete: share === undefined,
          sources: cellOf(p).sources,
        },
        unit: 'kWh',
      };
    }
    return { cell: partCell(part(f.flat_id, kind, 'volume', m)), unit: 'm3' };
  };
  const partCell = (p: Part | undefined) => (p ? cellOf(p) : undefined);
  // A building's allocators are in kWh when it has a building heat meter in M (the statement's month).
  const kwhUnit = (building: number) => kwh.get(`${building}|${month}`)?.method !== 'noBuildingMeter';

  // Building averages in M per kind (and unit): per flat with a value, and per m² over flats with an area.
  const averages = new Map<string, { perFlat: number | null; perM2: number | null }>();
  for (const [building, members] of buildings) {
    for (const kind of ['heating', 'hotWater', 'coldWater'] as const) {
      const byUnit = new Map<StatementUnit, { n: number; sum: number; areaSum: number; areaValue: number }>();
      for (const f of members) {
        const { cell: c, unit } = cell(f, kind, month);
        if (c?.value == null) continue;
        const a = byUnit.get(unit) ?? { n: 0, sum: 0, areaSum: 0, areaValue: 0 };
        a.n++;
        a.sum += c.value;
        if (f.area_m2) {
          a.areaSum += f.area_m2;
          a.areaValue += c.value;
        }
        byUnit.set(unit, a);
      }
      for (const [unit, a] of byUnit)
        averages.set(`${building}|${kind}|${unit}`, {
          perFlat: round3(a.sum / a.n),
          perM2: a.areaSum > 0 ? Math.round((a.areaValue / a.areaSum) * 10000) / 10000 : null,
        });
    }
  }

  const ddOf = (city: number | null, m: string) => dd.find((d) => d.city_id === city && d.month === m)?.value;
  const out: FlatStatement[] = [];
  for (const f of flats) {
    if (!f.selected) continue;
    const kinds: StatementKindFigures[] = [];
    const history: FlatStatement['History'] = [];
    for (const kind of ['heating', 'hotWater', 'coldWater'] as const) {
      const devicesInM = (() => {
        if (kind === 'heating') {
          const proc = heating.get(f.flat_id);
          return proc ? (part(f.flat_id, 'heating', proc, month)?.devices ?? 0) : 0;
        }
        return part(f.flat_id, kind, 'volume', month)?.devices ?? 0;
      })();
      // A cell of some month of M − 12 … M: a device of the kind in service then.
      const hasKind = kind === 'heating' ? heating.get(f.flat_id) !== null : present.has(`${f.flat_id}|${kind}|volume`);
      if (!hasKind) continue;
      const cur = cell(f, kind, month);
      const prev = cell(f, kind, months[11]!);
      const last = cell(f, kind, months[0]!);
      const ddNow = ddOf(f.city_id, month);
      const ddThen = ddOf(f.city_id, months[0]!);
      const corrected =
        kind === 'heating' && last.cell?.value != null && ddNow !== undefined && ddThen
          ? round3((last.cell.value * ddNow) / ddThen)
          : null;
      const avg = averages.get(`${f.building_id}|${kind}|${cur.unit}`);
      const markers: StatementMarker[] = [];
      if (cur.cell?.partial) markers.push('estimated');
      if (cur.cell?.incomplete) markers.push('incomplete');
      const reference = corrected ?? last.cell?.value ?? null;
      if (cur.cell?.value != null && reference !== null && reference > 0) {
        if (cur.cell.value > STATEMENT_HIGH_FACTOR * reference) markers.push('high');
        else if (cur.cell.value < STATEMENT_LOW_FACTOR * reference) markers.push('low');
      }
      const alloc = kind === 'heating' && heating.get(f.flat_id) === 'allocator';
      const allocPart = alloc ? part(f.flat_id, 'heating', 'allocator', month) : undefined;
      const k = alloc ? kwh.get(`${f.building_id}|${month}`) : undefined;
      kinds.push({
        Kind: kind,
        Unit: cur.unit,
        Devices: devicesInM,
        Current: figure(cur.cell),
        Previous: figure(prev.cell),
        LastYear: figure(last.cell),
        LastYearCorrected: corrected,
        BuildingAverage: avg?.perFlat ?? null,
        BuildingAveragePerM2: avg?.perM2 ?? null,
        Units: allocPart?.value == null ? null : round3(allocPart.value),
        Qrad: allocPart?.qrad == null ? null : round3(allocPart.qrad),
        KwhMethod: k ? k.method : null,
        BuildingKwh: k?.energy == null ? null : round3(k.energy),
        Markers: markers,
      });
      if (withHistory)
        history.push({
          Kind: kind,
          Unit: cur.unit,
          Months: months.map((m) => {
            const c = cell(f, kind, m).cell;
            return { Month: m, Value: c?.value ?? null, Partial: c?.partial ?? false };
          }),
        });
    }
    const row: StatementRow = {
      FlatId: f.flat_id,
      BuildingId: f.building_id,
      City: f.city,
      Street: f.street,
      Building: f.building,
      Flat: f.flat,
      FlatOrder: f.flat_order,
      AreaM2: f.area_m2,
      ClientCode: f.client_code,
      Kinds: kinds,
      Published: null,
    };
    const ddNow = ddOf(f.city_id, month);
    const ddThen = ddOf(f.city_id, months[0]!);
    out.push({
      Month: month,
      Row: row,
      History: history,
      DegreeDays: ddNow !== undefined && ddThen !== undefined ? { Current: ddNow, LastYear: ddThen } : null,
    });
  }
  return out;
}
