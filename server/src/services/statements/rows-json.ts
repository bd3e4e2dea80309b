import type {
  FlatOccupancyStatement,
  OccupancyKindFigures,
  StatementBuildingLine,
  StatementFigure,
  StatementHeatBalance,
  StatementHeatParameters,
  StatementHeatParts,
  StatementKindFigures,
  StatementOverdueDevice,
  StatementPublication,
  StatementRow,
} from '@rodmenys/contract';
import { JsonText } from '../../json-text.js';

/*
 * The figures' answer written as JSON text by hand, member by member in the contract's order:
 * exactly the declared members (what the schema serialiser would keep), without its per-value
 * checks of nullable unions, which took 15–25 % of the answer's time for 5,000 flats
 * (docs/statements.md "Figures of many flats").
 */

const str = (s: string | null) => (s === null ? 'null' : JSON.stringify(s));
const num = (n: number | null) => (n === null || !Number.isFinite(n) ? 'null' : String(n));
const stringsOf = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(',')}]`;

/**
 * The text of an object the figures share between flats (a building's line and balance, a list of
 * sources: docs/statements.md, "Figures of many flats"), written once per object. Keyed by the object
 * itself: the figures are never changed once computed.
 */
function once<T extends object>(write: (x: T) => string): (x: T) => string {
  const texts = new WeakMap<T, string>();
  return (x) => {
    const known = texts.get(x);
    if (known !== undefined) return known;
    const text = write(x);
    texts.set(x, text);
    return text;
  };
}

const strings = once(stringsOf);

const figure = (f: StatementFigure) =>
  `{"Value":${num(f.Value)},"Partial":${f.Partial},"Incomplete":${f.Incomplete},"Sources":${strings(f.Sources)}}`;

const buildingLineText = once(
  (l: StatementBuildingLine) =>
    `{"MeterKwh":${num(l.MeterKwh)},"Subtracted":[${l.Subtracted.map(
      (f) => `{"FlatId":${num(f.FlatId)},"Flat":${str(f.Flat)},"Kwh":${num(f.Kwh)}}`,
    ).join(',')}],"SubtractedKwh":${num(l.SubtractedKwh)},"AllocatorKwh":${num(l.AllocatorKwh)},` +
    `"SharedKwh":${num(l.SharedKwh)},"UnsharedKwh":${num(l.UnsharedKwh)}}`,
);
const buildingLine = (l: StatementBuildingLine | null) => (l === null ? 'null' : buildingLineText(l));

const heatParameters = (p: StatementHeatParameters | null) =>
  p === null
    ? 'null'
    : `{"KwhPerM3":${num(p.KwhPerM3)},"CirculationNorm":${num(p.CirculationNorm)},` +
      `"HotWaterTemperature":${num(p.HotWaterTemperature)},"DistrictHeat":${p.DistrictHeat},` +
      `"Seasons":[${p.Seasons.map((x) => `{"From":${str(x.From)},"To":${str(x.To)}}`).join(',')}],` +
      `"CommonShare":${num(p.CommonShare)},"BaseShare":${num(p.BaseShare)},"MinimumShare":${num(p.MinimumShare)},` +
      `"PositionFactor":${num(p.PositionFactor)},"CirculationClass":${num(p.CirculationClass)}}`;

const heatBalanceText = once(
  (b: StatementHeatBalance) =>
    `{"Method":${str(b.Method)},"ValidFrom":${str(b.ValidFrom)},"Status":${str(b.Status)},"Reason":${str(b.Reason)},` +
    `"InputKwh":${num(b.InputKwh)},"HotWaterKwh":${num(b.HotWaterKwh)},"CirculationKwh":${num(b.CirculationKwh)},` +
    `"CommonKwh":${num(b.CommonKwh)},"NoDeviceKwh":${num(b.NoDeviceKwh)},"HeatMeterKwh":${num(b.HeatMeterKwh)},` +
    `"BaseKwh":${num(b.BaseKwh)},"ConsumptionKwh":${num(b.ConsumptionKwh)},"HotWaterM3":${num(b.HotWaterM3)},` +
    `"HotWaterLossesM3":${num(b.HotWaterLossesM3)},"Parameters":${heatParameters(b.Parameters)}}`,
);
const heatBalance = (b: StatementHeatBalance | null) => (b === null ? 'null' : heatBalanceText(b));

const heatParts = (p: StatementHeatParts | null) =>
  p === null
    ? 'null'
    : `{"Consumption":${num(p.Consumption)},"Base":${num(p.Base)},"Common":${num(p.Common)},` +
      `"NoDevice":${num(p.NoDevice)},"HeatMeter":${num(p.HeatMeter)},"Assigned":${num(p.Assigned)},` +
      `"Space":${num(p.Space)},"HotWater":${num(p.HotWater)},"Circulation":${num(p.Circulation)},"Total":${num(p.Total)}}`;

const overdue = (xs: readonly StatementOverdueDevice[]) =>
  `[${xs
    .map(
      (d) =>
        `{"DeviceId":${num(d.DeviceId)},"DeviceCode":${str(d.DeviceCode)},"DeviceTypeId":${num(d.DeviceTypeId)},` +
        `"DueDate":${str(d.DueDate)},"Reason":${str(d.Reason)}}`,
    )
    .join(',')}]`;

const kind = (k: StatementKindFigures) =>
  `{"Kind":${str(k.Kind)},"Unit":${str(k.Unit)},"Devices":${num(k.Devices)},"Current":${figure(k.Current)},` +
  `"Previous":${figure(k.Previous)},"LastYear":${figure(k.LastYear)},"LastYearCorrected":${num(k.LastYearCorrected)},` +
  `"BuildingAverage":${num(k.BuildingAverage)},"BuildingAveragePerM2":${num(k.BuildingAveragePerM2)},` +
  `"Units":${num(k.Units)},"Qrad":${num(k.Qrad)},"KwhMethod":${str(k.KwhMethod)},"BuildingKwh":${num(k.BuildingKwh)},` +
  `"BuildingLine":${buildingLine(k.BuildingLine)},"HeatBalance":${heatBalance(k.HeatBalance)},` +
  `"HeatParts":${heatParts(k.HeatParts)},"Markers":${stringsOf(k.Markers)},"Overdue":${overdue(k.Overdue)},` +
  `"LateDeclarations":${stringsOf(k.LateDeclarations)}}`;

const publication = (p: StatementPublication | null) =>
  p === null
    ? 'null'
    : `{"BuildingId":${num(p.BuildingId)},"Version":${num(p.Version)},"PublishedAt":${str(p.PublishedAt)},` +
      `"PublishedBy":${str(p.PublishedBy)}}`;

const row = (r: StatementRow) =>
  `{"FlatId":${num(r.FlatId)},"BuildingId":${num(r.BuildingId)},"City":${str(r.City)},"Street":${str(r.Street)},` +
  `"Building":${str(r.Building)},"Flat":${str(r.Flat)},"FlatOrder":${num(r.FlatOrder)},"AreaM2":${num(r.AreaM2)},` +
  `"ClientCode":${str(r.ClientCode)},"Kinds":[${r.Kinds.map(kind).join(',')}],"Published":${publication(r.Published)}}`;

const nullableFigure = (f: StatementFigure | null) => (f === null ? 'null' : figure(f));

const occupancyKind = (k: OccupancyKindFigures) =>
  `{"Kind":${str(k.Kind)},"Unit":${str(k.Unit)},"Current":${figure(k.Current)},"Previous":${nullableFigure(k.Previous)},` +
  `"PreviousMissing":${str(k.PreviousMissing)},"LastYear":${nullableFigure(k.LastYear)},` +
  `"LastYearMissing":${str(k.LastYearMissing)},"BuildingAverage":${num(k.BuildingAverage)},"Units":${num(k.Units)},` +
  `"Qrad":${num(k.Qrad)},"Overdue":${overdue(k.Overdue)},"LateDeclarations":${stringsOf(k.LateDeclarations)},` +
  `"HeatParts":${heatParts(k.HeatParts)}}`;

const occupancy = (o: FlatOccupancyStatement) =>
  `{"FlatId":${num(o.FlatId)},"OccupancyId":${num(o.OccupancyId)},"ClientCode":${str(o.ClientCode)},` +
  `"Name":${str(o.Name)},"From":${str(o.From)},"Till":${str(o.Till)},"Days":${num(o.Days)},` +
  `"Kinds":[${o.Kinds.map(occupancyKind).join(',')}]}`;

/** GetStatementFigures' answer `{ Month, Rows, Occupancies }` as JSON text. */
export function statementFiguresJson(
  month: string,
  rows: readonly StatementRow[],
  occupancies: readonly FlatOccupancyStatement[],
): JsonText<{ Month: string; Rows: StatementRow[]; Occupancies: FlatOccupancyStatement[] }> {
  return new JsonText(
    `{"Month":${str(month)},"Rows":[${rows.map(row).join(',')}],"Occupancies":[${occupancies.map(occupancy).join(',')}]}`,
  );
}
