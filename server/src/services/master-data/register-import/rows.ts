import {
  ADDRESS_LEVELS,
  CONSENT_CHANNELS,
  DEVICE_MODEL_MAX_LENGTH,
  DEVICE_ROLES,
  FLAT_AREA_MAX,
  type ImportErrorCode,
  isBuildingDevice,
  isDevEui,
  isDeviceCode,
  OCCUPANT_LANGUAGES,
  READ_METHODS,
  type RegisterColumn,
  rolesOfType,
} from '@rodmenys/contract';
import type { Tx } from '../../../db/db.js';
import type { RegisterRow } from '../register-file.js';
import { dateTime, number, text } from './cells.js';
import type { Details, Row, RowErrors, RowOccupancy } from './types.js';

const MAX_TEXT = 200;

/** Device types by every name a file may give them: id, code, Lithuanian and English name. */
export async function loadDeviceTypes(tx: Tx): Promise<Map<string, number>> {
  const { rows } = await tx.query<{ id: number; code: string; name_lt: string; name_en: string }>(
    'SELECT id, code, name_lt, name_en FROM device_type',
  );
  const index = new Map<string, number>();
  for (const t of rows) {
    for (const k of [String(t.id), t.code, t.name_lt, t.name_en]) index.set(k.trim().toLowerCase(), t.id);
  }
  return index;
}

/** Checks one row's cells on their own; returns null (with the errors recorded) when it is bad. */
export function parseRow(r: RegisterRow, typeIds: Map<string, number>, errors: RowErrors): Row | null {
  const before = errors.count;
  const fail = (code: ImportErrorCode, column: RegisterColumn, message: string, extra: Record<string, string> = {}) =>
    errors.add(r.line, code, { column, ...extra }, message);
  const str = (column: RegisterColumn, required: boolean): string | null => {
    const value = text(r.cells[column]);
    if (value === null && required) fail('REQUIRED', column, `${column} is required`);
    if (value !== null && value.length > MAX_TEXT) {
      errors.add(r.line, 'TOO_LONG', { column, max: MAX_TEXT }, `${column} is longer than ${MAX_TEXT} characters`);
    }
    return value;
  };
  const address = ADDRESS_LEVELS.map((c) => str(c, true));
  const flat = str('Flat', false);
  const typeText = str('DeviceType', true);
  const typeId = typeText === null ? undefined : typeIds.get(typeText.toLowerCase());
  if (typeText !== null && typeId === undefined) {
    fail('UNKNOWN_DEVICE_TYPE', 'DeviceType', `Unknown device type "${typeText}"`, { value: typeText });
  }
  // A building-level role (docs/heat-method.md, "Devices"): one of the type's roles; it may put the device on a building.
  const roleText = text(r.cells.DeviceRole);
  const role =
    roleText === null ? null : (DEVICE_ROLES.find((x) => x.toLowerCase() === roleText.toLowerCase()) ?? null);
  const allowedRoles = typeId === undefined ? DEVICE_ROLES : rolesOfType(typeId);
  if (roleText !== null && (role === null || !allowedRoles.includes(role))) {
    fail('INVALID_CHOICE', 'DeviceRole', `DeviceRole must be one of ${allowedRoles.join(', ')}: "${roleText}"`, {
      value: roleText,
      allowed: allowedRoles.join(', '),
    });
  }
  const onBuilding = typeId !== undefined && isBuildingDevice(typeId, role);
  if (onBuilding && flat !== null) {
    fail('FLAT_MISMATCH', 'Flat', 'A building heat meter belongs to a building: leave Flat empty');
  } else if (typeId !== undefined && !onBuilding && flat === null) {
    fail('REQUIRED', 'Flat', 'Flat is required for a flat device');
  }
  const optionalNumber = (column: RegisterColumn, check: (n: number) => boolean): number | null => {
    const cell = r.cells[column];
    if (text(cell) === null) return null;
    const n = number(cell);
    if (n === undefined || !check(n)) {
      fail('INVALID_NUMBER', column, `${column} is not a valid number: "${text(cell)}"`, { value: text(cell)! });
      return null;
    }
    return n;
  };
  const flatOrder = optionalNumber('FlatOrder', (n) => Number.isInteger(n) && Math.abs(n) < 2 ** 31);
  const flatArea = optionalNumber('FlatArea', (n) => n > 0 && n <= FLAT_AREA_MAX);
  const ratingFactor = optionalNumber('RatingFactor', (n) => n > 0 && n < 1_000_000);
  let installedAt: string | null = null;
  if (text(r.cells.InstalledAt) !== null) {
    installedAt = dateTime(r.cells.InstalledAt) ?? null;
    if (installedAt === null) {
      const value = text(r.cells.InstalledAt)!;
      fail('INVALID_DATE', 'InstalledAt', `InstalledAt is not a date: "${value}"`, { value });
    }
  }
  const details = (prefix: 'Object' | 'Client', required: boolean): Details | null => {
    const code = str(`${prefix}Code`, required);
    const d = {
      code: code ?? '',
      name: str(`${prefix}Name`, false),
      typeCode: str(`${prefix}TypeCode`, false),
      typeName: str(`${prefix}TypeName`, false),
      categoryCode: str(`${prefix}CategoryCode`, false),
      categoryName: str(`${prefix}CategoryName`, false),
    };
    return code === null ? null : d;
  };
  const object = details('Object', true);
  const client = onBuilding ? null : details('Client', false);
  const occupancy = onBuilding ? null : parseOccupancy(r, str, fail);
  if (occupancy && client === null) fail('REQUIRED', 'ClientCode', 'ClientCode is required for an occupant');
  const deviceCode = str('DeviceCode', true);
  const counterCode = str('CounterCode', false);
  // A cell with Alt+Enter, a space or `;` would reach wmbusmeters' files (docs/master-data.md, "A device's serial").
  for (const [column, value] of [
    ['DeviceCode', deviceCode],
    ['CounterCode', counterCode],
  ] as const) {
    if (value !== null && value.length <= MAX_TEXT && !isDeviceCode(value)) {
      fail(
        'INVALID_CODE',
        column,
        `${column} may hold only letters, digits and - . _ / inside, up to 64 characters: ${JSON.stringify(value)}`,
      );
    }
  }
  const description = str('DeviceDescription', false);
  const model = str('Model', false);
  if (model !== null && model.length > DEVICE_MODEL_MAX_LENGTH && model.length <= MAX_TEXT) {
    errors.add(
      r.line,
      'TOO_LONG',
      { column: 'Model', max: DEVICE_MODEL_MAX_LENGTH },
      `Model is longer than ${DEVICE_MODEL_MAX_LENGTH} characters`,
    );
  }
  const devEuiCell = str('DevEui', false);
  if (devEuiCell !== null && devEuiCell.length <= MAX_TEXT && !isDevEui(devEuiCell)) {
    fail('INVALID_DEV_EUI', 'DevEui', `DevEui must be 16 hex digits: ${JSON.stringify(devEuiCell)}`, {
      value: devEuiCell,
    });
  }
  const devEui = devEuiCell === null ? null : devEuiCell.toUpperCase();
  let verifiedOn: string | null = null;
  if (text(r.cells.VerifiedOn) !== null) {
    verifiedOn = dateTime(r.cells.VerifiedOn)?.slice(0, 10) ?? null;
    if (verifiedOn === null) {
      const value = text(r.cells.VerifiedOn)!;
      fail('INVALID_DATE', 'VerifiedOn', `VerifiedOn is not a date: "${value}"`, { value });
    }
  }
  const method = text(r.cells.ReadMethod)?.toLowerCase() ?? null;
  if (method !== null && !(READ_METHODS as readonly string[]).includes(method)) {
    fail('INVALID_CHOICE', 'ReadMethod', `ReadMethod must be one of ${READ_METHODS.join(', ')}: "${method}"`, {
      value: method,
      allowed: READ_METHODS.join(', '),
    });
  }
  if (errors.count > before) return null;
  return {
    line: r.line,
    address: flat === null ? (address as string[]) : [...(address as string[]), flat],
    flatOrder,
    flatArea: flat === null ? null : flatArea,
    object: object!,
    client,
    typeId: typeId!,
    deviceCode: deviceCode!,
    counterCode,
    description,
    ratingFactor,
    model,
    devEui,
    installedAt,
    verifiedOn,
    readMethod: method,
    role,
    occupancy,
  };
}

const OCCUPANCY_COLUMNS = [
  'OccupantName',
  'OccupantEmail',
  'OccupantPhone',
  'OccupantLanguage',
  'MoveIn',
  'MoveOut',
  'ConsentDate',
  'ConsentChannel',
] as const satisfies readonly RegisterColumn[];

/** The occupant a row names, or null when every occupancy cell is empty (docs/occupancies.md). */
function parseOccupancy(
  r: RegisterRow,
  str: (column: RegisterColumn, required: boolean) => string | null,
  fail: (code: ImportErrorCode, column: RegisterColumn, message: string, extra?: Record<string, string>) => void,
): RowOccupancy | null {
  if (OCCUPANCY_COLUMNS.every((c) => text(r.cells[c]) === null)) return null;
  const day = (column: RegisterColumn): string | null => {
    if (text(r.cells[column]) === null) return null;
    const value = dateTime(r.cells[column]);
    if (value === undefined) {
      const raw = text(r.cells[column])!;
      fail('INVALID_DATE', column, `${column} is not a date: "${raw}"`, { value: raw });
      return null;
    }
    return value.slice(0, 10);
  };
  const choice = <T extends string>(column: RegisterColumn, allowed: readonly T[]): T | null => {
    const value = str(column, false)?.toLowerCase() ?? null;
    if (value !== null && !allowed.includes(value as T)) {
      fail('INVALID_CHOICE', column, `${column} must be one of ${allowed.join(', ')}: "${value}"`, {
        value,
        allowed: allowed.join(', '),
      });
      return null;
    }
    return value as T | null;
  };
  const moveIn = day('MoveIn');
  const moveOut = day('MoveOut');
  if (moveIn !== null && moveOut !== null && moveOut <= moveIn) {
    fail('MOVE_OUT_BEFORE_MOVE_IN', 'MoveOut', 'The move-out date must be after the move-in date');
  }
  return {
    name: str('OccupantName', false),
    email: str('OccupantEmail', false),
    phone: str('OccupantPhone', false),
    language: choice('OccupantLanguage', OCCUPANT_LANGUAGES),
    moveIn,
    moveOut,
    consentAt: day('ConsentDate'),
    consentChannel: choice('ConsentChannel', CONSENT_CHANNELS),
  };
}
