import type { MonthEndListRow, MonthEndRow, SetMonthEndBody } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest, notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { loadSettings } from '../settings.js';
import { inScope } from '../sql.js';
import { accountNameSql } from '../users/account-scope.js';
import { computeMonthEnds, computeMonthEndsBackward } from './month-ends.js';

/** A month end's columns; who set it as `reader` may see it (docs/security.md, "Names of accounts"). */
const row = (reader: Reader) => `me.device_id AS "DeviceId", to_char(me.month, 'YYYY-MM') AS "Month",
  iso((me.month + interval '1 month')::timestamp::timestamptz) AS "MonthEnd",
  me.value::float8 AS "Value", me.source AS "Source", iso(me.reading_ts) AS "ReadingTime",
  iso(me.next_ts) AS "NextReadingTime", me.method AS "Method", me.reason AS "Reason", ${accountNameSql(reader, 'u')} AS "SetBy",
  me.previous_value::float8 AS "PreviousValue", me.previous_source AS "PreviousSource",
  iso(me.changed_at) AS "ChangedAt", iso(me.computed_at) AS "ComputedAt"`;

type Reader = Pick<Caller, 'id' | 'groupId'>;

/** The device, if the caller may see it; else 404. */
async function assertDeviceVisible(db: Queryable, deviceId: number, scope: number[] | null): Promise<void> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM device d JOIN location l ON l.id = d.location_id WHERE d.id = $1 AND ${inScope('l', '$2')}`,
    [deviceId, scope],
  );
  if (!rowCount) throw notFound('deviceNotFound');
}

const monthDay = (month: string) => `${month}-01`;

/**
 * A device's month ends from `from` to `till` (YYYY-MM), oldest first: each value,
 * and each completed month end in its service without one, as missing with the
 * reason (no reading since its installation, or not computed yet). 404 outside the scope.
 */
export async function listMonthEnds(
  db: Queryable,
  input: { deviceId: number; from: string; till: string; scope: number[] | null; reader: Reader },
): Promise<MonthEndListRow[]> {
  if (input.from > input.till) throw badRequest('monthsFromAfterTill', {}, 'from');
  await assertDeviceVisible(db, input.deviceId, input.scope);
  const { rows } = await db.query<MonthEndListRow>(
    `WITH dev AS (
       SELECT d.id, d.installed_at, d.removed_at,
              EXISTS (SELECT FROM reading r WHERE r.device_id = d.id
                        AND r.ts >= coalesce(d.installed_at, '-infinity')
                        AND r.ts <= coalesce(d.removed_at, 'infinity')) AS has_reading
         FROM device d WHERE d.id = $1
     ), months AS (
       SELECT g::date AS month, (g + interval '1 month')::timestamptz AS e
         FROM generate_series($2::date::timestamp, $3::date::timestamp, interval '1 month') g
     )
     SELECT ${row(input.reader).replace('me.device_id AS', 'dev.id AS').replaceAll('me.month', 'm.month').replace('me.source AS', "coalesce(me.source, 'missing') AS")},
            CASE WHEN me.device_id IS NULL THEN CASE WHEN dev.has_reading THEN 'notComputed' ELSE 'noReading' END END
              AS "Missing"
       FROM months m CROSS JOIN dev
       LEFT JOIN month_end me ON me.device_id = dev.id AND me.month = m.month
       LEFT JOIN app_user u ON u.id = me.set_by
      WHERE me.device_id IS NOT NULL
         -- A completed month end in the device's service.
         OR (m.e <= now() AND coalesce(dev.installed_at, '-infinity') < m.e
             AND coalesce(dev.removed_at, 'infinity') >= m.e)
      ORDER BY m.month`,
    [input.deviceId, monthDay(input.from), monthDay(input.till)],
  );
  return rows;
}

/**
 * The month ends of one month that are not measured (memory, interpolated, estimated, manual), for
 * the devices of a type in the scope and subtrees: what the readings screen marks at a period's
 * start or end.
 */
export async function listUnmeasuredMonthEnds(
  db: Queryable,
  input: { month: string; deviceTypeId: number; scope: number[] | null; parents: number[] | null; reader: Reader },
): Promise<MonthEndRow[]> {
  const { rows } = await db.query<MonthEndRow>(
    `SELECT ${row(input.reader)} FROM month_end me
       JOIN device d ON d.id = me.device_id
       JOIN location l ON l.id = d.location_id
       LEFT JOIN app_user u ON u.id = me.set_by
      WHERE me.month = $1::date AND me.source <> 'measured' AND d.device_type_id = $2
        AND ${inScope('l', '$3')} AND ${inScope('l', '$4')}
      ORDER BY me.device_id`,
    [monthDay(input.month), input.deviceTypeId, input.scope, input.parents],
  );
  return rows;
}

/** The month end has passed (a value for a month still running would be a guess about the future). */
async function assertMonthEnded(db: Queryable, month: string): Promise<void> {
  const { rows } = await db.query<{ ended: boolean }>(
    "SELECT ($1::date + interval '1 month')::timestamp::timestamptz <= now() AS ended",
    [monthDay(month)],
  );
  if (!rows[0]!.ended) throw badRequest('monthNotEnded', {}, 'month');
}

/** Sets a month end by hand (source manual, with a reason; audited). The value it replaces is kept as previous. */
export async function setMonthEnd(
  db: Db,
  caller: Caller,
  deviceId: number,
  month: string,
  body: SetMonthEndBody,
): Promise<MonthEndRow> {
  const reason = body.reason.trim();
  if (!reason) throw badRequest('reasonRequired', {}, 'reason');
  return db.transaction(async (tx) => {
    await assertDeviceVisible(tx, deviceId, null);
    await assertMonthEnded(tx, month);
    const before = await readMonthEnd(tx, caller, deviceId, month);
    await tx.query(
      `INSERT INTO month_end AS me (device_id, month, value, source, reason, set_by)
       VALUES ($1, $2::date, $3, 'manual', $4, $5)
       ON CONFLICT (device_id, month) DO UPDATE SET
         value = excluded.value, source = 'manual', reason = excluded.reason, set_by = excluded.set_by,
         reading_ts = NULL, next_ts = NULL, method = NULL, computed_at = now(),
         previous_value = me.value, previous_source = me.source, changed_at = now()`,
      [deviceId, monthDay(month), body.value, reason, caller.id],
    );
    const after = (await readMonthEnd(tx, caller, deviceId, month))!;
    await recordAudit(tx, {
      actor: caller,
      kind: 'monthEnd.set',
      entity: 'monthEnd',
      entityId: `${deviceId}/${month}`,
      before,
      after,
    });
    return after;
  });
}

/** Removes a manual month end (audited) and computes the month end again from the readings. */
export async function clearMonthEnd(db: Db, caller: Caller, deviceId: number, month: string): Promise<void> {
  await db.transaction(async (tx) => {
    await assertDeviceVisible(tx, deviceId, null);
    const before = await readMonthEnd(tx, caller, deviceId, month);
    if (before?.Source !== 'manual') throw notFound('noManualMonthEnd');
    await tx.query('DELETE FROM month_end WHERE device_id = $1 AND month = $2::date', [deviceId, monthDay(month)]);
    await computeMonthEnds(tx, monthDay(month), [deviceId], await loadSettings(tx));
    await computeMonthEndsBackward(tx, monthDay(month), [deviceId]);
    const after = await readMonthEnd(tx, caller, deviceId, month);
    await recordAudit(tx, {
      actor: caller,
      kind: 'monthEnd.clear',
      entity: 'monthEnd',
      entityId: `${deviceId}/${month}`,
      before,
      after,
    });
  });
}

async function readMonthEnd(
  db: Queryable,
  reader: Reader,
  deviceId: number,
  month: string,
): Promise<MonthEndRow | null> {
  const { rows } = await db.query<MonthEndRow>(
    `SELECT ${row(reader)} FROM month_end me LEFT JOIN app_user u ON u.id = me.set_by
      WHERE me.device_id = $1 AND me.month = $2::date`,
    [deviceId, monthDay(month)],
  );
  return rows[0] ?? null;
}
