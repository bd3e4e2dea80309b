import {
  BILLING_COLUMNS,
  type BillingLine,
  type BillingRow,
  DEVICE_TYPE,
  type OccupancyStatement,
  type StatementBuildingLine,
  type StatementHeatBalance,
  type StatementKind,
  type StatementKindFigures,
  type StatementOverdueDevice,
  type StatementRow,
} from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { computeRows } from '../statements/figures.js';
import { splitMoves } from '../statements/occupancy-figures.js';
import { type Account, accountsAt } from './account.js';
import { type DeviceLine, loadDeviceLines, loadDeviceLinesWithDigests } from './device-lines.js';

/** What a row is made of: its own members, and what the rows of one flat share (`base`). */
type RowMaker = (
  values: Partial<BillingRow> & Partial<Pick<BillingRow, 'Month' | 'Line' | 'BuildingId'>>,
  base?: Partial<BillingRow>,
) => BillingRow;

/**
 * Rows with their members in the contract's order (JSON, CSV and XLSX keep that order): `values`, else `base`
 * (what rows of one flat share, given apart so it is not copied into each row's values first; the two name
 * different members), else null (false for the flags). `keepNulls` false: the null members left out.
 */
const rowMaker =
  (keepNulls: boolean): RowMaker =>
  (values, base) => {
    const row: Record<string, unknown> = {};
    for (const c of BILLING_COLUMNS) {
      const v = values[c] ?? base?.[c] ?? (c === 'Partial' || c === 'Incomplete' || c === 'Books' ? false : null);
      if (keepNulls || v !== null) row[c] = v;
    }
    return row as BillingRow;
  };

/** A row with every member of BillingRow (rowMaker). */
export const billingRow: RowMaker = rowMaker(true);

/**
 * billingRow without its null members (in the same order): how a frozen export keeps its rows (`frozenRowsText`);
 * parseSnapshotRows gives them back whole.
 */
const frozenRow: RowMaker = rowMaker(false);

/** A publication's stamp on its rows, or live. */
export type Stamp = { Status: 'published'; Version: number; PublishedAt: string } | { Status: 'live' };

const stampOf = (s: Stamp) =>
  s.Status === 'live'
    ? { Status: 'live' as const, Version: null, PublishedAt: null }
    : { Status: s.Status, Version: s.Version, PublishedAt: s.PublishedAt };

const KIND_OF: Record<number, StatementKind> = {
  [DEVICE_TYPE.allocator]: 'heating',
  [DEVICE_TYPE.heatMeter]: 'heating',
  [DEVICE_TYPE.buildingHeatMeter]: 'heating',
  [DEVICE_TYPE.hotWaterMeter]: 'hotWater',
  [DEVICE_TYPE.coldWaterMeter]: 'coldWater',
};
const UNIT_OF: Record<number, string> = {
  [DEVICE_TYPE.allocator]: 'units',
  [DEVICE_TYPE.heatMeter]: 'kWh',
  [DEVICE_TYPE.buildingHeatMeter]: 'kWh',
  [DEVICE_TYPE.hotWaterMeter]: 'm3',
  [DEVICE_TYPE.coldWaterMeter]: 'm3',
};
const NOT_MEASURED = new Set(['interpolated', 'estimated', 'manual']);

/** The export's text of overdue devices: `serial (due date, reason)` joined by `; `, null for none. */
export const overdueText = (devices: readonly StatementOverdueDevice[]): string | null =>
  devices.length ? devices.map((d) => `${d.DeviceCode} (${d.DueDate}, ${d.Reason})`).join('; ') : null;

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const sumOrNull = (xs: (number | null)[]) =>
  xs.length === 0 || xs.some((x) => x === null) ? null : round3(xs.reduce<number>((a, x) => a + (x ?? 0), 0));

/**
 * A whole building's export rows for a month, stamped (live, or a publication's version): per flat its
 * devices then its figures per kind (`flats`: the statements' rows of every flat of the building), then the
 * building heat meters and the building line. In the building's flat order.
 */
export async function buildingRows(
  db: Queryable,
  month: string,
  buildingId: number,
  flats: readonly StatementRow[],
  stamp: Stamp,
): Promise<BillingRow[]> {
  return (await buildingsRows(db, month, [{ buildingId, flats, stamp }])).get(buildingId) ?? [];
}

/** What buildingsRows needs of a building: the statements' rows of its flats and the stamp. */
export interface BuildingRowsOf {
  buildingId: number;
  flats: readonly StatementRow[];
  stamp: Stamp;
}

/**
 * buildingRows of many buildings in three queries whatever their number (publishing every building:
 * docs/statements.md, "Publishing"): their devices, their flats' accounts and the splits of their flats
 * with a move (`splits`: already computed by the caller, as splitMoves answers them for these flats).
 */
export async function buildingsRows(
  db: Queryable,
  month: string,
  buildings: readonly BuildingRowsOf[],
  splits?: ReadonlyMap<number, OccupancyStatement[]>,
): Promise<Map<number, BillingRow[]>> {
  const out = new Map<number, BillingRow[]>();
  if (!buildings.length) return out;
  const inputs = await loadRowsInputs(db, month, buildings, splits);
  for (const b of buildings) out.set(b.buildingId, assembleRows(month, b, inputs));
  return out;
}

/** What the export's rows of buildings are made of besides their statements' rows (see buildingsRows). */
export interface RowsInputs {
  devices: ReadonlyMap<number, readonly DeviceLine[]>;
  accounts: ReadonlyMap<number, Account>;
  splits: ReadonlyMap<number, OccupancyStatement[]>;
  /** Each building's digest of its device lines (device-lines.ts), when asked for (`withDigests`). */
  deviceDigests?: ReadonlyMap<number, string>;
}

/**
 * The devices, accounts and splits of buildingsRows, in three queries whatever the number of buildings;
 * `withDigests`: the device lines' digests too (the same statement), for the digest of a frozen export.
 */
export async function loadRowsInputs(
  db: Queryable,
  month: string,
  buildings: readonly Pick<BuildingRowsOf, 'buildingId' | 'flats'>[],
  splits?: ReadonlyMap<number, OccupancyStatement[]>,
  withDigests = false,
): Promise<RowsInputs> {
  const all = buildings.flatMap((b) => b.flats);
  const ids = buildings.map((b) => b.buildingId);
  const { lines: devices, digests } = withDigests
    ? await loadDeviceLinesWithDigests(db, month, ids)
    : { lines: await loadDeviceLines(db, month, ids), digests: undefined };
  const accounts = await accountsAt(
    db,
    all.map((f) => f.FlatId),
    month,
  );
  return {
    devices,
    accounts,
    splits: splits ?? (await splitMoves(db, month, all)),
    ...(digests ? { deviceDigests: digests } : {}),
  };
}

/** One building's export rows from its statements' rows and loadRowsInputs of it. */
export const assembleRows = (month: string, b: BuildingRowsOf, inputs: RowsInputs): BillingRow[] =>
  assemble(month, b, inputs.devices.get(b.buildingId) ?? [], inputs.accounts, inputs.splits, billingRow);

/**
 * One building's export rows as a frozen export keeps them (billing_snapshot.rows): assembleRows' rows as JSON
 * text without their null members (docs/integration.md, "Versions"), and how many: half the text the whole
 * rows make (24 against 49 MB for 5,047 flats), written, sent and compressed when every building is published
 * (docs/benchmarks.md, "Publishing: fifth pass"); parseSnapshotRows reads them back whole.
 */
export function frozenRowsText(month: string, b: BuildingRowsOf, inputs: RowsInputs): { text: string; count: number } {
  const rows = assemble(month, b, inputs.devices.get(b.buildingId) ?? [], inputs.accounts, inputs.splits, frozenRow);
  return { text: JSON.stringify(rows), count: rows.length };
}

/** One building's rows from its devices, its flats' accounts and the splits of its flats with a move. */
function assemble(
  month: string,
  { buildingId, flats, stamp }: BuildingRowsOf,
  devices: readonly DeviceLine[],
  accounts: ReadonlyMap<number, Account>,
  splits: ReadonlyMap<number, OccupancyStatement[]>,
  makeRow: RowMaker,
): BillingRow[] {
  const st = stampOf(stamp);
  // The devices overdue in the month, as the figures carry them (a published version: as frozen).
  const overdue = new Map(flats.flatMap((f) => f.Kinds.flatMap((k) => k.Overdue.map((d) => [d.DeviceId, d] as const))));
  const overdueOf = (ds: readonly DeviceLine[]) => overdueText(ds.flatMap((d) => overdue.get(d.id) ?? []));
  const base = (line: BillingLine, flat: StatementRow | null, account: Account | undefined) => ({
    Month: month,
    ...st,
    Line: line,
    BuildingId: buildingId,
    FlatId: flat?.FlatId ?? null,
    City: flat?.City ?? null,
    Street: flat?.Street ?? null,
    Building: flat?.Building ?? null,
    Flat: flat?.Flat ?? null,
    AccountCode: account?.code ?? null,
    AccountName: account?.name ?? null,
  });
  const deviceRow = (d: DeviceLine, rowBase: Partial<BillingRow>) =>
    makeRow(
      {
        DeviceId: d.id,
        DeviceCode: d.device_code,
        DeviceTypeId: d.type,
        Kind: KIND_OF[d.type] ?? null,
        Unit: UNIT_OF[d.type] ?? null,
        StartValue: d.start_value,
        StartTime: d.start_time,
        StartSource: d.start_source,
        EndValue: d.end_value,
        EndTime: d.end_time,
        EndSource: d.end_source,
        Consumption: d.consumption,
        Units: d.type === DEVICE_TYPE.allocator ? d.consumption : null,
        RatingFactor: d.type === DEVICE_TYPE.allocator ? d.rating_factor : null,
        Qrad: d.qrad,
        Partial: NOT_MEASURED.has(d.start_source ?? '') || NOT_MEASURED.has(d.end_source ?? ''),
        Incomplete: d.start_value === null || d.end_value === null,
        OverdueDevices: overdueOf([d]),
      },
      rowBase,
    );
  const byFlat = new Map<number, DeviceLine[]>();
  for (const d of devices) {
    if (d.is_building) continue;
    const list = byFlat.get(d.location_id) ?? [];
    list.push(d);
    byFlat.set(d.location_id, list);
  }
  const out: BillingRow[] = [];
  const balance = flats.flatMap((f) => f.Kinds).find((k) => k.HeatBalance)?.HeatBalance ?? null;
  // The statements' building line (docs/statements.md), as every allocator flat of the building carries it.
  let line: StatementBuildingLine | null = null;
  // Flats with more than one occupant in the month (`splits`): their occupants' parts, as their statements split it.
  for (const flat of flats) {
    const account = accounts.get(flat.FlatId);
    const split = splits.get(flat.FlatId);
    const deviceBase = base('device', flat, account);
    const flatBase = base('flat', flat, account);
    for (const d of byFlat.get(flat.FlatId) ?? []) out.push(deviceRow(d, deviceBase));
    for (const k of flat.Kinds) {
      if (k.BuildingLine) line = k.BuildingLine;
      out.push(
        makeRow(
          {
            Kind: k.Kind,
            Unit: k.Unit,
            Consumption: k.Current.Value,
            Units: k.Units,
            Qrad: k.Qrad,
            KwhShare: k.KwhMethod && k.Unit === 'kWh' ? k.Current.Value : null,
            KwhMethod: k.KwhMethod,
            Partial: k.Current.Partial,
            Incomplete: k.Current.Incomplete,
            Books: !split,
            ...heatPartColumns(k),
            OverdueDevices: overdueText(k.Overdue),
          },
          flatBase,
        ),
      );
    }
    for (const o of split ?? []) out.push(...occupancyRows(o, flat, base, makeRow));
  }
  const meters = devices.filter((d) => d.is_building);
  const first = flats[0] ?? null;
  const place = { City: first?.City ?? null, Street: first?.Street ?? null, Building: first?.Building ?? null };
  // The building's place on its meters' rows, in the members' order.
  const meterBase = { ...base('device', null, undefined), ...place };
  for (const d of meters) out.push(deviceRow(d, meterBase));
  // The building line is the input meter's: the devices of the hot water's roles are rows of their own.
  const inputs = meters.filter((d) => d.role === null);
  if (inputs.length) {
    // What the flats with their own heat meter took; their allocators are not counted (docs/statements.md).
    const flatMeters = devices.filter((d) => !d.is_building && d.type === DEVICE_TYPE.heatMeter);
    const meterKwh = sumOrNull(inputs.map((d) => d.consumption));
    const subtracted = flatMeters.length ? sumOrNull(flatMeters.map((d) => d.consumption)) : 0;
    out.push(
      makeRow({
        ...base('building', null, undefined),
        ...place,
        Kind: 'heating',
        Unit: 'kWh',
        BuildingMeterKwh: line ? line.MeterKwh : meterKwh,
        SubtractedKwh: line ? line.SubtractedKwh : subtracted,
        SharedKwh: line
          ? line.SharedKwh
          : meterKwh !== null && subtracted !== null
            ? round3(meterKwh - subtracted)
            : null,
        Partial: [...inputs, ...flatMeters].some(
          (d) => NOT_MEASURED.has(d.start_source ?? '') || NOT_MEASURED.has(d.end_source ?? ''),
        ),
        Incomplete: line ? line.AllocatorKwh === null : meterKwh === null || subtracted === null,
        ...heatBalanceColumns(balance),
        OverdueDevices: overdueOf(meters),
      }),
    );
  }
  return out;
}

/**
 * One occupant's rows of a flat with a move (docs/integration.md, "Which rows to book"): per kind of the flat,
 * their consumption on their days, units, Qrad and kWh, under their account and name; booked instead of the
 * flat's rows, which they add up to.
 */
function occupancyRows(
  o: OccupancyStatement,
  flat: StatementRow,
  base: (
    line: BillingLine,
    flat: StatementRow | null,
    account: Account | undefined,
  ) => Partial<BillingRow> & Pick<BillingRow, 'Month' | 'Line' | 'BuildingId'>,
  makeRow: RowMaker,
): BillingRow[] {
  return o.Kinds.map((k) => {
    const flatKind = flat.Kinds.find((f) => f.Kind === k.Kind && f.Unit === k.Unit);
    const method = flatKind?.KwhMethod ?? null;
    return makeRow({
      ...base('occupancy', flat, { code: o.ClientCode, name: o.Name }),
      Kind: k.Kind,
      Unit: k.Unit,
      Consumption: k.Current.Value,
      Units: k.Units,
      Qrad: k.Qrad,
      KwhShare: method && k.Unit === 'kWh' ? k.Current.Value : null,
      KwhMethod: method,
      Partial: k.Current.Partial,
      Incomplete: k.Current.Incomplete,
      OccupancyId: o.OccupancyId,
      OccupancyFrom: o.From,
      OccupancyTill: o.Till,
      Days: o.Days,
      Books: true,
      // The occupant's own heat parts (docs/heat-method.md, "Occupants"), under the flat's method.
      ...(flatKind ? heatPartColumns({ ...flatKind, HeatParts: k.HeatParts }) : {}),
      OverdueDevices: overdueText(k.Overdue),
    });
  });
}

/** A flat's heating parts by its building's heat method as export columns (docs/heat-method.md). */
function heatPartColumns(k: StatementKindFigures): Partial<BillingRow> {
  const p = k.HeatParts;
  if (!k.HeatBalance) return {};
  return {
    HeatMethod: k.HeatBalance.Method,
    HeatMethodFrom: k.HeatBalance.ValidFrom,
    HeatConsumptionKwh: p?.Consumption ?? null,
    HeatBaseKwh: p?.Base ?? null,
    HeatCommonKwh: p?.Common ?? null,
    HeatNoDeviceKwh: p?.NoDevice ?? null,
    HeatMeterPartKwh: p?.HeatMeter ?? null,
    HeatAssignedKwh: p?.Assigned ?? null,
    HeatSpaceKwh: p?.Space ?? null,
    HotWaterHeatKwh: p?.HotWater ?? null,
    CirculationKwh: p?.Circulation ?? null,
    HeatTotalKwh: p?.Total ?? null,
  };
}

/** A building's balance by its heat method as export columns of its building row. */
function heatBalanceColumns(b: StatementHeatBalance | null): Partial<BillingRow> {
  if (!b) return {};
  return {
    HeatMethod: b.Method,
    HeatMethodFrom: b.ValidFrom,
    HeatInputKwh: b.InputKwh,
    HeatConsumptionKwh: b.ConsumptionKwh,
    HeatBaseKwh: b.BaseKwh,
    HeatCommonKwh: b.CommonKwh,
    HeatNoDeviceKwh: b.NoDeviceKwh,
    HeatMeterPartKwh: b.HeatMeterKwh,
    HotWaterHeatKwh: b.HotWaterKwh,
    CirculationKwh: b.CirculationKwh,
  };
}

/** How many buildings' statement figures are computed in one go for a live export (memory: one batch). */
export const LIVE_BATCH_BUILDINGS = 16;

/**
 * The statements' figures of every flat of the buildings, computed now, per building: one computation for the
 * batch (the figures' query is far cheaper per building in bulk than one building at a time).
 */
export async function liveFlatRows(
  db: Queryable,
  month: string,
  buildingIds: readonly number[],
): Promise<Map<number, StatementRow[]>> {
  const out = new Map<number, StatementRow[]>(buildingIds.map((b) => [b, []]));
  if (!buildingIds.length) return out;
  for (const row of await computeRows(db, month, { scope: null, parents: [...buildingIds] }))
    out.get(row.BuildingId)?.push(row);
  return out;
}

/** A building's rows computed now (live): the statements' figures of all its flats, and its devices. */
export async function liveBuildingRows(
  db: Queryable,
  month: string,
  buildingId: number,
  flats?: readonly StatementRow[],
): Promise<BillingRow[]> {
  const figures = flats ?? (await liveFlatRows(db, month, [buildingId])).get(buildingId) ?? [];
  return buildingRows(db, month, buildingId, figures, { Status: 'live' });
}
