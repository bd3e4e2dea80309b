import type { Queryable } from '../db/db.js';
import type { DemoHeat } from './heat-methods.js';

/** Keys of the demo facts in `app_meta`. */
export const META = {
  demo: 'demo',
  seed: 'demo.seed',
  size: 'demo.size',
  intervalHours: 'demo.interval_hours',
  generatedUntil: 'demo.generated_until',
  cases: 'demo.cases',
} as const;

export interface CaseDevice {
  deviceId: number;
  deviceCode: string;
  deviceTypeId: number;
  /** The flat (or building, type 11) the device is in. */
  locationId: number;
}

/**
 * Where the demo's special cases are, all in the one building the demo manager
 * (group 3) may see, which is also inside the demo administrator's (group 2) area.
 */
export interface DemoCases {
  /** The manager's building (location level 6); it has devices of types 1, 2, 3, 4 and 11. */
  buildingId: number;
  objectCode: string;
  /** The administrator's area (a municipality, level 3) holding that building and others. */
  areaId: number;
  /** No readings since `silentSince` (10 days before the data was generated). */
  silent: CaseDevice & { silentSince: string };
  /** Starts again near zero at `resetAt`, in the month of generation: that month's difference is negative. */
  reset: CaseDevice & { resetAt: string };
  /** No readings from `from` until `till` (2.5 days). */
  gap: CaseDevice & { from: string; till: string };
  /** A flat whose devices never reported. */
  neverReported: { locationId: number; deviceIds: number[] };
  /**
   * The buildings split by a heat method (docs/heat-method.md) and their special flats; the refused
   * flat's allocators never reported (valued by area). Absent in a demo seeded before them.
   */
  heat?: DemoHeat;
  /**
   * The declared water meters (docs/declared-readings.md): read by hand, no readings since `since`
   * but their declarations; `late` the months left undeclared (estimated month ends), `doubtful` the
   * declaration whose anomaly is open. Absent in a demo seeded before them or too short.
   */
  declared?: DemoDeclared;
  /** The exchange campaign in the declared meters' building, its visit day planned (seed/campaign.ts). */
  campaignId?: number;
}

/** The demo's declared meters (seed/declared.ts). */
export interface DemoDeclared {
  buildingId: number;
  flats: number[];
  deviceIds: number[];
  since: string;
  /** The declared months, YYYY-MM, oldest first (the current one may be declared too). */
  months: string[];
  /** How many declarations were made. */
  declarations: number;
  late: { deviceId: number; month: string }[];
  doubtful: { deviceId: number; month: string; declarationId: number } | null;
}

/** The demo's special cases, or undefined when the database holds no demo data. */
export async function readDemoCases(db: Queryable): Promise<DemoCases | undefined> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM app_meta WHERE key = $1', [META.cases]);
  return rows[0] ? (JSON.parse(rows[0].value) as DemoCases) : undefined;
}

/** True when the database was filled by the demo generator. */
export async function isDemoDatabase(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM app_meta WHERE key = $1', [META.demo]);
  return rows[0]?.value === 'true';
}
