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
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeUser, type Place } from '../../test/factories.js';
import { heatMethod, OCTOBER_2026 } from '../../test/heat-method.js';
import type { Caller } from '../auth/caller.js';
import { refreshMonthEnds } from '../data-quality/refresh-month-ends.js';
import { setBuildingHeatMethod } from '../heat-methods/heat-methods.js';
import { statementDifference } from './difference.js';
import { computeStatements } from './figures.js';
import { publishStatements } from './publish.js';
import { loadStatements } from './snapshots.js';

/*
 * Flats with their own heat meters in the statements (docs/heat-method.md's worked examples): the
 * minimum rule in a building whose flats all have heat meters (October), a flat heat meter that
 * counted 27 kWh in July beside a flat without a floor area, and months published by the earlier
 * rule: they keep what they said, and a republish names each changed part.
 */

const t = useDb();
const NOW = new Date('2026-11-20T10:00:00Z');
const { INSTALLED } = OCTOBER_2026;
const JUN = '2026-06-01T00:00:00+03:00';
const JUL = '2026-07-01T00:00:00+03:00';
const AUG = '2026-08-01T00:00:00+03:00';

const heating = (s: FlatStatement): StatementKindFigures => s.Row.Kinds.find((k) => k.Kind === 'heating')!;
const k3 = (x: number) => Math.round(x * 1000);

/** A flat of `b` with its area, a heat meter or allocators counting `heat` over the month before `to`, and hot water. */
async function flatOf(
  b: Place,
  order: number,
  area: number | null,
  heat: { kwh: number } | { units: number },
  m3: number | null,
  [before, from, to]: readonly [string, string, string],
) {
  const flat = await makeFlat(t.db, b, { name: String(order), order });
  await t.db.query('UPDATE location SET area_m2 = $2 WHERE id = $1', [flat.id, area]);
  const meter = 'kwh' in heat;
  const dev = await makeDevice(t.db, flat, {
    typeId: meter ? DEVICE_TYPE.heatMeter : DEVICE_TYPE.allocator,
    ratingFactor: meter ? null : 1,
    installedAt: INSTALLED,
  });
  await makeReadings(t.db, dev, [
    [before, 900],
    [from, 1000],
    [to, 1000 + (meter ? heat.kwh : heat.units)],
  ]);
  if (m3 !== null) {
    const hot = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.hotWaterMeter, installedAt: INSTALLED });
    await makeReadings(t.db, hot, [
      [before, 90],
      [from, 100],
      [to, 100 + m3],
    ]);
  }
  return flat.id;
}

/** A building with its input meter taking `input` kWh over the month from `from` to `to`. */
async function buildingOf(number: string, input: number, [before, from, to]: readonly [string, string, string]) {
  const b = await makeBuilding(t.db, { city: 'Šiauliai', street: 'Vilniaus g.', number });
  const meter = await makeDevice(t.db, b, { typeId: DEVICE_TYPE.buildingHeatMeter, installedAt: INSTALLED });
  await makeReadings(t.db, meter, [
    [before, 9_000],
    [from, 10_000],
    [to, 10_000 + input],
  ]);
  return b;
}

/**
 * Rewrites the latest publication of `building`'s month as the earlier rule stored it: each flat's
 * heating figure given by `old` (its parts, or null for a month that rule left unbalanced).
 */
async function asPublishedBefore(
  building: number,
  month: string,
  old: (k: StatementKindFigures, i: number) => Partial<StatementKindFigures>,
) {
  const { rows } = await t.db.query<{ id: number; flat_id: number; statement: FlatStatement | string }>(
    `SELECT s.publication_id AS id, s.flat_id, s.statement FROM statement_snapshot s
      WHERE s.publication_id = (SELECT max(id) FROM statement_publication WHERE building_id = $1 AND month = ($2 || '-01')::date)
      ORDER BY s.flat_id`,
    [building, month],
  );
  expect(rows.length).toBeGreaterThan(0);
  for (const [i, r] of rows.entries()) {
    const st = (typeof r.statement === 'string' ? JSON.parse(r.statement) : r.statement) as FlatStatement;
    const kinds = st.Row.Kinds.map((k) => (k.Kind === 'heating' ? { ...k, ...old(k, i) } : k));
    const stored = { ...st, Row: { ...st.Row, Kinds: kinds } };
    await t.db.query('UPDATE statement_snapshot SET statement = $3::jsonb WHERE publication_id = $1 AND flat_id = $2', [
      r.id,
      r.flat_id,
      JSON.stringify(stored),
    ]);
  }
}

describe(`heat-meter flats under a building's heat method (${dbKind()})`, () => {
  let caller: Caller;
  let minimum: { id: number; flats: number[] };
  let summer: { id: number; flats: number[] };
  const load = (id: number, month: string) => computeStatements(t.db, month, { scope: null, parents: [id] });
  const published = async (id: number, month: string) =>
    (await loadStatements(t.db, month, { scope: null, parents: [id] })).map(heating);

  beforeAll(async () => {
    const operator = await makeUser(t.db, { groupId: GROUP.operator });
    caller = { id: operator.id, username: operator.username, groupId: GROUP.operator, scope: null } as Caller;
    // October, in the season: 3,400 kWh; four flats of 50 m² with heat meters at 100, 500, 600, 800 kWh.
    const oct = [OCTOBER_2026.SEP, OCTOBER_2026.OCT, OCTOBER_2026.NOV] as const;
    const a = await buildingOf('4', 3400, oct);
    const aFlats: number[] = [];
    for (const [i, kwh] of [100, 500, 600, 800].entries()) aFlats.push(await flatOf(a, i + 1, 50, { kwh }, null, oct));
    minimum = { id: a.id, flats: aFlats };
    // July, out of the season: 2,000 kWh; 10 m³ of hot water per flat; flat 1's heat meter counted 27 kWh,
    // flats 2 and 3 have allocators (0 units), flat 3 has no floor area.
    const jul = [JUN, JUL, AUG] as const;
    const s = await buildingOf('8', 2000, jul);
    summer = {
      id: s.id,
      flats: [
        await flatOf(s, 1, 50, { kwh: 27 }, 10, jul),
        await flatOf(s, 2, 50, { units: 0 }, 10, jul),
        await flatOf(s, 3, null, { units: 0 }, 10, jul),
      ],
    };
    await refreshMonthEnds(t.db, NOW);
    await setBuildingHeatMethod(
      t.db,
      caller,
      a.id,
      '2026-10',
      heatMethod({ CirculationNorm: 100, CommonShare: 0.1, MinimumShare: 0.7 }),
    );
    await setBuildingHeatMethod(
      t.db,
      caller,
      s.id,
      '2026-07',
      heatMethod({ CirculationNorm: 80, Seasons: [{ From: '2026-10-15', To: null }] }),
    );
  });

  it('the minimum where every flat has a heat meter: the average leaves the remainder out', async () => {
    const k = (await load(minimum.id, '2026-10')).map(heating);
    expect(k[0]!.HeatBalance).toMatchObject({
      Status: 'split',
      InputKwh: 3400,
      CirculationKwh: 400,
      CommonKwh: 1000,
      HeatMeterKwh: 2000,
    });
    // (2,700 − 700) / 200 m² = 10 kWh/m²; the line 0.7 × 10 × 50 = 350: flat 1 is raised by 250.
    expect(k.map((x) => x.HeatParts!.Assigned)).toEqual([250, 0, 0, 0]);
    expect(k.map((x) => x.HeatParts!.Common)).toEqual([187.5, 187.5, 187.5, 187.5]);
    expect(k.map((x) => x.HeatParts!.Total)).toEqual([637.5, 787.5, 887.5, 1087.5]);
    expect(k.map((x) => x.Current.Value)).toEqual([537.5, 687.5, 787.5, 987.5]);
  });

  it("a flat heat meter's 27 kWh in July: every flat gets its hot water and circulation, a flat without area too", async () => {
    const k = (await load(summer.id, '2026-07')).map(heating);
    expect(k[0]!.HeatBalance).toMatchObject({
      Status: 'split',
      Reason: null,
      InputKwh: 2000,
      HotWaterKwh: 1530,
      CirculationKwh: 443,
      HeatMeterKwh: 27,
      HotWaterM3: 30,
    });
    expect(k.map((x) => x.HeatParts!.HotWater)).toEqual([510, 510, 510]);
    expect(k.map((x) => x.HeatParts!.Circulation)).toEqual([147.667, 147.667, 147.666]);
    expect(k.map((x) => x.HeatParts!.Total)).toEqual([684.667, 657.667, 657.666]);
    // Flat 1's heating is its meter's 27 kWh; the allocator flats heated nothing.
    expect(k.map((x) => x.Current.Value)).toEqual([27, 0, 0]);
    expect(k.map((x) => x.Current.Incomplete)).toEqual([false, false, false]);
  });

  it('July published by the earlier rule (unbalanced) keeps saying so; the difference and the republish name every part', async () => {
    await publishStatements(t.db, caller, '2026-07', [summer.id], false, PUBLICATION_FOLLOWERS);
    // As the earlier rule published it: the month unbalanced by flat 1's 27 kWh, no flat with kWh.
    await asPublishedBefore(summer.id, '2026-07', (k) => ({
      KwhMethod: 'heatMethodUnbalanced',
      Current: { ...k.Current, Value: null },
      HeatParts: null,
      HeatBalance: {
        ...k.HeatBalance!,
        Status: 'unbalanced',
        Reason: 'heatMetersAboveSpace',
        InputKwh: null,
        HotWaterKwh: null,
        CirculationKwh: null,
        CommonKwh: null,
        NoDeviceKwh: null,
        HeatMeterKwh: null,
        BaseKwh: null,
        ConsumptionKwh: null,
      },
    }));
    const before = await published(summer.id, '2026-07');
    // Snapshots are not computed again: the publication still says what it said.
    expect(before.map((x) => [x.KwhMethod, x.Current.Value, x.HeatParts])).toEqual([
      ['heatMethodUnbalanced', null, null],
      ['heatMethodUnbalanced', null, null],
      ['heatMethodUnbalanced', null, null],
    ]);
    const live = (await load(summer.id, '2026-07')).map(heating);
    const { Changes } = await statementDifference(t.db, '2026-07', { scope: null, parents: [summer.id] });
    // Every part that differs is named, published (null) against live: hot water, circulation and total
    // for every flat, the heat meter for flat 1 (the parts at 0 live are named too, against null).
    const expected = summer.flats.flatMap((id, i) =>
      HEAT_CHANGE_PARTS.map((p) => `${id}.${p}=${live[i]!.HeatParts![p]}`),
    );
    expect(
      Changes.filter((c) => c.Part)
        .map((c) => `${c.FlatId}.${c.Part}=${c.Live}`)
        .sort(),
    ).toEqual(expected.sort());
    expect(Changes.filter((c) => c.Part).every((c) => c.Published === null)).toBe(true);
    expect(Changes.find((c) => c.FlatId === summer.flats[0] && c.Part === 'HeatMeter')).toMatchObject({ Live: 27 });
    // The heating figure itself: null then, the space heating now.
    expect(Changes.filter((c) => !c.Part && c.Kind === 'heating' && c.Field === 'Current').map((c) => c.Live)).toEqual([
      27, 0, 0,
    ]);
    const again = await publishStatements(t.db, caller, '2026-07', [summer.id], false, PUBLICATION_FOLLOWERS);
    expect(again.Changes.filter((c) => c.Part).length).toBe(expected.length);
    expect((await published(summer.id, '2026-07')).map((x) => x.HeatParts!.Total)).toEqual([684.667, 657.667, 657.666]);
    expect((await statementDifference(t.db, '2026-07', { scope: null, parents: [summer.id] })).Changes).toEqual([]);
  });

  it('October published by the earlier minimum keeps its numbers; the republish names assigned, common and total', async () => {
    await publishStatements(t.db, caller, '2026-10', [minimum.id], false, PUBLICATION_FOLLOWERS);
    // The earlier rule took the average with the remainder: 2,700 / 200 m², the line 0.7 × 13.5 × 50 = 472.5,
    // flat 1 raised by 372.5 out of the remainder, the common part left (1,000 − 372.5) / 4 per flat.
    const raise = k3(0.7 * (2700 / 200) * 50 - 100) / 1000;
    const common = k3((1000 - raise) / 4) / 1000;
    await asPublishedBefore(minimum.id, '2026-10', (k, i) => {
      const p = k.HeatParts!;
      const assigned = i === 0 ? raise : 0;
      const space = (k3(p.HeatMeter) + k3(common) + k3(assigned)) / 1000;
      return {
        Current: { ...k.Current, Value: space },
        HeatParts: {
          ...p,
          Common: common,
          Assigned: assigned,
          Space: space,
          Total: (k3(space) + k3(p.Circulation)) / 1000,
        },
      };
    });
    const before = await published(minimum.id, '2026-10');
    expect(before.map((x) => x.HeatParts!.Assigned)).toEqual([372.5, 0, 0, 0]);
    expect(before.map((x) => x.HeatParts!.Total)).toEqual([729.375, 756.875, 856.875, 1056.875]);
    const { Changes } = await statementDifference(t.db, '2026-10', { scope: null, parents: [minimum.id] });
    const parts = Changes.filter((c) => c.Part).map((c) => [c.FlatId, c.Part, c.Published, c.Live]);
    const [f1, f2, f3, f4] = minimum.flats;
    expect(parts).toEqual([
      [f1, 'Common', 156.875, 187.5],
      [f1, 'Assigned', 372.5, 250],
      [f1, 'Total', 729.375, 637.5],
      [f2, 'Common', 156.875, 187.5],
      [f2, 'Total', 756.875, 787.5],
      [f3, 'Common', 156.875, 187.5],
      [f3, 'Total', 856.875, 887.5],
      [f4, 'Common', 156.875, 187.5],
      [f4, 'Total', 1056.875, 1087.5],
    ]);
    const again = await publishStatements(t.db, caller, '2026-10', [minimum.id], false, PUBLICATION_FOLLOWERS);
    expect(again.Changes.filter((c) => c.Part).map((c) => [c.FlatId, c.Part, c.Published, c.Live])).toEqual(parts);
    expect((await published(minimum.id, '2026-10')).map((x) => x.HeatParts!.Total)).toEqual([
      637.5, 787.5, 887.5, 1087.5,
    ]);
  });
});
