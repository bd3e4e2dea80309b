import type { AuditEntry, MoveValueRow, OccupantData } from '@rodmenys/contract';
import type { Db } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { AUDIT_ENTRY_COLUMNS } from '../audit/list-audit.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { MOVE_VALUE } from '../occupancies/occupancies.js';
import { occupancyStatements } from '../statements/occupancy-figures.js';

type OccupancyOut = OccupantData['Occupancies'][number];

/** At most this many months of statements per occupancy (twenty years). */
const MAX_MONTHS = 240;

/**
 * The occupant of occupancy `id`: that occupancy and the others of the same account under the same
 * name (case aside), the same person in another flat or after a break. An anonymised occupancy is
 * only itself: its name is no longer anyone's.
 */
async function occupantOccupancies(db: Db, id: number): Promise<OccupancyOut[]> {
  const { rows } = await db.query<OccupancyOut>(
    `SELECT o.id AS "Id", o.location_id AS "FlatId", c.code AS "ClientCode", o.name AS "Name",
            o.email AS "Email", o.phone AS "Phone", o.language AS "Language",
            o.move_in::text AS "MoveIn", o.move_out::text AS "MoveOut",
            o.consent_at::text AS "ConsentAt", o.consent_channel AS "ConsentChannel",
            address_label(l) AS "Flat", iso(o.anonymised_at) AS "AnonymisedAt"
       FROM occupancy asked
       JOIN occupancy o ON o.id = asked.id
         OR (asked.anonymised_at IS NULL AND o.anonymised_at IS NULL AND o.client_id = asked.client_id
             AND lower(o.name) = lower(asked.name))
       JOIN client c ON c.id = o.client_id JOIN location l ON l.id = o.location_id
      WHERE asked.id = $1
      ORDER BY o.move_in NULLS FIRST, o.id`,
    [id],
  );
  return rows;
}

/** The ended months an occupancy lived in that have figures (its flat's month ends), oldest first. */
async function occupancyMonths(db: Db, o: OccupancyOut): Promise<string[]> {
  const { rows } = await db.query<{ month: string }>(
    `SELECT to_char(m, 'YYYY-MM') AS month
       FROM (SELECT min(me.month) AS first FROM month_end me JOIN device d ON d.id = me.device_id
              WHERE d.location_id = $1) f,
            generate_series(
              greatest(date_trunc('month', $2::date), f.first),
              least(date_trunc('month', coalesce($3::date - 1, current_date)), date_trunc('month', current_date) - interval '1 month'),
              interval '1 month') AS m
      ORDER BY m DESC LIMIT ${MAX_MONTHS}`,
    [o.FlatId, o.MoveIn, o.MoveOut],
  );
  return rows.map((r) => r.month).reverse();
}

/**
 * An access request (docs/personal-data.md): everything kept about the occupant of occupancy `id`,
 * for group 1, audited as `occupancy.export` (which occupancy, not its content). 404 for an unknown id.
 */
export async function exportOccupantData(db: Db, caller: Caller, id: number): Promise<OccupantData> {
  const occupancies = await occupantOccupancies(db, id);
  if (!occupancies.length) throw notFound('occupancyNotFound');
  const ids = occupancies.map((o) => o.Id);
  const { rows: account } = await db.query<{ id: number; code: string; name: string }>(
    'SELECT c.id, c.code, c.name FROM occupancy o JOIN client c ON c.id = o.client_id WHERE o.id = $1',
    [id],
  );
  const client = account[0]!;

  const moves: OccupantData['Moves'] = [];
  const statements: OccupantData['Statements'] = [];
  for (const o of occupancies) {
    for (const day of [o.MoveIn, o.MoveOut]) {
      if (!day) continue;
      const { rows: values } = await db.query<MoveValueRow>(
        `SELECT ${MOVE_VALUE} FROM move_value mv JOIN device d ON d.id = mv.device_id
           LEFT JOIN app_user u ON u.id = mv.set_by
          WHERE d.location_id = $1 AND mv.day = $2::date ORDER BY d.device_type_id, d.device_code`,
        [o.FlatId, day],
      );
      if (values.length) moves.push({ OccupancyId: o.Id, Day: day, Values: values });
    }
    for (const month of await occupancyMonths(db, o)) {
      const split = await occupancyStatements(db, month, o.FlatId, null);
      const mine = split.Occupancies.find((s) => s.OccupancyId === o.Id);
      if (mine)
        statements.push({
          OccupancyId: o.Id,
          Month: month,
          From: mine.From,
          Till: mine.Till,
          Days: mine.Days,
          Kinds: mine.Kinds,
        });
    }
  }

  const { rows: access } = await db.query<OccupantData['Access'][number]>(
    `SELECT occupancy_id AS "OccupancyId", 'link' AS "Kind", iso(issued_at) AS "IssuedAt", iso(revoked_at) AS "EndedAt"
       FROM occupant_link WHERE occupancy_id = ANY ($1::int[])
     UNION ALL
     SELECT occupancy_id, 'letterCode', iso(issued_at), iso(revoked_at) FROM occupant_letter_code
      WHERE occupancy_id = ANY ($1::int[])
     UNION ALL
     SELECT occupancy_id, 'session', iso(created_at), iso(coalesce(ended_at, CASE WHEN expires_at <= now() THEN expires_at END))
       FROM occupant_session WHERE occupancy_id = ANY ($1::int[])
     ORDER BY 3, 2`,
    [ids],
  );

  const { rows: deliveries } = await db.query<OccupantData['Deliveries'][number]>(
    `SELECT occupancy_id AS "OccupancyId", to_char(month, 'YYYY-MM') AS "Month", version AS "Version",
            channel AS "Channel", email AS "Email", status AS "Status", iso(queued_at) AS "QueuedAt",
            iso(sent_at) AS "SentAt", iso(printed_at) AS "PrintedAt", error AS "Error"
       FROM occupant_delivery WHERE occupancy_id = ANY ($1::int[]) ORDER BY month, version, id`,
    [ids],
  );

  return db.transaction(async (tx) => {
    await recordAudit(tx, {
      actor: caller,
      kind: 'occupancy.export',
      entity: 'occupancy',
      entityId: id,
      before: null,
      after: { Flat: occupancies.find((o) => o.Id === id)!.Flat, Code: client.code, Occupancies: ids },
    });
    const { rows: audit } = await tx.query<AuditEntry>(
      `SELECT ${AUDIT_ENTRY_COLUMNS} FROM audit_log a
        WHERE (a.entity = 'occupancy' AND a.entity_id = ANY ($1::text[])) OR (a.entity = 'client' AND a.entity_id = $2)
        ORDER BY a.at, a.id`,
      [ids.map(String), String(client.id)],
    );
    const { rows: now } = await tx.query<{ at: string }>('SELECT iso(now()) AS at');
    return {
      ExportedAt: now[0]!.at,
      Occupancies: occupancies,
      Account: { ClientCode: client.code, ClientName: client.name },
      Moves: moves,
      Statements: statements,
      Access: access,
      Deliveries: deliveries,
      AuditEntries: audit,
    };
  });
}
