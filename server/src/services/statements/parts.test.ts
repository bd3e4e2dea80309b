import { DEVICE_TYPE } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { useDb } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings } from '../../test/factories.js';
import { loadParts, type PartKind, type PartProc, type Parts, type PartsShape } from './parts.js';

/*
 * The parts' statement has three shapes (docs/statements.md, "Figures of many flats"): by key per device
 * for a few buildings, by month for many (the device-months with a pair found from the pairs, those without
 * one apart), by month for many months. On one building holding every case they give the same parts.
 */

const t = useDb();

const COMPUTED = ['2025-11', '2026-10', '2026-11'];
const KINDS: PartKind[] = ['heating', 'hotWater', 'coldWater', 'building', 'hotWaterInput', 'hotWaterHeat'];
const PROCS: PartProc[] = ['allocator', 'energy', 'volume'];
const SHAPES: PartsShape[] = ['byKey', 'byMonth', 'byMonthMany'];

/** Month ends of a device: [month, value, source]. */
async function monthEnds(device: number, rows: [string, number, string][]) {
  for (const [month, value, source] of rows)
    await t.db.query('INSERT INTO month_end (device_id, month, value, source) VALUES ($1, $2::date, $3, $4)', [
      device,
      `${month}-01`,
      value,
      source,
    ]);
}

/** Everything a reader of the parts can see: every location's part and `has` of each kind and proc. */
function seen(parts: Parts, locations: number[]) {
  const out: Record<string, unknown> = {};
  for (const loc of locations)
    for (const kind of KINDS)
      for (const proc of PROCS) {
        out[`${loc} ${kind} ${proc}`] = parts.has(loc, kind, proc);
        for (const m of COMPUTED) {
          const p = parts.get(loc, kind, proc, m);
          if (p) out[`${loc} ${kind} ${proc} ${m}`] = p;
        }
      }
  return out;
}

describe('the parts', () => {
  it('are the same by each shape of the statement: pairs, none, installed and removed inside a month, roles, other months only', async () => {
    const building = await makeBuilding(t.db);
    const a = await makeFlat(t.db, building);
    const b = await makeFlat(t.db, building);
    const c = await makeFlat(t.db, building);
    const since = '2025-01-01T00:00:00+02:00';
    const cold = await makeDevice(t.db, a, { typeId: DEVICE_TYPE.coldWaterMeter, installedAt: since });
    await monthEnds(cold, [
      ['2025-10', 10, 'measured'],
      ['2025-11', 12.5, 'measured'],
      ['2026-09', 40, 'measured'],
      ['2026-10', 43, 'interpolated'],
      ['2026-11', 47.25, 'estimated'],
    ]);
    // In service in November 2025 without a month end on either side: no pair, the part has no value.
    const hot = await makeDevice(t.db, a, { typeId: DEVICE_TYPE.hotWaterMeter, installedAt: since });
    await monthEnds(hot, [
      ['2026-09', 5, 'measured'],
      ['2026-10', 6, 'measured'],
      ['2026-11', 8, 'manual'],
    ]);
    // Installed inside November 2026: from its first reading.
    const late = await makeDevice(t.db, b, {
      typeId: DEVICE_TYPE.allocator,
      ratingFactor: 1.5,
      installedAt: '2026-11-10T12:00:00+02:00',
    });
    await makeReadings(t.db, late, [
      ['2026-11-12T10:00:00+02:00', 3],
      ['2026-11-28T10:00:00+02:00', 9],
    ]);
    await monthEnds(late, [['2026-11', 10, 'measured']]);
    // Removed inside October 2026: to its last reading; with another allocator of the flat in service.
    const gone = await makeDevice(t.db, b, {
      typeId: DEVICE_TYPE.allocator,
      ratingFactor: 0.5,
      installedAt: since,
      removedAt: '2026-10-20T12:00:00+03:00',
    });
    await makeReadings(t.db, gone, [
      ['2026-10-05T10:00:00+03:00', 21],
      ['2026-10-18T10:00:00+03:00', 24],
    ]);
    await monthEnds(gone, [
      ['2025-10', 1, 'measured'],
      ['2025-11', 2, 'measured'],
      ['2026-09', 20, 'measured'],
    ]);
    const stays = await makeDevice(t.db, b, { typeId: DEVICE_TYPE.allocator, ratingFactor: 2, installedAt: since });
    await monthEnds(stays, [
      ['2025-10', 100, 'measured'],
      ['2025-11', 101, 'memory'],
      ['2026-09', 130, 'measured'],
      ['2026-10', 134, 'measured'],
      ['2026-11', 140, 'measured'],
    ]);
    // In service only from January to March 2026, none of the months computed.
    await makeDevice(t.db, c, {
      typeId: DEVICE_TYPE.heatMeter,
      installedAt: '2026-01-01T00:00:00+02:00',
      removedAt: '2026-03-31T12:00:00+03:00',
    });
    const meter = await makeDevice(t.db, building, { typeId: DEVICE_TYPE.buildingHeatMeter, installedAt: since });
    await monthEnds(meter, [
      ['2026-10', 1000, 'measured'],
      ['2026-11', 1500, 'measured'],
    ]);
    const input = await makeDevice(t.db, building, {
      typeId: DEVICE_TYPE.hotWaterMeter,
      role: 'hotWaterInput',
      installedAt: since,
    });
    await monthEnds(input, [
      ['2026-10', 70, 'measured'],
      ['2026-11', 75, 'measured'],
    ]);

    const flats = [a.id, b.id, c.id];
    const locations = [...flats, building.id];
    const bySshape = await Promise.all(
      SHAPES.map(async (shape) => seen(await loadParts(t.db, flats, COMPUTED, '2025-11', '2026-11', shape), locations)),
    );
    const [byKey, ...others] = bySshape;
    for (const other of others) expect(other).toEqual(byKey);

    // The cases are there: a part without a value, one from a first reading, one to a last, a role, a group
    // only in another month.
    expect(byKey![`${a.id} hotWater volume 2025-11`]).toMatchObject({ devices: 1, value: null, sources: [] });
    expect(byKey![`${a.id} coldWater volume 2026-11`]).toMatchObject({
      value: 4.25,
      sources: ['estimated', 'interpolated'],
      partial: true,
    });
    expect(byKey![`${b.id} heating allocator 2026-11`]).toMatchObject({ devices: 2, value: 6 + 7, qrad: 12 + 7 * 1.5 });
    expect(byKey![`${b.id} heating allocator 2026-10`]).toMatchObject({ devices: 2, value: 4 + 4, qrad: 8 + 2 });
    expect(byKey![`${building.id} hotWaterInput volume 2026-11`]).toMatchObject({ devices: 1, value: 5 });
    expect(byKey![`${c.id} heating energy`]).toBe(true);
    expect(Object.keys(byKey!).filter((k) => k.startsWith(`${c.id} heating energy 2`))).toEqual([]);
  });
});
