import { DEVICE_TYPE, type FlatStatement, type StatementKindFigures } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings } from '../../test/factories.js';
import { refreshMonthEnds } from '../data-quality/refresh-month-ends.js';
import { computeRows, computeStatements } from './figures.js';
import { statementFiguresJson } from './rows-json.js';

const NOW = new Date('2026-11-20T10:00:00Z');
const MONTH = '2026-10';
const SEP_END = '2026-09-30T23:00:00+03:00';
const OCT_END = '2026-10-31T22:00:00+02:00';
const INSTALLED = '2025-01-01T00:00:00+02:00';
const t = useDb();

interface Spec {
  /** October's units of allocator flats A and B (rating factor 1: Qrad = units). */
  units: [number, number];
  /** October's kWh of flat H's own heat meter; 'never' for a meter that never reported. */
  ownMeter: number | 'never';
  /** The building meter read on 30 Sep and 5 Nov only: its October end is interpolated. */
  meterInterpolated?: boolean;
}

/**
 * A building with a building heat meter measuring 1,000 kWh in October, allocator flats A and B
 * and flat H with its own heat meter. Returns the flats' October statements by name.
 */
async function building(name: string, spec: Spec): Promise<Map<string, FlatStatement>> {
  const b = await makeBuilding(t.db, { city: 'Šiauliai', street: 'Tilžės g.', number: name });
  const meter = await makeDevice(t.db, b, { typeId: DEVICE_TYPE.buildingHeatMeter });
  await makeReadings(
    t.db,
    meter,
    spec.meterInterpolated
      ? [
          [SEP_END, 10_000],
          // 1,000 kWh over October and the first 5 days of November: the month end is interpolated.
          ['2026-11-05T22:00:00+02:00', 11_000 + 5 * (1000 / 31)],
        ]
      : [
          [SEP_END, 10_000],
          [OCT_END, 11_000],
        ],
  );
  for (const [i, flatName] of ['A', 'B'].entries()) {
    const flat = await makeFlat(t.db, b, { name: flatName, order: i + 1 });
    const alloc = await makeDevice(t.db, flat, {
      typeId: DEVICE_TYPE.allocator,
      ratingFactor: 1,
      installedAt: INSTALLED,
    });
    await makeReadings(t.db, alloc, [
      [SEP_END, 100],
      [OCT_END, 100 + spec.units[i]!],
    ]);
  }
  const h = await makeFlat(t.db, b, { name: 'H', order: 3 });
  const own = await makeDevice(t.db, h, { typeId: DEVICE_TYPE.heatMeter, installedAt: INSTALLED });
  if (spec.ownMeter !== 'never')
    await makeReadings(t.db, own, [
      [SEP_END, 500],
      [OCT_END, 500 + spec.ownMeter],
    ]);
  await refreshMonthEnds(t.db, NOW);
  const statements = await computeStatements(t.db, MONTH, { scope: null, parents: [b.id] });
  // The figures alone are the statements' rows (and so carry the same building line).
  expect(await computeRows(t.db, MONTH, { scope: null, parents: [b.id] })).toEqual(statements.map((s) => s.Row));
  return new Map(statements.map((s) => [s.Row.Flat, s]));
}

const heating = (s: FlatStatement | undefined): StatementKindFigures => s!.Row.Kinds.find((k) => k.Kind === 'heating')!;

describe(`kWh sharing of a building heat meter (${dbKind()})`, () => {
  it('shows the meter’s energy, what was subtracted for which flats, and E; the shares add up to E', async () => {
    const st = await building('1', { units: [30, 70], ownMeter: 200 });
    const [a, b] = [heating(st.get('A')), heating(st.get('B'))];
    expect(a.KwhMethod).toBe('buildingMeterByQrad');
    // E = 1,000 − 200 = 800, shared 30 : 70.
    expect([a.Current.Value, b.Current.Value]).toEqual([240, 560]);
    expect(a.BuildingKwh).toBe(1000);
    expect(a.BuildingLine).toEqual({
      MeterKwh: 1000,
      Subtracted: [{ FlatId: st.get('H')!.Row.FlatId, Flat: 'H', Kwh: 200 }],
      SubtractedKwh: 200,
      AllocatorKwh: 800,
      SharedKwh: 800,
      UnsharedKwh: 0,
    });
    expect(a.Current.Value! + b.Current.Value!).toBe(a.BuildingLine!.AllocatorKwh);
    expect(b.BuildingLine).toEqual(a.BuildingLine);
    // The flat with its own meter is heated by it: no building line there.
    expect(heating(st.get('H'))).toMatchObject({ Unit: 'kWh', KwhMethod: null, BuildingLine: null });
    expect(heating(st.get('H')).Current.Value).toBe(200);
    // In the figures' JSON answer too, in the contract's order.
    const rows = [...st.values()].map((s) => s.Row);
    const { json } = statementFiguresJson(MONTH, rows, []);
    expect(json).toBe(JSON.stringify({ Month: MONTH, Rows: rows, Occupancies: [] }));
  });

  it('gives no flat kWh when a flat’s own heat meter has no value: a missing value is never 0', async () => {
    const st = await building('2', { units: [30, 70], ownMeter: 'never' });
    for (const name of ['A', 'B']) {
      const k = heating(st.get(name));
      expect(k.Unit).toBe('kWh');
      expect(k.KwhMethod).toBe('incompleteBuilding');
      expect(k.Current).toMatchObject({ Value: null, Incomplete: true });
      expect(k.Markers).toContain('incomplete');
      expect(k.BuildingLine).toEqual({
        MeterKwh: 1000,
        Subtracted: [{ FlatId: st.get('H')!.Row.FlatId, Flat: 'H', Kwh: null }],
        SubtractedKwh: null,
        AllocatorKwh: null,
        SharedKwh: null,
        UnsharedKwh: null,
      });
    }
    expect(heating(st.get('H')).Current).toMatchObject({ Value: null, Incomplete: true });
  });

  it('gives 0 kWh, nothing incomplete, and the unshared energy on the building line when the allocators count nothing', async () => {
    const st = await building('3', { units: [0, 0], ownMeter: 200 });
    for (const name of ['A', 'B']) {
      const k = heating(st.get(name));
      expect(k.KwhMethod).toBe('noAllocatorConsumption');
      expect(k.Qrad).toBe(0);
      expect(k.Current).toMatchObject({ Value: 0, Incomplete: false, Partial: false });
      expect(k.Markers).toEqual([]);
      expect(k.BuildingLine).toMatchObject({ MeterKwh: 1000, SubtractedKwh: 200, AllocatorKwh: 800 });
      expect(k.BuildingLine).toMatchObject({ SharedKwh: 0, UnsharedKwh: 800 });
    }
  });

  it('lists what made a kWh share partial among its sources', async () => {
    const st = await building('4', { units: [30, 70], ownMeter: 200, meterInterpolated: true });
    const a = heating(st.get('A'));
    expect(a.KwhMethod).toBe('buildingMeterByQrad');
    expect(a.Current.Partial).toBe(true);
    // The flat's own allocators are measured; the building meter's month end is interpolated.
    expect(a.Current.Sources).toEqual(['interpolated', 'measured']);
    expect(a.Markers).toContain('estimated');
    expect(a.BuildingLine!.MeterKwh).toBe(a.BuildingKwh);
    expect(a.Current.Value! + heating(st.get('B')).Current.Value!).toBeCloseTo(a.BuildingLine!.AllocatorKwh!, 9);
  });
});
