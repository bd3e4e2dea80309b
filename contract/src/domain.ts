/**
 * The domain's vocabulary, written once for the server and the web app: the user groups
 * and what each may do, the location levels and their address names, the device types
 * (docs/domain.md §3, §4, §6). Code compares against these names, never against the
 * numbers (`npm run lint` runs scripts/check-domain-literals.mjs).
 */

/** User groups (docs/domain.md §6). */
export const GROUP = { operator: 1, admin: 2, user: 3 } as const;
export type GroupId = (typeof GROUP)[keyof typeof GROUP];
/** Every group, in order. */
export const GROUPS: readonly GroupId[] = [GROUP.operator, GROUP.admin, GROUP.user];

/** The provider's operators: every location, the operator screens and endpoints. */
export const isOperator = (groupId: number): boolean => groupId === GROUP.operator;
/** A group that sees every location, with no rights needed (its scope is null). */
export const seesEverything = (groupId: number): boolean => groupId === GROUP.operator;
/**
 * Groups that manage other accounts and see the Users screen. Which accounts
 * each may reach is the server's rule (docs/security.md "Accounts").
 */
export const canManageUsers = (groupId: number): boolean => groupId === GROUP.operator || groupId === GROUP.admin;
/** Whether a group may give or take groups 1 and 2 (only operators; docs/domain.md §6). */
export const canChangeGroups = (groupId: number): boolean => groupId === GROUP.operator;
/** The groups a caller of this group may give an account. */
export const assignableGroups = (groupId: number): GroupId[] => (canChangeGroups(groupId) ? [...GROUPS] : [GROUP.user]);
/** Group 2 never acts on a group 1 account (docs/domain.md §6); nobody else is kept from a group here. */
export const mayActOnGroup = (groupId: number, targetGroupId: number): boolean =>
  !(groupId === GROUP.admin && targetGroupId === GROUP.operator);
/** Administrators also see the Qrad values and the flat totals of the readings table (docs/domain.md §9). */
export const seesAdminReadings = (groupId: number): boolean => groupId === GROUP.admin;

/** Location levels, country first (docs/domain.md §3). */
export const LOCATION_LEVEL = { country: 1, county: 2, region: 3, city: 4, street: 5, building: 6, flat: 7 } as const;
export type LocationLevel = (typeof LOCATION_LEVEL)[keyof typeof LOCATION_LEVEL];

/**
 * The address columns of `location`, one per level from the country down: a location
 * keeps its own name and its ancestors' in them (`ADDRESS_COLUMNS[level - 1]` is its own).
 */
export const ADDRESS_COLUMNS = ['country', 'county', 'region', 'city', 'street', 'building', 'flat'] as const;
export type AddressColumn = (typeof ADDRESS_COLUMNS)[number];
/** Address parts by their `location` column, each optional (a filter). */
export type AddressFilter = Partial<Record<AddressColumn, string>>;

/** A building's address levels as the API names them (type-ahead filters, register columns), in tree order. */
export const ADDRESS_LEVELS = ['Country', 'County', 'Region', 'City', 'Street', 'Building'] as const;
export type AddressLevel = (typeof ADDRESS_LEVELS)[number];

/** The address column holding the name of a location of this level. */
export const addressColumnOf = (level: number): AddressColumn => {
  const column = ADDRESS_COLUMNS[level - 1];
  if (!column) throw new RangeError(`no location level ${level}`);
  return column;
};

/** The level of an address level's name (`Building` → 6). */
export const levelOf = (name: AddressLevel): LocationLevel => (ADDRESS_LEVELS.indexOf(name) + 1) as LocationLevel;

/** Device types (docs/domain.md §4). */
export const DEVICE_TYPE = {
  allocator: 1,
  heatMeter: 2,
  coldWaterMeter: 3,
  hotWaterMeter: 4,
  buildingHeatMeter: 11,
} as const;
export type DeviceTypeId = (typeof DEVICE_TYPE)[keyof typeof DEVICE_TYPE];
/** Every device type, in id order. */
export const DEVICE_TYPES: readonly DeviceTypeId[] = Object.values(DEVICE_TYPE);

/**
 * A building-level device's role in the building's heat split (docs/heat-method.md, "Devices"):
 * the hot-water input meter (a hot-water meter on the building, m³) or the hot-water heat meter
 * (a building heat meter on the hot-water heat exchanger, kWh). No role: the plain device.
 */
export const DEVICE_ROLES = ['hotWaterInput', 'hotWaterHeat'] as const;
export type DeviceRole = (typeof DEVICE_ROLES)[number];
/** The device type each role belongs to. */
export const ROLE_TYPE: Record<DeviceRole, DeviceTypeId> = {
  hotWaterInput: DEVICE_TYPE.hotWaterMeter,
  hotWaterHeat: DEVICE_TYPE.buildingHeatMeter,
};
/** The roles a device of this type may have. */
export const rolesOfType = (typeId: number): DeviceRole[] => DEVICE_ROLES.filter((r) => ROLE_TYPE[r] === typeId);

/**
 * A building heat meter is installed on a building, and so is a device with a role (the hot-water
 * input meter); every other type on a flat.
 */
export const isBuildingDevice = (typeId: number, role: DeviceRole | null = null): boolean =>
  typeId === DEVICE_TYPE.buildingHeatMeter || role !== null;
/** The level of the location a device of this type (and role) is installed on. */
export const deviceLevel = (typeId: number, role: DeviceRole | null = null): LocationLevel =>
  isBuildingDevice(typeId, role) ? LOCATION_LEVEL.building : LOCATION_LEVEL.flat;
