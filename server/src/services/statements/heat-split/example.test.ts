import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { splitBuildingMonth } from './split.js';
import type { FlatParts, HeatMethod, SplitFlat, SplitResult } from './types.js';

/*
 * docs/heat-method.md's worked examples are this test's data: the method, the building's month and
 * the flats are read from the chapter's tables, split, and every number of its answer tables is
 * compared. A change of the rule or of the chapter that makes them disagree fails here. Each
 * example's tables are marked `<!-- example:name -->` (October), `minimum:` and `summer:`.
 */

const doc = readFileSync(new URL('../../../../../docs/heat-method.md', import.meta.url), 'utf8');

/** The rows of the Markdown table after `<!-- example:name -->`, cells trimmed, header and rule dropped. */
function table(name: string, example = 'example'): string[][] {
  const at = doc.indexOf(`<!-- ${example}:${name} -->`);
  if (at < 0) throw new Error(`no table ${example}:${name}`);
  const lines = doc.slice(at).split('\n').slice(1);
  const rows = lines.slice(
    0,
    lines.findIndex((l) => !l.startsWith('|')),
  );
  return rows.slice(2).map((r) =>
    r
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim()),
  );
}

/** A number as the chapter writes it (thin spaces and commas group thousands; empty: null). */
const num = (s: string) => (s === '' || s === '—' ? null : Number(s.replace(/[ ,\u2009]/g, '')));
const value = (rows: string[][], key: string) => {
  const row = rows.find((r) => r[0] === key);
  if (!row) throw new Error(`no row ${key}`);
  return row[1]!;
};

function example(of = 'example') {
  const p = table('method', of);
  const method: HeatMethod = {
    hotWaterHeat: value(p, 'hotWaterHeat') as HeatMethod['hotWaterHeat'],
    kwhPerM3: num(value(p, 'kwhPerM3'))!,
    circulationNorm: num(value(p, 'circulationNorm'))!,
    hotWaterTemperature: 60,
    districtHeat: true,
    seasons: [{ from: value(p, 'heatingSeason').replace(/ …$/, ''), to: null }],
    commonShare: num(value(p, 'commonShare'))! / 100,
    baseShare: num(value(p, 'baseShare'))! / 100,
    minimumShare: num(value(p, 'minimumShare'))!,
  };
  const b = table('month', of);
  const flats: SplitFlat[] = table('flats', of).map((r) => ({
    id: num(r[0]!)!,
    area: num(r[1]!),
    heating: r[2] === 'allocators' ? 'allocator' : r[2] === 'heat meter' ? 'energy' : null,
    qrad: r[2] === 'allocators' ? num(r[3]!) : null,
    kwh: r[2] === 'heat meter' ? num(r[3]!) : null,
    hotWaterM3: num(r[4]!),
    positionFactor: num(r[5]!) ?? 1,
    circulationClass: num(r[6]!),
  }));
  const seasonStart = method.seasons[0]!.from;
  const month = value(b, 'month');
  const row = (key: string) => b.find((r) => r[0] === key)?.[1];
  const upTo = row(`input meter up to ${seasonStart}, kWh`);
  const hotWaterInput = row('hot-water input meter, m³');
  return {
    method,
    input: {
      month,
      inputKwh: num(value(b, 'input meter, kWh')),
      inputUpTo: new Map(upTo === undefined ? [] : [[seasonStart, num(upTo)]]),
      hotWaterInput: hotWaterInput === undefined ? null : { m3: num(hotWaterInput) },
      hotWaterHeatMeter: null,
      flats,
    },
  };
}

/** An example's building parts and each flat's parts, as its tables say, against the split's answer. */
function expectAnswer(r: SplitResult, of: string) {
  expect(r.status).toBe('split');
  const parts = table('parts', of);
  for (const [k, v] of Object.entries(r.parts!)) expect([k, num(value(parts, k))]).toEqual([k, v]);
  expect(num(value(parts, 'input'))).toBe(r.inputKwh);
  const answer = table('answer', of);
  expect(answer.map((row) => num(row[0]!))).toEqual(r.flats!.map((f) => f.id));
  for (const [i, row] of answer.entries())
    expect(Object.fromEntries(FLAT_COLUMNS.map((c, k) => [c, num(row[k + 1]!)]))).toEqual(
      Object.fromEntries(FLAT_COLUMNS.map((c) => [c, r.flats![i]![c]])),
    );
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

const FLAT_COLUMNS: Array<keyof FlatParts> = [
  'hotWater',
  'circulation',
  'common',
  'noDevice',
  'heatMeter',
  'base',
  'consumption',
  'assigned',
  'space',
  'total',
];

describe('docs/heat-method.md, the worked examples', () => {
  it('October, every step: every number of its answer is what the split computes', () => {
    const { method, input } = example();
    const r = splitBuildingMonth(method, input);
    expectAnswer(r, 'example');
    const balance = table('balance');
    expect(num(value(balance, 'hot water, flats, m³'))).toBe(
      Math.round(input.flats.reduce((a, f) => a + f.hotWaterM3!, 0) * 1000) / 1000,
    );
    expect(num(value(balance, 'hot-water losses, m³'))).toBe(r.hotWaterLossesM3);
    expect(table('periods').map((row) => [row[0], row[1], row[2] === 'yes', num(row[3]!)])).toEqual(
      r.periods.map((s) => [s.from, s.to, s.inSeason, s.inputKwh]),
    );
    // The steps, derived again from the rule's formulas and checked against the parts.
    const steps = table('steps').map((row) => num(row[1]!));
    const qhw = method.kwhPerM3 * input.hotWaterInput!.m3!;
    const before = input.inputUpTo.get('2026-10-15')!;
    const s = input.inputKwh! - before - (qhw * 17) / 31 - ((4 * 80 + 160) * 17) / 31;
    const average = ((1 - method.commonShare) * s) / input.flats.reduce((a, f) => a + f.area!, 0);
    const flat2 = r.flats![1]!;
    expect(steps).toEqual(
      [
        (qhw * 14) / 31,
        (qhw * 17) / 31,
        before - (qhw * 14) / 31,
        (80 * 17) / 31,
        (160 * 17) / 31,
        s,
        average,
        method.minimumShare * average * 48.5,
        flat2.base + flat2.consumption,
      ].map(r3),
    );
    const p = r.parts!;
    expect(r3(s)).toBe(r3(p.common + p.noDevice + p.heatMeter + p.base + p.consumption));
    expect(r3(flat2.base + flat2.consumption + flat2.assigned)).toBe(r3(method.minimumShare * average * 48.5));
  });

  it('the minimum where every flat has a heat meter: the average leaves the remainder out', () => {
    const { method, input } = example('minimum');
    const r = splitBuildingMonth(method, input);
    expectAnswer(r, 'minimum');
    // The steps, derived again from the rule's formulas.
    const area = input.flats.reduce((a, f) => a + f.area!, 0);
    const circulation = input.flats.length * method.circulationNorm;
    const s = input.inputKwh! - circulation;
    const common = method.commonShare * s;
    const h = input.flats.reduce((a, f) => a + f.kwh!, 0);
    const rest = s - common - h;
    const average = (s - common - rest) / area;
    const line = method.minimumShare * average * input.flats[0]!.area!;
    const raise = line - input.flats[0]!.kwh!;
    expect(table('steps', 'minimum').map((row) => num(row[1]!))).toEqual(
      [circulation, s, common, h, rest, average, line, raise, common + rest - raise].map(r3),
    );
    expect(r.flats![0]!.assigned).toBe(r3(raise));
    expect(r3(r.parts!.common)).toBe(r3(common + rest));
  });

  it('a flat heat meter in July: its kWh taken before the circulation; a flat without area splits', () => {
    const { method, input } = example('summer');
    expect(input.flats[2]!.area).toBeNull();
    const r = splitBuildingMonth(method, input);
    expectAnswer(r, 'summer');
    const v = input.flats.reduce((a, f) => a + f.hotWaterM3!, 0);
    const qhw = method.kwhPerM3 * v;
    const meters = input.flats.reduce((a, f) => a + (f.kwh ?? 0), 0);
    const circulation = input.inputKwh! - qhw - meters;
    expect(table('steps', 'summer').map((row) => num(row[1]!))).toEqual(
      [qhw, meters, circulation, circulation / 3].map(r3),
    );
  });
});
