// GetDevicesData's readings bounds as they were before the midnight rule (docs/domain.md §5, "The midnight
// rule"): the end reading was the latest with ts < T, and a device with no reading at or before F started
// at the earliest with F < ts < T; flags were measured against T − 1 s. Kept only so `npm run bench` can
// run the part statements with the rule before and after it side by side, in the same run, on the same
// data. Not used by the server.
import type { Db, Queryable } from '@rodmenys/server/db/db.js';
import {
  type DevicesDataInput,
  makePlan,
  splitBuildings,
} from '@rodmenys/server/services/devices/devices-data/plan.js';
import { PART_SQL } from '@rodmenys/server/services/devices/devices-data/sql.js';

/** The product's part statement with its three bounds on T as they were (`ts < T`); throws if they moved. */
function ruleBefore(sql: string): string {
  const bounds = sql.split('ts <= $5').length - 1;
  if (bounds !== 3) throw new Error(`expected 3 bounds "ts <= $5" in the part statement, found ${bounds}`);
  return sql.replaceAll('ts <= $5', 'ts < $5');
}

const PART_SQL_BEFORE = Object.fromEntries(
  Object.entries(PART_SQL).map(([proc, sql]) => [proc, ruleBefore(sql)]),
) as typeof PART_SQL;

/** The parts a request runs, as the service splits them (index.ts): two at once from 1,000 devices on a server. */
const PARALLEL_MIN_DEVICES = 1000;
const PARALLEL_PARTS = 2;

/**
 * GetDevicesData's part statements only (the readings, each row's computed JSON end), with the rule
 * `before` or `after` the midnight rule; the plan is made once by the caller. Returns device id → tail.
 */
export async function runParts(
  db: Queryable | Db,
  input: DevicesDataInput,
  rule: 'before' | 'after',
): Promise<Map<number, string>> {
  const planned = await makePlan(db, input);
  if (!planned) return new Map();
  const devices = planned.buildings.reduce((n, [, count]) => n + count, 0);
  const parts = 'kind' in db && db.kind === 'postgres' && devices >= PARALLEL_MIN_DEVICES ? PARALLEL_PARTS : 1;
  const end = planned.t.getTime() - (rule === 'before' ? 1000 : 0);
  const reference = new Date(Math.min(end, (input.now ?? new Date()).getTime()));
  const sql = (rule === 'before' ? PART_SQL_BEFORE : PART_SQL)[planned.proc];
  const rows = await Promise.all(
    splitBuildings(planned.buildings, parts).map(
      async (buildings) =>
        (
          await db.query<{ id: number; tail: string }>(sql, [
            input.deviceTypeId,
            input.scope,
            input.parents,
            planned.f,
            planned.t,
            buildings,
            reference,
          ])
        ).rows,
    ),
  );
  return new Map(rows.flat().map((r) => [r.id, r.tail]));
}
