import type { ReadingRow } from '@rodmenys/contract';
import type { Db, Queryable } from '../../../db/db.js';
import { JsonText } from '../../../json-text.js';
import { asciiJson, DeviceTextCache } from './device-text-cache.js';
import { type DevicesDataInput, makePlan, type Plan, PlanCache, planStatement, splitBuildings } from './plan.js';
import { ACCOUNTS_SQL, PART_SQL, type Statement, TEXTS_SQL } from './sql.js';

export type { DevicesDataInput } from './plan.js';
export { splitBuildings } from './plan.js';

/**
 * GetDevicesData (docs/device-data.md, "The readings query"): the files of this folder in the order a
 * request meets them: plan.ts (the first query and the kept plans), sql.ts (the statements, built from
 * fields.ts, the one ordered list of a row's fields), device-text-cache.ts (the kept heads), this file
 * (the parts, the answer, the statements to print).
 */

/**
 * What GetDevicesData keeps between requests, both under the master-data
 * version: the plans of recent selections and each device's kept text.
 * `buildApp` makes one (`app.devicesDataCaches`) and hands it to the routes;
 * a test or a benchmark makes its own. One instance serves the primary and a
 * standby alike: the version is the sum of the committed master-data changes,
 * which a standby replays, so the same version means the same master data.
 */
export class DevicesDataCaches {
  readonly plans = new PlanCache();
  readonly texts = new DeviceTextCache();
}

/**
 * On a PostgreSQL server, a selection of at least this many devices is computed
 * in this many parts at once (whole buildings each, in address order), one
 * connection and so one core each; embedded PGlite has a single connection.
 */
const PARALLEL_MIN_DEVICES = 1000;
const PARALLEL_PARTS = 2;

/** A row of a part: the device, the end of its JSON text, and the master-data version the part saw. */
interface PartRow {
  id: number;
  tail: string;
  master_version: string;
}

/** The part statements of a plan: one per run of buildings, each on its own connection when there are several. */
function partStatements(db: Queryable | Db, input: DevicesDataInput, planned: Plan): Statement[] {
  const devices = planned.buildings.reduce((n, [, count]) => n + count, 0);
  const parts =
    input.parts ?? ('kind' in db && db.kind === 'postgres' && devices >= PARALLEL_MIN_DEVICES ? PARALLEL_PARTS : 1);
  // Flags are measured against the period's end T (its last instant: a reading at T ends it), or now if earlier.
  const reference = new Date(Math.min(planned.t.getTime(), (input.now ?? new Date()).getTime()));
  return splitBuildings(planned.buildings, parts).map((buildings, i) => ({
    name: `part ${i + 1}`,
    sql: PART_SQL[planned.proc],
    params: [input.deviceTypeId, input.scope, input.parents, planned.f, planned.t, buildings, reference],
  }));
}

const runParts = (db: Queryable | Db, statements: readonly Statement[]) =>
  Promise.all(statements.map(async ({ sql, params }) => (await db.query<PartRow>(sql, [...params])).rows));

/** Whether every part saw the plan's master data (a part without rows cannot tell: no). */
const sawPlan = (parts: ReadonlyArray<ReadonlyArray<PartRow>>, planned: Plan) =>
  parts.every((rows) => rows.length > 0 && rows[0]!.master_version === planned.masterVersion);

/**
 * GetDevicesData as the JSON text of its ReadingRow[], which the route sends as
 * it is. Each row is the device's kept text (`caches.texts`, while the master
 * data do not change) followed by the rest (LastSeen, the readings, the flags),
 * which PostgreSQL computes and writes as JSON on every request.
 *
 * A selection asked for again with no master-data change in between reuses
 * its plan (`caches.plans`) and so needs no first query: every part reads the
 * master-data version in its own snapshot, and if one differs from the plan's,
 * the plan is made again and the parts run again. Nothing here writes to the
 * database, so a standby can answer it.
 */
export async function getDevicesDataJson(
  db: Queryable | Db,
  input: DevicesDataInput,
  caches: DevicesDataCaches,
): Promise<JsonText<ReadingRow[]>> {
  const key = PlanCache.key(input);
  const kept = caches.plans.get(key);
  if (kept) {
    const parts = await runParts(db, partStatements(db, input, kept));
    if (sawPlan(parts, kept)) return answer(db, input, caches, kept, parts);
    caches.plans.delete(key);
  }
  const planned = await makePlan(db, input);
  if (!planned) return new JsonText('[]');
  const parts = await runParts(db, partStatements(db, input, planned));
  if (sawPlan(parts, planned)) caches.plans.set(key, planned);
  return answer(db, input, caches, planned, parts);
}

/**
 * The rows of the parts, in order, each as its device's kept text and the end its part wrote; a
 * device whose flat had another account on the period's last day than its current client carries
 * that account's code (`accountsAt`, `withClientCode`).
 */
async function answer(
  db: Queryable,
  input: DevicesDataInput,
  caches: DevicesDataCaches,
  planned: Plan,
  parts: ReadonlyArray<ReadonlyArray<PartRow>>,
) {
  const rows = parts.flat();
  const ids = rows.map((row) => row.id);
  const [kept, accounts] = await Promise.all([
    caches.texts.texts(db, planned.masterVersion, ids),
    accountsAt(db, ids, input.range.till),
  ]);
  const heads = accounts.size === 0 ? kept : kept.map((head, i) => withClientCode(head, accounts.get(ids[i]!)));
  return new JsonText<ReadingRow[]>(
    joinRows(
      heads,
      rows.map((row) => row.tail),
    ),
  );
}

/** The accounts statement of a request: the devices `ids` whose flat had another account on `day`. */
const accountsStatement = (ids: readonly number[], day: string): Statement => ({
  name: 'accounts',
  sql: ACCOUNTS_SQL,
  params: [ids, day],
});

/** For each device of `ids` whose flat had on `day` an account other than its current client: that account's code. */
async function accountsAt(db: Queryable, ids: readonly number[], day: string): Promise<Map<number, string>> {
  const { sql, params } = accountsStatement(ids, day);
  const { rows } = await db.query<{ id: number; code: string }>(sql, [...params]);
  return new Map(rows.map((row) => [row.id, row.code]));
}

const CLIENT_CODE = Buffer.from(',"ClientCode":');
const AFTER_CLIENT_CODE = Buffer.from(',"DeviceCode":');

/**
 * A kept text with `ClientCode`'s value replaced by `code` (unchanged when undefined), written as
 * the kept text writes it (to_json, all ASCII). Inside a JSON string every `"` is escaped, so
 * `,"ClientCode":` and `,"DeviceCode":` (the field after it, fields.ts) occur only as the keys.
 */
export function withClientCode(head: Buffer, code: string | undefined): Buffer {
  if (code === undefined) return head;
  const start = head.indexOf(CLIENT_CODE);
  const end = head.indexOf(AFTER_CLIENT_CODE, start);
  if (start === -1 || end === -1) throw new Error('a kept text without ClientCode followed by DeviceCode');
  return Buffer.concat([
    head.subarray(0, start + CLIENT_CODE.length),
    Buffer.from(asciiJson(JSON.stringify(code)), 'latin1'),
    head.subarray(end),
  ]);
}

/** `[head+tail,…]` as UTF-8: each row's kept text followed by the end its part wrote. */
function joinRows(heads: readonly Buffer[], tails: readonly string[]): Buffer {
  let size = 2 + Math.max(0, tails.length - 1);
  for (let i = 0; i < tails.length; i++) size += heads[i]!.length + Buffer.byteLength(tails[i]!);
  const out = Buffer.allocUnsafe(size);
  let at = out.write('[');
  for (let i = 0; i < tails.length; i++) {
    if (i > 0) at += out.write(',', at);
    at += heads[i]!.copy(out, at);
    at += out.write(tails[i]!, at);
  }
  out.write(']', at);
  return out;
}

/**
 * The statements a request with no kept plan or text runs, in order, with
 * their parameters (print them with sql.ts `printable`): the plan, each part,
 * the kept texts of the devices the parts found (the parts are run to find
 * them; nothing is kept) and their accounts on the period's last day. An empty
 * selection has only the plan.
 */
export async function devicesDataStatements(db: Queryable | Db, input: DevicesDataInput): Promise<Statement[]> {
  const out = [planStatement(input)];
  const planned = await makePlan(db, input);
  if (!planned) return out;
  const parts = partStatements(db, input, planned);
  const ids = (await runParts(db, parts)).flat().map((row) => row.id);
  return [...out, ...parts, { name: 'texts', sql: TEXTS_SQL, params: [ids] }, accountsStatement(ids, input.range.till)];
}
