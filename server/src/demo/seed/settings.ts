import { GROUP, type GroupId } from '@rodmenys/contract';

// The demo's sizes, accounts and summary (docs/ARCHITECTURE.md, src/demo/).

export type DemoSize = 'small' | 'medium' | 'large';

/** Explicit dimensions of a demo data set (the presets are DEMO_SIZES). */
export interface DemoCounts {
  buildings: number;
  /** Flats per building: a fixed number or a [min, max] range. The manager's building gets at least 8. */
  flatsPerBuilding: number | readonly [number, number];
  /** Readings start this many whole months before the current month (a day earlier, for time zones). */
  months: number;
  /** One reading per device every this many hours (a divisor of 24). */
  intervalHours: number;
}

export const DEMO_SIZES: Readonly<Record<DemoSize, DemoCounts>> = {
  small: { buildings: 8, flatsPerBuilding: [5, 12], months: 13, intervalHours: 8 },
  medium: { buildings: 100, flatsPerBuilding: [6, 14], months: 13, intervalHours: 6 },
  // For benchmarks: ~11,000 devices, hourly, ~3 months = 20+ million readings.
  large: { buildings: 150, flatsPerBuilding: [10, 20], months: 3, intervalHours: 1 },
};

export const DEMO_PASSWORD = 'demo1234';

export interface DemoAccount {
  username: string;
  groupId: GroupId;
  firstName: string;
  lastName: string;
  email: string;
}

/** Group 1 sees everything, group 2 one municipality, group 3 one building (DemoCases.buildingId). */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    username: 'operator',
    groupId: GROUP.operator,
    firstName: 'Rasa',
    lastName: 'Petrauskienė',
    email: 'operator@demo.rodmenys.lt',
  },
  {
    username: 'admin',
    groupId: GROUP.admin,
    firstName: 'Tomas',
    lastName: 'Kazlauskas',
    email: 'admin@demo.rodmenys.lt',
  },
  {
    username: 'manager',
    groupId: GROUP.user,
    firstName: 'Eglė',
    lastName: 'Jankauskaitė',
    email: 'manager@demo.rodmenys.lt',
  },
];

export interface SeedDemoOptions {
  size: DemoSize | DemoCounts;
  seed?: number;
  now?: Date;
}

export interface DemoSummary {
  size: string;
  seed: number;
  /** The readings' period (ISO times). */
  from: string;
  until: string;
  intervalHours: number;
  locations: number;
  buildings: number;
  flats: number;
  clients: number;
  devices: number;
  devicesByType: Record<number, number>;
  readings: number;
  accounts: readonly DemoAccount[];
  password: string;
  ms: number;
  /** The building on LoRaWAN (docs/lorawan.md, "In the demo"), when there is one; its readings are in `readings` too. */
  lorawan?: { buildingId: number; connections: number; devices: number; uplinks: number; readings: number };
}

/** The summary and the demo accounts, as the CLI and the server print them. */
export function formatDemoSummary(s: DemoSummary): string {
  const types = Object.entries(s.devicesByType)
    .map(([type, n]) => `type ${type}: ${n}`)
    .join(', ');
  return [
    `Demo data "${s.size}" (seed ${s.seed}) in ${(s.ms / 1000).toFixed(1)} s:`,
    `  ${s.buildings} buildings, ${s.flats} flats, ${s.clients} clients, ${s.locations} locations`,
    `  ${s.devices} devices (${types})`,
    `  ${s.readings} readings every ${s.intervalHours} h from ${s.from} to ${s.until}`,
    ...(s.lorawan
      ? [`  LoRaWAN: building ${s.lorawan.buildingId}, ${s.lorawan.devices} meters, ${s.lorawan.uplinks} uplinks`]
      : []),
    formatDemoAccounts(s.accounts, s.password),
  ].join('\n');
}

/** The demo accounts, one a line, as the server prints them at every start of a demo database. */
export function formatDemoAccounts(accounts: readonly DemoAccount[] = DEMO_ACCOUNTS, password = DEMO_PASSWORD): string {
  return [
    `Demo accounts (password for all: ${password}):`,
    ...accounts.map((a) => `  ${a.username.padEnd(9)} group ${a.groupId}  ${a.firstName} ${a.lastName}`),
  ].join('\n');
}

export class DemoSeedError extends Error {}
