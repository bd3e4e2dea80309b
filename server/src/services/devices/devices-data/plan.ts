import type { DataLoadProc } from '@rodmenys/contract';
import type { Queryable } from '../../../db/db.js';
import { badRequest, notFound } from '../../../errors.js';
import type { DayRange } from '../../time.js';
import { PLAN_SQL, type Statement } from './sql.js';

export interface DevicesDataInput {
  deviceTypeId: number;
  range: DayRange;
  /** The caller's scope (null = all). */
  scope: number[] | null;
  /** Subtrees to include (null = the whole scope). */
  parents: number[] | null;
  /** The provider's time zone: days start and end there. */
  timeZone: string;
  now?: Date;
  /** Compute in this many parts at once (default: see index.ts). The answer is the same. */
  parts?: number;
}

/** What the first query finds: the computation, the period's bounds, the buildings and the master-data version. */
export interface Plan {
  proc: DataLoadProc;
  f: Date;
  t: Date;
  /** The selection's buildings in address order with their device counts (0 = devices outside any building). */
  buildings: Array<[number, number]>;
  masterVersion: string;
}

/** The plan statement of a request. */
export const planStatement = (input: DevicesDataInput): Statement => ({
  name: 'plan',
  sql: PLAN_SQL,
  params: [input.deviceTypeId, input.scope, input.parents, input.range.from, input.range.till, input.timeZone],
});

/** Checks the input and plans the computation (null: no device in the selection). Reads only. */
export async function makePlan(db: Queryable, input: DevicesDataInput): Promise<Plan | null> {
  const { sql, params } = planStatement(input);
  const { rows } = await db.query<{
    proc: DataLoadProc | null;
    parents_seen: number;
    f: Date;
    t: Date;
    buildings: Array<[number, number]>;
    master_version: string;
  }>(sql, [...params]);
  const found = rows[0]!;
  if (!found.proc) throw badRequest('unknownDeviceType', { id: String(input.deviceTypeId) }, 'deviceTypeId');
  if (input.parents && found.parents_seen < input.parents.length) throw notFound('locationNotFound');
  if (found.buildings.length === 0) return null;
  const { proc, f, t, buildings, master_version: masterVersion } = found;
  return { proc, f, t, buildings, masterVersion };
}

/** Splits buildings (in order, with their device counts) into up to `parts` runs of about equal device counts. */
export function splitBuildings(buildings: ReadonlyArray<readonly [number, number]>, parts: number): number[][] {
  const total = buildings.reduce((n, [, count]) => n + count, 0);
  const out: number[][] = [[]];
  let done = 0;
  for (const [id, count] of buildings) {
    if (done >= (total * out.length) / parts && out.at(-1)!.length > 0) out.push([]);
    out.at(-1)!.push(id);
    done += count;
  }
  return out;
}

/**
 * Plans of recent selections, kept under their master-data version: a plan
 * depends only on the master data (which devices, in which buildings, in what
 * order) and on the request (type, scope, subtrees, days), never on readings.
 */
export class PlanCache {
  static readonly SIZE = 32;
  readonly #plans = new Map<string, Plan>();

  static key(input: DevicesDataInput): string {
    const { deviceTypeId, scope, parents, range, timeZone } = input;
    return JSON.stringify([deviceTypeId, scope, parents, range.from, range.till, timeZone]);
  }

  get(key: string): Plan | undefined {
    const found = this.#plans.get(key);
    if (found) {
      // Most recently used last.
      this.#plans.delete(key);
      this.#plans.set(key, found);
    }
    return found;
  }

  set(key: string, value: Plan): void {
    this.#plans.delete(key);
    this.#plans.set(key, value);
    if (this.#plans.size > PlanCache.SIZE) this.#plans.delete(this.#plans.keys().next().value!);
  }

  delete(key: string): void {
    this.#plans.delete(key);
  }

  get size(): number {
    return this.#plans.size;
  }
}
