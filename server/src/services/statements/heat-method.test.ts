import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DEVICE_TYPE,
  type FlatStatement,
  GROUP,
  HEAT_CHANGE_PARTS,
  type StatementKindFigures,
} from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { PUBLICATION_FOLLOWERS } from '../../publication.js';
import { dbKind, useDb } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeUser } from '../../test/factories.js';
import { heatMethod, OCTOBER_2026 } from '../../test/heat-method.js';
import type { Caller } from '../auth/caller.js';
import { liveBuildingRows } from '../billing/rows.js';
import { refreshMonthEnds } from '../data-quality/refresh-month-ends.js';
import { setBuildingHeatMethod } from '../heat-methods/heat-methods.js';
import { statementDifference } from './difference.js';
import { computeRows, computeStatements } from './figures.js';
import { splitBuildingMonth } from './heat-split/split.js';
import { renderBuildingPdf } from './pdf.js';
import { publishStatements } from './publish.js';
import { statementFiguresJson } from './rows-json.js';
import { loadStatements } from './snapshots.js';

/*
 * The statements of a building with a heat method (docs/heat-method.md): October 2026, the season
 * from the 15th, five flats (a corner flat, a flat heating little, a flat heat meter, allocators
 * that never reported, a towel heater), read from the database and split as the method says.
 */

const NOW = new Date('2026-11-20T10:00:00Z');
const SEP_START = '2026-09-01T00:00:00+03:00';
const OCT_START = '2026-10-01T00:00:00+03:00';
const SEASON_DAY = '2026-10-15T00:00:00+03:00';
const OCT_END = '2026-11-01T00:00:00+02:00';
const t = useDb();

const { MONTH, INSTALLED } = OCTOBER_2026;
const METHOD = heatMethod({
  CirculationNorm: 80,
  Seasons: [{ From: '2026-10-15', To: null }],
  CommonShare: 0.05,
  BaseShare: 0.3,
  MinimumShare: 0.5,
});

/** Flats: name, m², heating (allocator units, heat-meter kWh, or 'never' for allocators that never reported), hot water m³. */
type Heating = { units: number } | { kwh: number } | 'never';
const FLATS: { name: string; area: number; heating: Heating; m3: number }[] = [
  { name: '1', area: 52, heating: { units: 410 }, m3: 3.1 },
  { name: '2', area: 48.5, heating: { units: 35 }, m3: 2.4 },
  { name: '3', area: 61.3, heating: { kwh: 820 }, m3: 4 },
  { name: '4', area: 45, heating: 'never', m3: 2 },
  { name: '5', area: 70.2, heating: { units: 690 }, m3: 5.5 },
];

const heating = (s: FlatStatement): StatementKindFigures => s.Row.Kinds.find((k) => k.Kind === 'heating')!;

/** The building with its readings; October's input 9,870.5 kWh, 1,412.25 of them before the 15th. */
async function building(number: string, input: number) {
  const b = await makeBuilding(t.db, { city: 'Panevėžys', street: 'Respublikos g.', number });
  const meter = await makeDevice(t.db, b, { typeId: DEVICE_TYPE.buildingHeatMeter, installedAt: INSTALLED });
  await makeReadings(t.db, meter, [
    [SEP_START, 9_000],
    [OCT_START, 10_000],
    [SEASON_DAY, 10_000 + (input * 1412.25) / 9870.5],
    [OCT_END, 10_000 + input],
  ]);
  const ids: number[] = [];
  for (const [i, f] of FLATS.entries()) {
    const flat = await makeFlat(t.db, b, { name: f.name, order: i + 1 });
    ids.push(flat.id);
    await t.db.query('UPDATE location SET area_m2 = $2 WHERE id = $1', [flat.id, f.area]);
    const hot = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.hotWaterMeter, installedAt: INSTALLED });
    await makeReadings(t.db, hot, [
      [SEP_START, 99],
      [OCT_START, 100],
      [OCT_END, 100 + f.m3],
    ]);
    const h = f.heating;
    const dev = await makeDevice(t.db, flat, {
      typeId: h !== 'never' && 'kwh' in h ? DEVICE_TYPE.heatMeter : DEVICE_TYPE.allocator,
      ratingFactor: h !== 'never' && 'kwh' in h ? null : 1,
      installedAt: INSTALLED,
    });
    if (h !== 'never')
      await makeReadings(t.db, dev, [
        [SEP_START, 900],
        [OCT_START, 1000],
        [OCT_END, 1000 + ('kwh' in h ? h.kwh : h.units)],
      ]);
  }
  return { id: b.id, flats: ids };
}

describe(`statements by a building's heat method (${dbKind()})`, () => {
  let caller: Caller;
  let b: { id: number; flats: number[] };
  let unbalanced: { id: number; flats: number[] };
  const load = (id: number) => computeStatements(t.db, MONTH, { scope: null, parents: [id] });

  beforeAll(async () => {
    const operator = await makeUser(t.db, { groupId: GROUP.operator });
    caller = { id: operator.id, username: operator.username, groupId: GROUP.operator, scope: null } as Caller;
    b = await building('11', 9870.5);
    unbalanced = await building('13', 500);
    await refreshMonthEnds(t.db, NOW);
    const flats = [{ FlatId: b.flats[0]!, PositionFactor: 1.2, CirculationClass: null }];
    await setBuildingHeatMethod(t.db, caller, b.id, '2026-10', {
      ...METHOD,
      Flats: [...flats, { FlatId: b.flats[4]!, PositionFactor: 1, CirculationClass: 160 }],
    });
    await setBuildingHeatMethod(t.db, caller, unbalanced.id, '2026-10', METHOD);
  });

  it('gives every flat its parts as the split computes them, the flat without a value by area, and they add up to the input', async () => {
    const st = await load(b.id);
    const k = st.map(heating);
    expect(k.map((x) => x.KwhMethod)).toEqual(['heatMethod', 'heatMethod', null, 'heatMethod', 'heatMethod']);
    expect(k[0]!.HeatBalance).toMatchObject({
      Method: 'norm',
      ValidFrom: '2026-10',
      Status: 'split',
      InputKwh: 9870.5,
    });
    // V is the flats' 17 m³ (no hot-water input meter): Q_hw = 51 × 17 = 867, flat 1's 3.1 m³ of it.
    expect(k[0]!.HeatBalance).toMatchObject({ HotWaterKwh: 867, HotWaterM3: 17, HotWaterLossesM3: 0 });
    expect(k[0]!.HeatParts!.HotWater).toBe(158.1);
    // The same answer as the split of the same month, flat by flat.
    const expected = splitBuildingMonth(
      {
        hotWaterHeat: 'norm',
        kwhPerM3: 51,
        circulationNorm: 80,
        hotWaterTemperature: 60,
        districtHeat: true,
        seasons: [{ from: '2026-10-15', to: null }],
        commonShare: 0.05,
        baseShare: 0.3,
        minimumShare: 0.5,
      },
      {
        month: MONTH,
        inputKwh: 9870.5,
        inputUpTo: new Map([['2026-10-15', 1412.25]]),
        hotWaterInput: null,
        hotWaterHeatMeter: null,
        flats: FLATS.map((f, i) => ({
          id: b.flats[i]!,
          area: f.area,
          heating: (f.heating !== 'never' && 'kwh' in f.heating ? 'energy' : 'allocator') as 'energy' | 'allocator',
          qrad: f.heating !== 'never' && 'units' in f.heating ? f.heating.units : null,
          kwh: f.heating !== 'never' && 'kwh' in f.heating ? f.heating.kwh : null,
          hotWaterM3: f.m3,
          positionFactor: i === 0 ? 1.2 : 1,
          circulationClass: i === 4 ? 160 : null,
        })),
      },
    );
    expect(expected.status).toBe('split');
    expect(k.map((x) => x.HeatParts!.Total)).toEqual(expected.flats!.map((f) => f.total));
    expect(k.map((x) => x.Current.Value)).toEqual(expected.flats!.map((f) => f.space));
    // Flat 4's allocators never reported: valued by area, not missing; flat 2 is raised to the minimum.
    expect(k[3]!.HeatParts!.NoDevice).toBeGreaterThan(0);
    expect(k[3]!.Current.Incomplete).toBe(false);
    expect(k[1]!.HeatParts!.Assigned).toBeGreaterThan(0);
    // Flat 3 pays its meter and its common part.
    expect(k[2]!.HeatParts).toMatchObject({ HeatMeter: 820, Consumption: 0 });
    const total = k.reduce((a, x) => a + Math.round(x.HeatParts!.Total * 1000), 0);
    expect(total).toBe(9_870_500);
    // The figures alone are the statements' rows, and their JSON answer the contract's.
    expect(await computeRows(t.db, MONTH, { scope: null, parents: [b.id] })).toEqual(st.map((s) => s.Row));
    const rows = st.map((s) => s.Row);
    expect(statementFiguresJson(MONTH, rows, []).json).toBe(
      JSON.stringify({ Month: MONTH, Rows: rows, Occupancies: [] }),
    );
  });

  it('compares with a month billed by its own rule: September, before the method, by the plain rule', async () => {
    const k = (await load(b.id)).map(heating);
    // September has no version: the plain rule, which flat 4's silent allocators leave without kWh.
    expect(k.map((x) => x.Previous.Value)).toEqual([null, null, 100, null, null]);
    expect(k[0]!.Previous.Incomplete).toBe(true);
    // October, by the method, bills every flat.
    expect(k.every((x) => x.Current.Value !== null)).toBe(true);
  });

  it('an unbalanced month gives no flat kWh and says why', async () => {
    const k = (await load(unbalanced.id)).map(heating);
    expect(k[0]!.HeatBalance).toMatchObject({ Status: 'unbalanced', Reason: 'hotWaterAboveInput', InputKwh: null });
    expect(k.map((x) => x.Current.Value)).toEqual([null, null, null, null, null]);
    expect(k.map((x) => x.HeatParts)).toEqual([null, null, null, null, null]);
    expect(k[0]!.KwhMethod).toBe('heatMethodUnbalanced');
  });

  it('the billing export and the PDF carry the same numbers as the statement', async () => {
    const st = await load(b.id);
    const rows = await liveBuildingRows(t.db, MONTH, b.id);
    const flatRows = rows.filter((r) => r.Line === 'flat' && r.Kind === 'heating');
    expect(flatRows.map((r) => [r.HeatSpaceKwh, r.HotWaterHeatKwh, r.CirculationKwh, r.HeatTotalKwh])).toEqual(
      st.map((s) => {
        const p = heating(s).HeatParts!;
        return [p.Space, p.HotWater, p.Circulation, p.Total];
      }),
    );
    expect(flatRows.map((r) => [r.HeatMethod, r.HeatMethodFrom])).toEqual(st.map(() => ['norm', '2026-10']));
    const building = rows.find((r) => r.Line === 'building')!;
    const balance = heating(st[0]!).HeatBalance!;
    expect(building).toMatchObject({
      HeatInputKwh: 9870.5,
      HotWaterHeatKwh: balance.HotWaterKwh,
      HeatConsumptionKwh: balance.ConsumptionKwh,
      HeatCommonKwh: balance.CommonKwh,
    });
    // The PDF, read back by pdftotext: flat 2's parts and the building's balance.
    const dir = mkdtempSync(path.join(tmpdir(), 'heat-method-pdf-'));
    try {
      const file = path.join(dir, 'statements.pdf');
      const chunks: Buffer[] = [];
      for await (const c of renderBuildingPdf(st, 'en')) chunks.push(Buffer.from(c as Uint8Array));
      writeFileSync(file, Buffer.concat(chunks));
      const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
      // The balance and the flat's parts are drawn as bars, their legends side by side (docs/statements.md).
      const bars = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
      const p = heating(st[1]!).HeatParts!;
      const en = (v: number) => v.toLocaleString('en-GB', { minimumFractionDigits: 3, maximumFractionDigits: 3 });
      expect(bars).toContain(`Your flat: ${en(p.Total)} kWh, the whole bar`);
      expect(bars).toContain(`8 assigned (minimum) ${en(p.Assigned)}`);
      expect(bars).toContain(`The building's input: ${en(9870.5)} kWh, the whole bar`);
      expect(bars).toContain(`1 hot water ${en(balance.HotWaterKwh!)}`);
      // The parameters that produced the figures: the building's, then flat 2's and flat 5's own.
      const params =
        'Parameters of the version from 2026-10: q 51 kWh/m³ · circulation 80 kWh per flat · ' +
        'season 2026-10-15 – … · common 5 % · base 30 % · k_min 0.5';
      expect(text).toContain(`${params} · this flat: position factor 1, circulation by the norm.`);
      expect(text).toContain(`${params} · this flat: position factor 1, circulation 160 kWh.`);
      expect(text).toContain("Heat split by the building's method (norm from 2026-10).");
      // In Lithuanian the method is named in Lithuanian, not by its code.
      const lt = path.join(dir, 'statements-lt.pdf');
      const ltChunks: Buffer[] = [];
      for await (const c of renderBuildingPdf(st, 'lt')) ltChunks.push(Buffer.from(c as Uint8Array));
      writeFileSync(lt, Buffer.concat(ltChunks));
      const ltText = execFileSync('pdftotext', [lt, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
      expect(ltText).toContain('Šiluma padalyta pagal pastato metodą (norma nuo 2026-10).');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('publication freezes the split; a changed parameter changes only the live figures', async () => {
    await publishStatements(t.db, caller, MONTH, [b.id], false, PUBLICATION_FOLLOWERS);
    const published = (await loadStatements(t.db, MONTH, { scope: null, parents: [b.id] })).map(heating);
    await setBuildingHeatMethod(t.db, caller, b.id, '2026-10', { ...METHOD, BaseShare: 0 });
    const live = (await load(b.id)).map(heating);
    const after = (await loadStatements(t.db, MONTH, { scope: null, parents: [b.id] })).map(heating);
    expect(after).toEqual(published);
    expect(live[0]!.HeatParts!.Base).toBe(0);
    expect(published[0]!.HeatParts!.Base).toBeGreaterThan(0);
    // The method's version in the month is frozen with the figures it gave, and its parameters with them:
    // the building's and each flat's own (flat 1's position factor, flat 5's circulation class).
    expect(published[0]!.HeatBalance).toMatchObject({ Method: 'norm', ValidFrom: '2026-10', Status: 'split' });
    // The building's parameters as the test's method gives them (its mode is Method, its flats come per flat).
    const { HotWaterHeat: _mode, Flats: _flats, ...frozen } = METHOD;
    expect(published.map((k) => k.HeatBalance!.Parameters)).toEqual(
      b.flats.map((_, i) => ({
        ...frozen,
        PositionFactor: i === 0 ? 1.2 : 1,
        CirculationClass: i === 4 ? 160 : null,
      })),
    );
    // Live, the version as edited in place: no base share, no flat of its own.
    expect(live.map((k) => k.HeatBalance!.Parameters)).toEqual(
      b.flats.map(() => ({ ...frozen, BaseShare: 0, PositionFactor: 1, CirculationClass: null })),
    );
  });

  it("the difference before a republish lists each flat's changed parts, published against live", async () => {
    // After the test above: published with a 30 % base share, live with none.
    const published = (await loadStatements(t.db, MONTH, { scope: null, parents: [b.id] })).map(heating);
    const live = (await load(b.id)).map(heating);
    const { Changes } = await statementDifference(t.db, MONTH, { scope: null, parents: [b.id] });
    const flat1 = Changes.filter((c) => c.FlatId === b.flats[0] && c.Kind === 'heating');
    // Flat 1's base part went to its consumption part: both listed, each with its two values.
    expect(flat1.find((c) => c.Part === 'Base')).toMatchObject({
      Field: 'Current',
      Published: published[0]!.HeatParts!.Base,
      Live: 0,
    });
    expect(flat1.find((c) => c.Part === 'Consumption')).toMatchObject({
      Published: published[0]!.HeatParts!.Consumption,
      Live: live[0]!.HeatParts!.Consumption,
    });
    // Hot water does not depend on the parameters changed: not listed. The change also dropped the flats'
    // parameters: flat 5's circulation class (160 kWh) gave way to the building's norm (80), its circulation listed.
    expect(Changes.filter((c) => c.Part === 'HotWater')).toEqual([]);
    const circulation = Changes.filter((c) => c.Part === 'Circulation');
    expect(circulation.map((c) => c.FlatId)).toEqual([b.flats[4]]);
    expect(circulation[0]!.Published! - circulation[0]!.Live!).toBeCloseTo((80 * 17) / 31, 2);
    // Every part listed is one whose values differ, and every differing part is listed.
    const parts = HEAT_CHANGE_PARTS;
    const expected = b.flats.flatMap((id, i) =>
      parts.filter((p) => published[i]!.HeatParts![p] !== live[i]!.HeatParts![p]).map((p) => `${id}.${p}`),
    );
    expect(
      Changes.filter((c) => c.Part)
        .map((c) => `${c.FlatId}.${c.Part}`)
        .sort(),
    ).toEqual(expected.sort());
    // The parameters behind the change are named: the building's base share, flat 1's factor, flat 5's class.
    const address = 'Panevėžys, Respublikos g. 11';
    const parameterChanges = [
      { BuildingId: b.id, FlatId: null, Address: address, Parameter: 'BaseShare', Published: 0.3, Live: 0 },
      {
        BuildingId: b.id,
        FlatId: b.flats[0],
        Address: `${address}, 1`,
        Parameter: 'PositionFactor',
        Published: 1.2,
        Live: 1,
      },
      {
        BuildingId: b.id,
        FlatId: b.flats[4],
        Address: `${address}, 5`,
        Parameter: 'CirculationClass',
        Published: 160,
        Live: null,
      },
    ];
    const difference = await statementDifference(t.db, MONTH, { scope: null, parents: [b.id] });
    expect(difference.ParameterChanges).toEqual(parameterChanges);
    // Republishing makes a new version whose answer lists the same parts and parameters.
    const again = await publishStatements(t.db, caller, MONTH, [b.id], false, PUBLICATION_FOLLOWERS);
    expect(again.Changes.filter((c) => c.Part).length).toBe(expected.length);
    expect(again.ParameterChanges).toEqual(parameterChanges);
    expect((await statementDifference(t.db, MONTH, { scope: null, parents: [b.id] })).ParameterChanges).toEqual([]);
  });

  it('a parameter that moves no figure still names itself and makes a new version', async () => {
    // The hot water's temperature is formulaDE's: under `norm` it changes no figure, only the parameters.
    await setBuildingHeatMethod(t.db, caller, b.id, '2026-10', { ...METHOD, BaseShare: 0, HotWaterTemperature: 55 });
    const difference = await statementDifference(t.db, MONTH, { scope: null, parents: [b.id] });
    expect(difference.Changes).toEqual([]);
    expect(difference.ParameterChanges.map((c) => [c.Parameter, c.Published, c.Live])).toEqual([
      ['HotWaterTemperature', 60, 55],
    ]);
    const again = await publishStatements(t.db, caller, MONTH, [b.id], false, PUBLICATION_FOLLOWERS);
    expect([again.Buildings, again.Unchanged, again.ParameterChanges.length]).toEqual([1, 0, 1]);
    const { rows: audit } = await t.db.query<{ after: { ChangedFigures: number; ChangedParameters: number } }>(
      "SELECT after FROM audit_log WHERE kind = 'statement.publish' AND entity_id = $1 ORDER BY id DESC LIMIT 1",
      [String(b.id)],
    );
    expect(audit[0]!.after).toMatchObject({ ChangedFigures: 0, ChangedParameters: 1 });
    const published = (await loadStatements(t.db, MONTH, { scope: null, parents: [b.id] })).map(heating);
    expect(published[0]!.HeatBalance!.Parameters!.HotWaterTemperature).toBe(55);
  });

  it('a publication made before the parameters were frozen reads without them and names no parameter', async () => {
    // The latest version's snapshots as such a publication stored them: the balance without Parameters.
    const { rows } = await t.db.query<{ id: number; flat_id: number; statement: FlatStatement | string }>(
      `SELECT s.publication_id AS id, s.flat_id, s.statement FROM statement_snapshot s
        WHERE s.publication_id = (SELECT max(id) FROM statement_publication WHERE building_id = $1)`,
      [b.id],
    );
    expect(rows.length).toBe(FLATS.length);
    for (const r of rows) {
      const st = (typeof r.statement === 'string' ? JSON.parse(r.statement) : r.statement) as FlatStatement;
      for (const k of st.Row.Kinds)
        if (k.HeatBalance) delete (k.HeatBalance as Partial<typeof k.HeatBalance>).Parameters;
      await t.db.query(
        'UPDATE statement_snapshot SET statement = $3::jsonb WHERE publication_id = $1 AND flat_id = $2',
        [r.id, r.flat_id, JSON.stringify(st)],
      );
    }
    const before = (await loadStatements(t.db, MONTH, { scope: null, parents: [b.id] })).map(heating);
    expect(before.map((k) => k.HeatBalance!.Parameters)).toEqual(b.flats.map(() => null));
    expect(before[0]!.HeatBalance).toMatchObject({ Method: 'norm', ValidFrom: '2026-10', Status: 'split' });
    // A changed share moves figures, which are listed; the parameters behind the old publication are unknown.
    await setBuildingHeatMethod(t.db, caller, b.id, '2026-10', { ...METHOD, BaseShare: 0, CommonShare: 0.1 });
    const difference = await statementDifference(t.db, MONTH, { scope: null, parents: [b.id] });
    expect(difference.Changes.some((c) => c.Part === 'Common')).toBe(true);
    expect(difference.ParameterChanges).toEqual([]);
    const again = await publishStatements(t.db, caller, MONTH, [b.id], false, PUBLICATION_FOLLOWERS);
    expect(again.Buildings).toBe(1);
    const after = (await loadStatements(t.db, MONTH, { scope: null, parents: [b.id] })).map(heating);
    expect(after[0]!.HeatBalance!.Parameters!.CommonShare).toBe(0.1);
  });
});
