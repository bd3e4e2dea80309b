/* The devices-data benchmark's sizes, selections and answer comparison (main.ts runs it). */

import type { ReadingRow } from '@rodmenys/contract';
import type { Db } from '@rodmenys/server/db/db.js';
import { type Dataset, firstBuildings } from '../lib/dataset.js';
import { envInt } from '../lib/stats.js';

export const DEVICES = envInt('BENCH_DEVICES', 13_000);
export const READINGS = envInt('BENCH_READINGS', 20_000_000);
export const RUNS = envInt('BENCH_RUNS', 15);
export const WARMUP = 3;
export const TIME_ZONE = 'Europe/Vilnius';
export const ALLOCATOR = 1;
/** A server configured for its machine rather than PostgreSQL's minimal defaults (128 MB buffers, 4 MB work_mem). */
export const POSTGRES_SETTINGS = { shared_buffers: "'2GB'", work_mem: "'64MB'", effective_cache_size: "'8GB'" };

export const log = (message: string) => console.error(`[bench] ${message}`);

/** The last whole calendar month before today, as days in the provider's zone. */
export function lastMonth(now: Date): { dateFrom: string; dateTill: string; approxStart: Date } {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(now);
  const [y, m] = today.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 2, 1));
  const last = new Date(Date.UTC(y, m - 1, 0));
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return { dateFrom: day(first), dateTill: day(last), approxStart: new Date(first.getTime() - 3 * 3_600_000) };
}

export interface Selection {
  label: string;
  /** Building location ids (null = everything in scope). */
  parents: number[] | null;
  devices: number;
}

/** Whole buildings, in order, until they hold `target` allocators. */
export function selectBuildings(dataset: Dataset, target: number): Selection {
  return { label: target.toLocaleString('en-US'), ...firstBuildings(dataset, target, ALLOCATOR) };
}

export interface Answer {
  TimeFrom: string | null;
  TimeTill: string | null;
  from: number | null;
  till: number | null;
  diff: number | null;
  flat: number | null;
}

export async function periodBounds(db: Db, dateFrom: string, dateTill: string): Promise<[Date, Date]> {
  const { rows } = await db.query<{ f: Date; t: Date }>(
    `SELECT ($1::date::timestamp AT TIME ZONE $3) AS f, (($2::date + 1)::timestamp AT TIME ZONE $3) AS t`,
    [dateFrom, dateTill, TIME_ZONE],
  );
  return [rows[0]!.f, rows[0]!.t];
}

export const fromHttp = (r: ReadingRow): Answer => ({
  TimeFrom: r.TimeFrom,
  TimeTill: r.TimeTill,
  from: r.UnitsForHCAFrom ?? r.EnergyFrom ?? r.VolumeFrom ?? null,
  till: r.UnitsForHCATill ?? r.EnergyTill ?? r.VolumeTill ?? null,
  diff: r.Difference,
  flat: r.FlatDifference,
});

/** Devices whose answers differ (order included), as "id: field a != b" lines. */
export function compare(a: Array<{ DeviceId: number } & Answer>, b: Array<{ DeviceId: number } & Answer>): string[] {
  const diffs: string[] = [];
  if (a.length !== b.length) diffs.push(`row count ${a.length} != ${b.length}`);
  const close = (x: unknown, y: unknown) =>
    x === y || (typeof x === 'number' && typeof y === 'number' && Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x)));
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    for (const key of ['DeviceId', 'TimeFrom', 'TimeTill', 'from', 'till', 'diff', 'flat'] as const) {
      if (!close(x[key], y[key])) diffs.push(`row ${i} device ${x.DeviceId}: ${key} ${x[key]} != ${y[key]}`);
    }
  }
  return diffs;
}
