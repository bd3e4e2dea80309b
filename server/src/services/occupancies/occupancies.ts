import type {
  FlatOccupancies,
  MoveValueRow,
  OccupancyRow,
  OccupantBody,
  RecordMoveBody,
  UpdateOccupancyBody,
} from '@rodmenys/contract';
import { LOCATION_LEVEL } from '@rodmenys/contract';
import type { Db, Queryable, Tx } from '../../db/db.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { type Actor, recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { inScope } from '../sql.js';
import { parseDay } from '../time.js';
import { accountNameSql } from '../users/account-scope.js';
import { computeMoveValues, dropStaleMoveValues, MOVES_SQL } from './move-values.js';

const OCCUPANCY = `o.id AS "Id", o.location_id AS "FlatId", c.code AS "ClientCode", o.name AS "Name",
  o.email AS "Email", o.phone AS "Phone", o.language AS "Language",
  o.move_in::text AS "MoveIn", o.move_out::text AS "MoveOut",
  o.consent_at::text AS "ConsentAt", o.consent_channel AS "ConsentChannel"`;

/** A moving-day value's columns; who set it as `reader` may see it (docs/security.md, "Names of accounts"). */
export const moveValueSql = (
  reader: Pick<Caller, 'id' | 'groupId'>,
) => `mv.device_id AS "DeviceId", d.device_code AS "DeviceCode", d.device_type_id AS "DeviceTypeId",
  mv.day::text AS "Day", mv.value::float8 AS "Value", mv.source AS "Source", iso(mv.reading_ts) AS "ReadingTime",
  iso(mv.next_ts) AS "NextReadingTime", mv.method AS "Method", mv.reason AS "Reason", ${accountNameSql(reader, 'u')} AS "SetBy",
  mv.previous_value::float8 AS "PreviousValue", mv.previous_source AS "PreviousSource",
  iso(mv.changed_at) AS "ChangedAt", iso(mv.computed_at) AS "ComputedAt"`;

/**
 * A flat's occupants and its moving-day values, for a caller who may see the flat (the
 * flat lies in their scope; docs/occupancies.md). Anyone else, and a location that is not a
 * flat, gets the same 404, which reveals nothing.
 */
export async function getFlatOccupancies(
  db: Queryable,
  scope: number[] | null,
  flatId: number,
  reader: Pick<Caller, 'id' | 'groupId'>,
): Promise<FlatOccupancies> {
  const { rows: flats } = await db.query<{ path: string }>(
    `SELECT address_label(l) AS path FROM location l WHERE l.id = $1 AND l.level = ${LOCATION_LEVEL.flat} AND ${inScope('l', '$2')}`,
    [flatId, scope],
  );
  if (!flats[0]) throw notFound('flatNotFound');
  const { rows: occupancies } = await db.query<OccupancyRow>(
    `SELECT ${OCCUPANCY} FROM occupancy o JOIN client c ON c.id = o.client_id
      WHERE o.location_id = $1 ORDER BY o.move_in NULLS FIRST`,
    [flatId],
  );
  const { rows: values } = await db.query<MoveValueRow>(
    `SELECT ${moveValueSql(reader)} FROM move_value mv JOIN device d ON d.id = mv.device_id
       LEFT JOIN app_user u ON u.id = mv.set_by
      WHERE d.location_id = $1 ORDER BY mv.day, d.device_type_id, d.device_code`,
    [flatId],
  );
  const { rows: moves } = await db.query<{ day: string }>(
    `SELECT day::text AS day FROM (${MOVES_SQL}) m ORDER BY day`,
    [[flatId]],
  );
  return {
    FlatId: flatId,
    Path: flats[0].path,
    Occupancies: occupancies,
    Moves: moves.map((m) => ({ Day: m.day, Values: values.filter((v) => v.Day === m.day) })),
  };
}

/** The audit shape of occupancies by id: the flat's address, the account, the name and the rest. */
export async function readOccupancyAudits(db: Queryable, ids: number[]): Promise<Map<number, Record<string, unknown>>> {
  const { rows } = await db.query<{ id: number; shape: Record<string, unknown> }>(
    `SELECT o.id, json_build_object('Flat', address_label(l), 'Code', c.code, 'Name', o.name, 'Email', o.email,
              'Phone', o.phone, 'Language', o.language, 'MoveIn', o.move_in::text, 'MoveOut', o.move_out::text,
              'ConsentAt', o.consent_at::text, 'ConsentChannel', o.consent_channel) AS shape
       FROM occupancy o JOIN client c ON c.id = o.client_id JOIN location l ON l.id = o.location_id
      WHERE o.id = ANY ($1::int[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.shape]));
}

const readOccupancyAudit = async (db: Queryable, id: number) => (await readOccupancyAudits(db, [id])).get(id) ?? null;

/** The flat, locked for the change (occupancies of one flat are changed one writer at a time); else 404. */
async function lockFlat(tx: Tx, flatId: number): Promise<void> {
  const { rowCount } = await tx.query(
    `SELECT 1 FROM location WHERE id = $1 AND level = ${LOCATION_LEVEL.flat} FOR UPDATE`,
    [flatId],
  );
  if (!rowCount) throw notFound('flatNotFound');
}

/** The client of an account code; an unknown code creates it, named after the occupant (audited). */
async function clientFor(tx: Tx, actor: Actor, code: string, name: string): Promise<number> {
  const { rows } = await tx.query<{ id: number }>('SELECT id FROM client WHERE code = $1', [code]);
  if (rows[0]) return rows[0].id;
  const created = await tx.query<{ id: number }>('INSERT INTO client (code, name) VALUES ($1, $2) RETURNING id', [
    code,
    name,
  ]);
  const id = created.rows[0]!.id;
  await recordAudit(tx, {
    actor,
    kind: 'client.create',
    entity: 'client',
    entityId: id,
    before: null,
    after: { Code: code, Name: name },
  });
  return id;
}

/** The occupant's details, trimmed, with days checked; blank optional text is null. */
function occupant(body: OccupantBody) {
  const code = body.clientCode.trim();
  const name = body.name.trim();
  if (!code) throw badRequest('blank', { field: 'clientCode' }, 'clientCode');
  if (!name) throw badRequest('blank', { field: 'name' }, 'name');
  const opt = (v: string | null | undefined) => v?.trim() || null;
  return {
    code,
    name,
    email: opt(body.email),
    phone: opt(body.phone),
    language: body.language ?? null,
    consentAt: body.consentAt ? parseDay(body.consentAt, 'consentAt') : null,
    consentChannel: body.consentChannel ?? null,
  };
}

/**
 * Keeps the flat's client (what the screens show as the flat's client) the account of the
 * occupancy of today, when there is one.
 */
async function syncFlatClient(tx: Tx, actor: Actor, flatId: number): Promise<void> {
  const { rows } = await tx.query<{ before: string | null; after: string; client_id: number; path: string }>(
    `SELECT (SELECT code FROM client WHERE id = l.client_id) AS before, c.code AS after, c.id AS client_id,
            address_label(l) AS path
       FROM location l
       JOIN occupancy o ON o.location_id = l.id AND coalesce(o.move_in, '-infinity') <= current_date
                       AND coalesce(o.move_out, 'infinity') > current_date
       JOIN client c ON c.id = o.client_id
      WHERE l.id = $1 AND l.client_id IS DISTINCT FROM o.client_id`,
    [flatId],
  );
  const row = rows[0];
  if (!row) return;
  await tx.query('UPDATE location SET client_id = $2 WHERE id = $1', [flatId, row.client_id]);
  await recordAudit(tx, {
    actor,
    kind: 'location.update',
    entity: 'location',
    entityId: flatId,
    before: { Path: row.path, ClientCode: row.before },
    after: { Path: row.path, ClientCode: row.after },
  });
}

/**
 * Records a move in one step (docs/occupancies.md): the occupancy there on `day` ends that day,
 * the new one starts; the flat's client follows; the moving-day values are computed at once. An
 * occupancy starting on or after `day` is refused (409): change that one instead.
 */
export async function recordMove(
  db: Db,
  caller: Caller,
  flatId: number,
  body: RecordMoveBody,
): Promise<FlatOccupancies> {
  const day = parseDay(body.day, 'day');
  const who = occupant(body);
  return db.transaction(async (tx) => {
    await lockFlat(tx, flatId);
    const { rows: future } = await tx.query<{ future: boolean }>('SELECT $1::date > current_date AS future', [day]);
    if (future[0]?.future) throw badRequest('timeInFuture', { field: 'day' }, 'day');
    const { rows: later } = await tx.query<{ move_in: string }>(
      'SELECT move_in::text FROM occupancy WHERE location_id = $1 AND move_in >= $2::date ORDER BY move_in LIMIT 1',
      [flatId, day],
    );
    if (later[0]) throw conflict('occupancyAfterMove', { day: later[0].move_in });
    const { rows: current } = await tx.query<{ id: number }>(
      `SELECT id FROM occupancy WHERE location_id = $1 AND coalesce(move_in, '-infinity') < $2::date
          AND coalesce(move_out, 'infinity') > $2::date`,
      [flatId, day],
    );
    const old = current[0];
    if (old) {
      const before = await readOccupancyAudit(tx, old.id);
      await tx.query('UPDATE occupancy SET move_out = $2::date WHERE id = $1', [old.id, day]);
      await recordAudit(tx, {
        actor: caller,
        kind: 'occupancy.update',
        entity: 'occupancy',
        entityId: old.id,
        before,
        after: await readOccupancyAudit(tx, old.id),
      });
    }
    const clientId = await clientFor(tx, caller, who.code, who.name);
    const { rows: created } = await tx.query<{ id: number }>(
      `INSERT INTO occupancy (location_id, client_id, name, email, phone, language, move_in, consent_at, consent_channel)
       VALUES ($1, $2, $3, $4, $5, $6, $7::date, $8::date, $9) RETURNING id`,
      [flatId, clientId, who.name, who.email, who.phone, who.language, day, who.consentAt, who.consentChannel],
    );
    const id = created[0]!.id;
    await recordAudit(tx, {
      actor: caller,
      kind: 'occupancy.create',
      entity: 'occupancy',
      entityId: id,
      before: null,
      after: await readOccupancyAudit(tx, id),
    });
    await syncFlatClient(tx, caller, flatId);
    await computeMoveValues(tx, { flatIds: [flatId] });
    return getFlatOccupancies(tx, null, flatId, caller);
  });
}

/**
 * Changes an occupancy: its days, account, name, contacts or consent. A period overlapping
 * another occupancy of the flat is refused (409, naming that one's days, never its occupant).
 * The moving-day values follow the new days.
 */
export async function updateOccupancy(
  db: Db,
  caller: Caller,
  id: number,
  body: UpdateOccupancyBody,
): Promise<FlatOccupancies> {
  const who = occupant(body);
  const moveIn = body.moveIn === null ? null : parseDay(body.moveIn, 'moveIn');
  const moveOut = body.moveOut === null ? null : parseDay(body.moveOut, 'moveOut');
  if (moveIn !== null && moveOut !== null && moveOut <= moveIn) throw badRequest('moveOutBeforeMoveIn', {}, 'moveOut');
  return db.transaction(async (tx) => {
    const { rows: found } = await tx.query<{ location_id: number }>('SELECT location_id FROM occupancy WHERE id = $1', [
      id,
    ]);
    if (!found[0]) throw notFound('occupancyNotFound');
    const flatId = found[0].location_id;
    await lockFlat(tx, flatId);
    const { rows: other } = await tx.query<{ move_in: string | null; move_out: string | null }>(
      `SELECT move_in::text, move_out::text FROM occupancy
        WHERE location_id = $1 AND id <> $2
          AND daterange(move_in, move_out, '[)') && daterange($3::date, $4::date, '[)') LIMIT 1`,
      [flatId, id, moveIn, moveOut],
    );
    if (other[0]) throw conflict('occupancyOverlap', { from: other[0].move_in ?? '…', till: other[0].move_out ?? '…' });
    const before = await readOccupancyAudit(tx, id);
    const clientId = await clientFor(tx, caller, who.code, who.name);
    await tx.query(
      `UPDATE occupancy SET client_id = $2, name = $3, email = $4, phone = $5, language = $6, move_in = $7::date,
              move_out = $8::date, consent_at = $9::date, consent_channel = $10 WHERE id = $1`,
      [id, clientId, who.name, who.email, who.phone, who.language, moveIn, moveOut, who.consentAt, who.consentChannel],
    );
    await recordAudit(tx, {
      actor: caller,
      kind: 'occupancy.update',
      entity: 'occupancy',
      entityId: id,
      before,
      after: await readOccupancyAudit(tx, id),
    });
    await syncFlatClient(tx, caller, flatId);
    await dropStaleMoveValues(tx, [flatId]);
    await computeMoveValues(tx, { flatIds: [flatId] });
    return getFlatOccupancies(tx, null, flatId, caller);
  });
}
