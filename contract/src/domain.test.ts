import { describe, expect, it } from 'vitest';
import {
  ADDRESS_COLUMNS,
  ADDRESS_LEVELS,
  addressColumnOf,
  assignableGroups,
  canChangeGroups,
  canManageUsers,
  DEVICE_TYPE,
  deviceLevel,
  GROUP,
  GROUPS,
  isOperator,
  LOCATION_LEVEL,
  levelOf,
  mayActOnGroup,
  seesAdminReadings,
  seesEverything,
} from './domain.js';

describe('domain vocabulary (docs/domain.md §3, §4, §6)', () => {
  it('names the numbers the database and the API use', () => {
    expect(GROUPS).toEqual([1, 2, 3]);
    expect(Object.values(LOCATION_LEVEL)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(Object.values(DEVICE_TYPE)).toEqual([1, 2, 3, 4, 11]);
    expect(ADDRESS_COLUMNS.map((_, i) => addressColumnOf(i + 1))).toEqual([...ADDRESS_COLUMNS]);
    expect(addressColumnOf(LOCATION_LEVEL.building)).toBe('building');
    expect(() => addressColumnOf(8)).toThrow(RangeError);
    expect(ADDRESS_LEVELS.map(levelOf)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('states what each group may do', () => {
    const table = GROUPS.map((g) => ({
      g,
      everything: seesEverything(g),
      operator: isOperator(g),
      users: canManageUsers(g),
      groups: canChangeGroups(g),
      assignable: assignableGroups(g),
      adminReadings: seesAdminReadings(g),
    }));
    expect(table).toEqual([
      {
        g: 1,
        everything: true,
        operator: true,
        users: true,
        groups: true,
        assignable: [1, 2, 3],
        adminReadings: false,
      },
      { g: 2, everything: false, operator: false, users: true, groups: false, assignable: [3], adminReadings: true },
      { g: 3, everything: false, operator: false, users: false, groups: false, assignable: [3], adminReadings: false },
    ]);
    // Group 2 never acts on a group 1 account; the rest is the server's reach (docs/security.md).
    expect(mayActOnGroup(GROUP.admin, GROUP.operator)).toBe(false);
    expect(mayActOnGroup(GROUP.admin, GROUP.user)).toBe(true);
    expect(mayActOnGroup(GROUP.operator, GROUP.operator)).toBe(true);
  });

  it('puts a building heat meter on a building and every other device on a flat', () => {
    expect(deviceLevel(DEVICE_TYPE.buildingHeatMeter)).toBe(LOCATION_LEVEL.building);
    for (const t of [
      DEVICE_TYPE.allocator,
      DEVICE_TYPE.heatMeter,
      DEVICE_TYPE.coldWaterMeter,
      DEVICE_TYPE.hotWaterMeter,
    ]) {
      expect(deviceLevel(t)).toBe(LOCATION_LEVEL.flat);
    }
  });
});
