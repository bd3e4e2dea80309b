import { describe, expect, it } from 'vitest';
import { type ReadingColumn, readingColumns } from './column-sets.js';
import type { DataLoadProc } from './devices.js';

const PROCS: Record<number, DataLoadProc> = { 1: 'allocator', 2: 'energy', 3: 'volume', 4: 'volume', 11: 'energy' };
const columns = (typeId: number, groupId: number) =>
  readingColumns({ Id: typeId, DataLoadProc: PROCS[typeId]! }, groupId);
const numbers = (cols: ReadingColumn[]) => cols.filter((c) => c.kind === 'number' && !c.status).map((c) => c.key);
const keys = (cols: ReadingColumn[]) => cols.map((c) => c.key);

describe('readingColumns', () => {
  it('allocators: units and difference; FlatDifference hidden; Qrad only for administrators', () => {
    for (const group of [1, 3]) {
      expect(numbers(columns(1, group))).toEqual(['UnitsForHCAFrom', 'UnitsForHCATill', 'Difference']);
    }
    expect(numbers(columns(1, 2))).toEqual([
      'UnitsForHCAFrom',
      'QradFrom',
      'UnitsForHCATill',
      'QradTill',
      'Difference',
      'DifferenceQrad',
      'FlatDifferenceQrad',
    ]);
    expect(keys(columns(1, 2))).not.toContain('FlatDifference');
  });

  it('flat heat meters: energy and difference; administrators also see FlatDifference', () => {
    expect(numbers(columns(2, 3))).toEqual(['EnergyFrom', 'EnergyTill', 'Difference']);
    expect(numbers(columns(2, 1))).toEqual(['EnergyFrom', 'EnergyTill', 'Difference']);
    expect(numbers(columns(2, 2))).toEqual(['EnergyFrom', 'EnergyTill', 'Difference', 'FlatDifference']);
  });

  it('water meters (3 and 4) share the volume set with FlatDifference, for every group', () => {
    for (const type of [3, 4]) {
      for (const group of [1, 2, 3]) {
        expect(numbers(columns(type, group))).toEqual(['VolumeFrom', 'VolumeTill', 'Difference', 'FlatDifference']);
      }
    }
  });

  it('building heat meters (11): energy and difference, no flat or client columns', () => {
    for (const group of [1, 2, 3]) {
      const cols = columns(11, group);
      expect(numbers(cols)).toEqual(['EnergyFrom', 'EnergyTill', 'Difference']);
      expect(keys(cols)).not.toContain('Flat');
      expect(keys(cols)).not.toContain('ClientCode');
    }
    expect(keys(columns(3, 3))).toContain('Flat');
  });

  it('every set has the optional time-point pair, hidden at first, beside its reading time', () => {
    for (const type of [1, 2, 3, 4, 11]) {
      for (const group of [1, 2, 3]) {
        const cols = columns(type, group);
        const k = keys(cols);
        const pair = cols.filter((c) => c.timePoint);
        expect(pair.map((c) => c.key)).toEqual(['TimePointFrom', 'TimePointTill']);
        expect(pair.every((c) => !c.visible && c.kind === 'datetime')).toBe(true);
        expect(k.indexOf('TimePointFrom')).toBe(k.indexOf('TimeFrom') + 1);
        expect(k.indexOf('TimePointTill')).toBe(k.indexOf('TimeTill') + 1);
        expect(new Set(k).size).toBe(k.length);
      }
    }
  });

  it('a type added later gets the plain set of its computation', () => {
    expect(numbers(readingColumns({ Id: 12, DataLoadProc: 'volume' }, 2))).toEqual([
      'VolumeFrom',
      'VolumeTill',
      'Difference',
    ]);
  });

  it('every set has the collector status after the device: flags and set-day value shown, set day and last report hidden', () => {
    for (const type of [1, 2, 3, 4, 11]) {
      for (const group of [1, 2, 3]) {
        const cols = columns(type, group);
        const status = cols.filter((c) => c.status);
        expect(status.map((c) => [c.key, c.kind, c.visible])).toEqual([
          ['StatusFlags', 'tags', true],
          ['SetDate', 'text', false],
          ['SetValue', 'number', true],
          ['LastSeen', 'datetime', false],
        ]);
        const at = keys(cols).indexOf('DeviceDescription') + 1;
        expect(cols.slice(at, at + 4)).toEqual(status);
      }
    }
  });

  it('every set ends with its consumption totals, marked as totals, and nothing else is one', () => {
    for (const type of [1, 2, 3, 4, 11]) {
      for (const group of [1, 2, 3]) {
        const cols = columns(type, group);
        const totals = cols.filter((c) => c.total);
        expect(totals.length).toBeGreaterThan(0);
        expect(cols.slice(-totals.length)).toEqual(totals);
        expect(totals.every((c) => c.kind === 'number' && c.visible && /Difference/.test(c.key))).toBe(true);
        expect(cols.filter((c) => /Difference/.test(c.key))).toEqual(totals);
      }
    }
  });
});
