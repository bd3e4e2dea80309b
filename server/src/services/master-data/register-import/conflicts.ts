import { LOCATION_LEVEL } from '@rodmenys/contract';
import type { Details, Row, RowErrors, RowOccupancy, Stored } from './types.js';
import { keyOf } from './types.js';

/** A flat as the file gives it: the first line that names it, its order and client across its rows. */
export interface FileFlat {
  line: number;
  flatOrder: number | null;
  flatArea: number | null;
  clientCode: string | null;
  /** The occupants the file names (docs/occupancies.md), each from its first line. */
  occupancies: FileOccupancy[];
}

export interface FileOccupancy extends RowOccupancy {
  line: number;
  clientCode: string;
  /** The row's ClientName, the occupant's name when OccupantName is empty. */
  clientName: string | null;
}

/** Days [from, till) with null as open, overlapping. */
export const overlaps = (a: { moveIn: string | null; moveOut: string | null }, b: typeof a): boolean =>
  (a.moveIn === null || b.moveOut === null || a.moveIn < b.moveOut) &&
  (b.moveIn === null || a.moveOut === null || b.moveIn < a.moveOut);

export const sameDetails = (a: Details, b: Details): boolean =>
  a.name === b.name &&
  a.typeCode === b.typeCode &&
  a.typeName === b.typeName &&
  a.categoryCode === b.categoryCode &&
  a.categoryName === b.categoryName;

/**
 * Checks the rows against each other and against the stored records (docs/master-data.md,
 * "What a register row may say"): the details of a code agree across the file; a building
 * has one object and an object one building; a flat has one order and one client; a serial
 * appears once and only on its own device (same place, same type, not removed). Returns the
 * rows without a conflict and the file's flats; the conflicts go to `errors`, by line.
 */
export function checkConflicts(
  rows: Row[],
  stored: Stored,
  errors: RowErrors,
  today: string,
): { good: Row[]; flats: Map<string, FileFlat> } {
  const agree = detailsAgreement(errors);
  const checkObject = objectPerBuilding(stored, errors);
  const flats = new Map<string, FileFlat>();
  const checkFlat = flatAgreement(flats, errors);
  const checkSerial = serialPerDevice(stored, errors);
  const checkDevEui = devEuiPerDevice(stored, errors);
  const good: Row[] = [];
  for (const row of rows) {
    const before = errors.count;
    agree('object', row.object, row.line);
    checkObject(row);
    if (row.client) agree('client', row.client, row.line);
    checkFlat(row);
    checkSerial(row);
    checkDevEui(row);
    if (errors.count === before) good.push(row);
  }
  // A flat with occupants in the file: its client is the occupant of today's.
  for (const flat of flats.values()) {
    const current = flat.occupancies.find(
      (o) => (o.moveIn === null || o.moveIn <= today) && (o.moveOut === null || o.moveOut > today),
    );
    if (flat.occupancies.length) flat.clientCode = current?.clientCode ?? null;
  }
  return { good, flats };
}

/** Details given for a code in the file must agree; the first row decides. */
function detailsAgreement(errors: RowErrors) {
  const seen = new Map<string, { d: Details; line: number }>();
  return (kind: 'object' | 'client', d: Details, line: number) => {
    const key = `${kind}:${d.code}`;
    const first = seen.get(key);
    if (!first) seen.set(key, { d, line });
    else if (!sameDetails(first.d, d)) {
      errors.add(
        line,
        'DETAILS_CONFLICT',
        { code: d.code, line: first.line },
        `${kind === 'object' ? 'Object' : 'Client'} ${d.code} has other details on line ${first.line}`,
      );
    }
  };
}

/** One object per building and one building per object, in the file and in the database. */
function objectPerBuilding(stored: Stored, errors: RowErrors) {
  const objectOfBuilding = new Map<string, { code: string; line: number }>();
  const buildingOfObject = new Map<string, { key: string; line: number }>();
  return (row: Row) => {
    const buildingKey = keyOf(row.address.slice(0, LOCATION_LEVEL.building));
    const o = row.object;
    const fileObject = objectOfBuilding.get(buildingKey);
    const fileBuilding = buildingOfObject.get(o.code);
    const storedObject = stored.objects.get(o.code);
    const storedBuilding = stored.locations.get(buildingKey);
    const storedBuildingObject = storedBuilding && stored.objectsByLocation.get(storedBuilding.id);
    const conflict = (params: Record<string, string | number>, message: string) =>
      errors.add(row.line, 'OBJECT_CONFLICT', { column: 'ObjectCode', ...params }, message);
    if (fileObject && fileObject.code !== o.code) {
      conflict(
        { code: fileObject.code, line: fileObject.line },
        `The building has object ${fileObject.code} on line ${fileObject.line}`,
      );
    } else if (fileBuilding && fileBuilding.key !== buildingKey) {
      conflict(
        { code: o.code, line: fileBuilding.line },
        `Object ${o.code} is another building on line ${fileBuilding.line}`,
      );
    } else if (storedObject && storedObject.locationId !== storedBuilding?.id) {
      conflict(
        { code: o.code, address: storedObject.address },
        `Object ${o.code} is the building ${storedObject.address}`,
      );
    } else if (storedBuildingObject && storedBuildingObject !== o.code) {
      conflict(
        { code: storedBuildingObject, address: row.address.join(', ') },
        `The building already has object ${storedBuildingObject}`,
      );
    }
    objectOfBuilding.set(buildingKey, fileObject ?? { code: o.code, line: row.line });
    buildingOfObject.set(o.code, fileBuilding ?? { key: buildingKey, line: row.line });
  };
}

/** A flat has one order, one area and one client across its rows; an empty cell leaves it to another row. */
function flatAgreement(flats: Map<string, FileFlat>, errors: RowErrors) {
  return (row: Row) => {
    if (row.address.length !== LOCATION_LEVEL.flat) return;
    const flatKey = keyOf(row.address);
    let first = flats.get(flatKey);
    // A row naming an occupant says who lived there when, not who the flat's client is today.
    const clientCode = row.occupancy ? null : (row.client?.code ?? null);
    if (row.occupancy && row.client) {
      const occupancies = first?.occupancies ?? [];
      const o = { ...row.occupancy, line: row.line, clientCode: row.client.code, clientName: row.client.name };
      const same = occupancies.find((x) => x.clientCode === o.clientCode && x.moveIn === o.moveIn);
      const other = same ? undefined : occupancies.find((x) => overlaps(x, o));
      if (other) {
        errors.add(
          row.line,
          'OCCUPANCY_OVERLAP',
          { column: 'MoveIn', from: other.moveIn ?? '…', till: other.moveOut ?? '…', line: other.line },
          `The occupancy overlaps the one on line ${other.line}`,
        );
        return;
      }
      if (!same) occupancies.push(o);
      if (first) first.occupancies = occupancies;
      else {
        first = { line: row.line, flatOrder: row.flatOrder, flatArea: row.flatArea, clientCode, occupancies };
        flats.set(flatKey, first);
        return;
      }
    }
    if (!first) {
      flats.set(flatKey, {
        line: row.line,
        flatOrder: row.flatOrder,
        flatArea: row.flatArea,
        clientCode,
        occupancies: [],
      });
      return;
    }
    if (clientCode !== null && first.clientCode !== null && clientCode !== first.clientCode) {
      errors.add(
        row.line,
        'CLIENT_CONFLICT',
        { column: 'ClientCode', code: first.clientCode, line: first.line },
        `The flat has client ${first.clientCode} on line ${first.line}`,
      );
    }
    if (row.flatOrder !== null && first.flatOrder !== null && row.flatOrder !== first.flatOrder) {
      errors.add(
        row.line,
        'DETAILS_CONFLICT',
        { code: row.address.join(', '), line: first.line },
        `The flat has another order on line ${first.line}`,
      );
    }
    if (row.flatArea !== null && first.flatArea !== null && row.flatArea !== first.flatArea) {
      errors.add(
        row.line,
        'DETAILS_CONFLICT',
        { code: row.address.join(', '), line: first.line },
        `The flat has another area on line ${first.line}`,
      );
    }
    first.clientCode ??= clientCode;
    first.flatArea ??= row.flatArea;
    first.flatOrder ??= row.flatOrder;
  };
}

/** A DevEUI on one device only: once in the file, and not another stored device's (docs/lorawan.md). */
function devEuiPerDevice(stored: Stored, errors: RowErrors) {
  const seen = new Map<string, { line: number; code: string }>();
  return (row: Row) => {
    if (!row.devEui) return;
    const first = seen.get(row.devEui);
    const holder = stored.devEuis.get(row.devEui);
    const used = first ? first : holder !== undefined && holder !== row.deviceCode ? { line: 0, code: holder } : null;
    if (used)
      errors.add(
        row.line,
        'DEV_EUI_USED',
        { column: 'DevEui', devEui: row.devEui, code: used.code, line: used.line },
        `DevEUI ${row.devEui} belongs to device ${used.code}${used.line ? ` (line ${used.line})` : ''}`,
      );
    else seen.set(row.devEui, { line: row.line, code: row.deviceCode });
  };
}

/** A serial once in the file, and only on its own device in the database (serials are never reused). */
function serialPerDevice(stored: Stored, errors: RowErrors) {
  const serials = new Map<string, number>();
  return (row: Row) => {
    const firstLine = serials.get(row.deviceCode);
    const dev = stored.devices.get(row.deviceCode);
    const conflict = (
      code: 'DUPLICATE_SERIAL' | 'DEVICE_REMOVED' | 'SERIAL_USED_ELSEWHERE' | 'DEVICE_TYPE_CHANGED',
      params: Record<string, string | number>,
      message: string,
    ) => errors.add(row.line, code, { column: 'DeviceCode', code: row.deviceCode, ...params }, message);
    if (firstLine !== undefined) {
      conflict('DUPLICATE_SERIAL', { line: firstLine }, `Serial ${row.deviceCode} is already on line ${firstLine}`);
    } else if (dev) {
      if (dev.removed_at !== null) {
        conflict(
          'DEVICE_REMOVED',
          { removedAt: dev.removed_at },
          `Device ${row.deviceCode} was removed on ${dev.removed_at}`,
        );
      } else if (dev.location_id !== stored.locations.get(keyOf(row.address))?.id) {
        conflict(
          'SERIAL_USED_ELSEWHERE',
          { address: dev.address },
          `Serial ${row.deviceCode} belongs to a device at ${dev.address}`,
        );
      } else if (dev.device_type_id !== row.typeId) {
        conflict(
          'DEVICE_TYPE_CHANGED',
          { type: dev.device_type_id },
          `Device ${row.deviceCode} is of type ${dev.device_type_id}`,
        );
      }
    }
    serials.set(row.deviceCode, firstLine ?? row.line);
  };
}
