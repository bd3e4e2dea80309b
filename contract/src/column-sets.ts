import type { DataLoadProc, ReadingRow } from './devices.js';
import { DEVICE_TYPE, isBuildingDevice, seesAdminReadings } from './domain.js';

/** How a readings column is shown and exported: text, a number (3 decimals) or a date with time. */
export type ColumnKind = 'text' | 'number' | 'datetime' | 'tags';

export type ReadingColumnKey = Exclude<keyof ReadingRow, 'Flags'>;

export interface ReadingColumn {
  key: ReadingColumnKey;
  kind: ColumnKind;
  /**
   * Shown until the user hides it. Reference columns (city, object, client, counter) and the
   * optional time-point pair (the devices' own clock) start hidden and can be switched on.
   */
  visible: boolean;
  /** The time-point pair, TimePointFrom/TimePointTill. */
  timePoint?: true;
  /** What the collector last said about the device: status flags, set-day value, last report. */
  status?: true;
  /** A consumption total (Difference, the flat's total, their Qrad): the last columns, kept in view. */
  total?: true;
}

const text = (key: ReadingColumnKey, visible = true): ReadingColumn => ({ key, kind: 'text', visible });
const num = (key: ReadingColumnKey): ReadingColumn => ({ key, kind: 'number', visible: true });
const time = (key: ReadingColumnKey): ReadingColumn => ({ key, kind: 'datetime', visible: true });
const timePoint = (key: ReadingColumnKey): ReadingColumn => ({
  key,
  kind: 'datetime',
  visible: false,
  timePoint: true,
});

/** The value columns of each set (docs/domain.md §9): what is read at the start, at the end, and the totals. */
interface ValueSet {
  from: ReadingColumnKey[];
  till: ReadingColumnKey[];
  totals: ReadingColumnKey[];
}

function valueSet(typeId: number, proc: DataLoadProc, isAdmin: boolean): ValueSet {
  switch (typeId) {
    case DEVICE_TYPE.allocator:
      // FlatDifference is hidden for allocators; administrators also see Qrad.
      return isAdmin
        ? {
            from: ['UnitsForHCAFrom', 'QradFrom'],
            till: ['UnitsForHCATill', 'QradTill'],
            totals: ['Difference', 'DifferenceQrad', 'FlatDifferenceQrad'],
          }
        : { from: ['UnitsForHCAFrom'], till: ['UnitsForHCATill'], totals: ['Difference'] };
    case DEVICE_TYPE.heatMeter:
      return {
        from: ['EnergyFrom'],
        till: ['EnergyTill'],
        totals: isAdmin ? ['Difference', 'FlatDifference'] : ['Difference'],
      };
    case DEVICE_TYPE.coldWaterMeter:
    case DEVICE_TYPE.hotWaterMeter:
      return { from: ['VolumeFrom'], till: ['VolumeTill'], totals: ['Difference', 'FlatDifference'] };
    case DEVICE_TYPE.buildingHeatMeter:
      return { from: ['EnergyFrom'], till: ['EnergyTill'], totals: ['Difference'] };
    default:
      // A type added later: the plain set of its computation.
      return proc === 'allocator'
        ? { from: ['UnitsForHCAFrom'], till: ['UnitsForHCATill'], totals: ['Difference'] }
        : proc === 'energy'
          ? { from: ['EnergyFrom'], till: ['EnergyTill'], totals: ['Difference'] }
          : { from: ['VolumeFrom'], till: ['VolumeTill'], totals: ['Difference'] };
  }
}

/**
 * The columns of the readings table and its export for a device type and the
 * viewer's group (docs/domain.md §9): the device and its place, its status from the
 * collector, then the start reading (time, optional time point, values), the
 * end reading, and last the consumption totals (docs/device-data.md). A building
 * heat meter (type 11) has no flat or client columns.
 */
export function readingColumns(type: { Id: number; DataLoadProc: DataLoadProc }, groupId: number): ReadingColumn[] {
  const values = valueSet(type.Id, type.DataLoadProc, seesAdminReadings(groupId));
  const onBuilding = isBuildingDevice(type.Id);
  return [
    text('City', false),
    text('Street'),
    text('Building'),
    ...(onBuilding ? [] : [text('Flat')]),
    text('ObjectCode', false),
    ...(onBuilding ? [] : [text('ClientCode', false)]),
    text('DeviceCode'),
    text('CounterCode', false),
    text('DeviceDescription'),
    // The device's latest state from its collector: flags as tags, the set-day reading.
    { key: 'StatusFlags', kind: 'tags', visible: true, status: true },
    { key: 'SetDate', kind: 'text', visible: false, status: true },
    { key: 'SetValue', kind: 'number', visible: true, status: true },
    { key: 'LastSeen', kind: 'datetime', visible: false, status: true },
    time('TimeFrom'),
    timePoint('TimePointFrom'),
    ...values.from.map(num),
    time('TimeTill'),
    timePoint('TimePointTill'),
    ...values.till.map(num),
    // Last, as on a bill: the consumption the user came for (the table keeps these in view).
    ...values.totals.map((key): ReadingColumn => ({ ...num(key), total: true })),
  ];
}
