// The statements' figures as computed before docs/statements.md "Figures of many flats" (commit 9c52374):
// every flat's 13 months, then only the row kept. Kept only so `npm run bench:statements -w bench` can
// show before and after side by side over HTTP. Not used by the server.
import {
  type FlatStatement,
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
import type { Queryable } from '@rodmenys/server/db/db.js';
import { buildingOrder } from '@rodmenys/server/services/devices/device-row.js';
import { inScope } from '@rodmenys/server/services/sql.js';
import { type BuildingKwh, buildingKwh } from '@rodmenys/server/services/statements/kwh.js';

/** Which flats: the caller's scope and subtrees (as GetDevicesData), or given flats. */
type FlatSelection =
  | { scope: number[] | null; parents: number[] | null; flatIds?: undefined }
  | { flatIds: number[]; scope: number[] | null; parents?: undefined };

/** The months a statement shows: M − 12 … M, as YYYY-MM. */
function statementMonths(month: string): string[] {
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
  building_id: number;
  kind: StatementKind | 'building';
  proc: 'allocator' | 'energy' | 'volume';
  month: string;
  devices: number;
  value: number | null;
  qrad: number | null;
  sources: MonthEndSource[];
}

/**
 * Per device and month of M − 12 … M, the consumption: the month end of the month minus the one
 * before; a device installed inside the month starts at its first reading, one removed inside it
 * ends at its last reading up to its removal (as a readings period does, docs/domain.md §8).
 * Summed per location, kind and month. Every device of the buildings that hold a selected flat:
 * the building averages and the kWh sharing need the whole building.
 */
/** SQL: the bit of a month-end source in MONTH_END_SOURCES order, 0 for none. */
const SOURCE_BIT = (column: string) =>
  `CASE ${column} ${MONTH_END_SOURCES.map((source, i) => `WHEN '${source}' THEN ${1 << i}`).join(' ')} ELSE 0 END`;

const PARTS_SQL = `WITH b AS (
    SELECT DISTINCT l.path[6] AS id FROM location l WHERE l.id = ANY ($1::int[])
  ), m AS (
    SELECT g::date AS month, (g - interval '1 month')::date AS prev, g::timestamp::timestamptz AS s,
           (g + interval '1 month')::timestamp::timestamptz AS e
      FROM generate_series($2::date, $3::date, interval '1 month') g
  ), dev AS MATERIALIZED (
    -- The buildings' devices, planned on their own: a few hundred rows, found through the location index.
    SELECT d.id, d.device_type_id, d.rating_factor, d.installed_at, d.removed_at, t.data_load_proc AS proc,
           l.id AS location_id, l.path[6] AS building_id
      FROM b JOIN location l ON l.path[6] = b.id AND l.path @> ARRAY[b.id]
      JOIN device d ON d.location_id = l.id
      JOIN device_type t ON t.id = d.device_type_id
     WHERE d.device_type_id IN (1, 2, 3, 4, 11)
  ), dm AS (
    SELECT dev.*, m.month, m.prev, m.s, m.e,
           coalesce(dev.installed_at, '-infinity') < m.s AS from_start,
           coalesce(dev.removed_at, 'infinity') >= m.e AS to_end
      FROM dev JOIN m ON coalesce(dev.installed_at, '-infinity') < m.e AND coalesce(dev.removed_at, 'infinity') >= m.s
  ), me AS MATERIALIZED (
    -- The month ends of those devices for M − 13 … M, read once (a key range per device), then joined twice.
    SELECT x.device_id, x.month, x.value, x.source
      FROM dev JOIN month_end x ON x.device_id = dev.id
     WHERE x.month >= ($2::date - interval '1 month')::date AND x.month <= $3::date
  ), w AS (
    -- A device in service the whole month: its two month ends. Installed or removed inside it: its
    -- first or last reading, looked up only for those few (a subquery in CASE runs only when chosen).
    SELECT dm.*, ms.value AS ms_v, ms.source AS ms_src, me.value AS me_v, me.source AS me_src,
           CASE WHEN NOT dm.from_start THEN
             (SELECT r.value FROM reading r
               WHERE r.device_id = dm.id AND r.ts >= dm.installed_at AND r.ts < dm.e
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
    SELECT w.*,
           CASE WHEN w.from_start THEN w.ms_v ELSE w.ini_v END AS start_v,
           CASE WHEN w.from_start THEN w.ms_src WHEN w.ini_v IS NOT NULL THEN 'measured' END AS start_src,
           CASE WHEN w.to_end THEN w.me_v ELSE w.fin_v END AS end_v,
           CASE WHEN w.to_end THEN w.me_src WHEN w.fin_v IS NOT NULL THEN 'measured' END AS end_src
      FROM w
  )
  SELECT v.location_id, v.building_id, to_char(v.month, 'YYYY-MM') AS month, v.proc,
         CASE v.device_type_id WHEN 11 THEN 'building' WHEN 1 THEN 'heating' WHEN 2 THEN 'heating'
                               WHEN 4 THEN 'hotWater' ELSE 'coldWater' END AS kind,
         count(*)::int AS devices,
         CASE WHEN bool_and(v.end_v IS NOT NULL AND v.start_v IS NOT NULL)
              THEN sum(v.end_v - v.start_v)::float8 END AS value,
         CASE WHEN bool_and(v.end_v IS NOT NULL AND v.start_v IS NOT NULL AND v.rating_factor IS NOT NULL)
              THEN sum((v.end_v - v.start_v) * v.rating_factor)::float8 END AS qrad,
         -- The sources used, as bits in MONTH_END_SOURCES order (cheaper than distinct arrays per group).
         bit_or(${SOURCE_BIT('v.start_src')} | ${SOURCE_BIT('v.end_src')}) AS source_bits
    FROM v
   GROUP BY v.location_id, v.building_id, v.month, v.proc, v.device_type_id`;

/** The flats of the selection, and every other flat of their buildings (for averages and sharing). */
async function loadFlats(db: Queryable, selection: FlatSelection): Promise<FlatMeta[]> {
  const where = selection.flatIds
    ? `s.id = ANY ($1::int[]) AND ${inScope('s', '$2')}`
    : `${inScope('s', '$1')} AND ${inScope('s', '$2')}`;
  const params = selection.flatIds ? [selection.flatIds, selection.scope] : [selection.scope, selection.parents];
  const { rows } = await db.query<FlatMeta>(
    `WITH sel AS (SELECT s.id, s.path[6] AS building FROM location s WHERE s.level = 7 AND ${where})
     SELECT l.id AS flat_id, l.path[6] AS building_id, l.path[4] AS city_id, l.city, l.street, l.building, l.flat,
            l.flat_order, l.area_m2::float8 AS area_m2, c.code AS client_code,
            l.id IN (SELECT id FROM sel) AS selected
       FROM location l
       JOIN location bl ON bl.id = l.path[6]
       LEFT JOIN client c ON c.id = l.client_id
      WHERE l.level = 7 AND l.path[6] IN (SELECT building FROM sel)
      ORDER BY ${buildingOrder('bl')}, l.flat_order NULLS FIRST, l.flat, l.id`,
    params,
  );
  return rows;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

interface Cell {
  value: number | null;
  partial: boolean;
  incomplete: boolean;
  sources: MonthEndSource[];
}
const cellOf = (part: Part | undefined, value: number | null = part?.value ?? null): Cell => ({
  value: value === null ? null : round3(value),
  partial: !!part && part.sources.some((s) => NOT_MEASURED.has(s)),
  incomplete: !!part && part.value === null,
  sources: part ? [...new Set(part.sources)].sort() : [],
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
async function computeStatements(db: Queryable, month: string, selection: FlatSelection): Promise<FlatStatement[]> {
  const flats = await loadFlats(db, selection);
  if (!flats.some((f) => f.selected)) return [];
  const months = statementMonths(month);
  const { rows: partRows } = await db.query<Omit<Part, 'sources'> & { source_bits: number }>(PARTS_SQL, [
    [...new Set(flats.map((f) => f.flat_id))],
    `${months[0]}-01`,
    `${month}-01`,
  ]);
  const parts: Part[] = partRows.map(({ source_bits, ...p }) => ({
    ...p,
    sources: MONTH_END_SOURCES.filter((_, i) => source_bits & (1 << i)),
  }));
  const cityIds = [...new Set(flats.map((f) => f.city_id).filter((c): c is number => c !== null))];
  const { rows: dd } = await db.query<{ city_id: number; month: string; value: number }>(
    `SELECT city_id, to_char(month, 'YYYY-MM') AS month, value::float8 AS value FROM degree_days
      WHERE city_id = ANY ($1::int[]) AND month IN ($2::date, $3::date)`,
    [cityIds, `${month}-01`, `${months[0]}-01`],
  );

  // Per location: kind → month → part. A flat with a heat meter is heated by kWh; else by allocators.
  const byLoc = new Map<number, Map<string, Part>>();
  for (const p of parts) {
    const key = `${p.kind}|${p.proc}|${p.month}`;
    const m = byLoc.get(p.location_id) ?? new Map<string, Part>();
    byLoc.set(p.location_id, m);
    m.set(key, p);
  }
  const part = (loc: number, kind: string, proc: string, m: string) => byLoc.get(loc)?.get(`${kind}|${proc}|${m}`);
  const heatingProc = (flat: number): 'energy' | 'allocator' | null =>
    months.some((m) => part(flat, 'heating', 'energy', m))
      ? 'energy'
      : months.some((m) => part(flat, 'heating', 'allocator', m))
        ? 'allocator'
        : null;

  // Allocators' kWh per building and month: the server's own sharing rules (kwh.ts), so that both
  // paths answer the same bytes; it reads the parts through the same lookup.
  const buildings = new Map<number, FlatMeta[]>();
  for (const f of flats) {
    const list = buildings.get(f.building_id) ?? [];
    list.push(f);
    buildings.set(f.building_id, list);
  }
  const heating = new Map(flats.map((f) => [f.flat_id, heatingProc(f.flat_id)]));
  const lookup = {
    get: (loc: number, kind: string, proc: string, m: string) => {
      const p = part(loc, kind, proc, m);
      return p && { ...p, partial: p.sources.some((s) => NOT_MEASURED.has(s)) };
    },
  };
  const kwh = new Map<string, BuildingKwh>();
  for (const [building, members] of buildings)
    for (const m of months) kwh.set(`${building}|${m}`, buildingKwh(lookup, building, members, heating, m));

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
          sources: k?.sources ?? cellOf(p).sources,
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
      const hasKind = months.some((m) => cell(f, kind, m).cell);
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
        BuildingLine: k?.line ?? null,
        // The old computation knows no heat method (docs/heat-method.md): the bench's buildings have none.
        HeatBalance: null,
        HeatParts: null,
        Markers: markers,
        // Nor overdue devices (docs/device-lifetime.md): the bench's devices are installed about a year before.
        Overdue: [],
        LateDeclarations: [],
      });
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

/** GetStatementFigures' rows of the flats under `parents` (null: every flat) for month M, as computed before. */
export async function statementFiguresBefore(
  db: Queryable,
  month: string,
  parents: number[] | null,
): Promise<StatementRow[]> {
  return (await computeStatements(db, month, { scope: null, parents })).map((s) => s.Row);
}
