import type { AuditEntry, MoveValueRow, OccupantData } from '@rodmenys/contract';
import type { Db } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { AUDIT_ENTRY_COLUMNS } from '../audit/list-audit.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { countingSql } from '../declarations/rows.js';
import { moveValueSql } from '../occupancies/occupancies.js';
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
 * The occupancies' declared readings (docs/declared-readings.md): their declarations, the photos they
 * sent (the stored bytes, in base64) and the notices about them. Keyed by the occupancy, so a
 * neighbour's or predecessor's declaration of the same device is never included.
 */
async function declaredReadings(
  db: Db,
  ids: number[],
): Promise<Pick<OccupantData, 'Declarations' | 'DeclarationPhotos' | 'DeclarationNotices'>> {
  const { rows: declarations } = await db.query<OccupantData['Declarations'][number]>(
    `SELECT x.occupancy_id AS "OccupancyId", x.id AS "Id", x.device_id AS "DeviceId", d.device_code AS "DeviceCode",
            address_label(f) AS "Flat", x.value::float8 AS "Value", iso(x.declared_at) AS "DeclaredAt",
            to_char(x.month, 'YYYY-MM') AS "Month", x.channel AS "Channel", eu.username AS "EnteredBy",
            x.caller_name AS "CallerName", x.caller_phone AS "CallerPhone", x.photo_id AS "PhotoId",
            x.status AS "Status", x.reason AS "Reason", du.username AS "DecidedBy", iso(x.decided_at) AS "DecidedAt",
            x.confirmed AS "Confirmed", x.previous_value::float8 AS "PreviousValue",
            x.plausible_max::float8 AS "PlausibleMax",
            coalesce(x.id = (${countingSql('x.device_id', 'x.month')}), false) AS "Counts"
       FROM declaration x
       JOIN device d ON d.id = x.device_id
       JOIN location f ON f.id = x.location_id
       LEFT JOIN app_user eu ON eu.id = x.entered_by
       LEFT JOIN app_user du ON du.id = x.decided_by
      WHERE x.occupancy_id = ANY ($1::int[])
      ORDER BY x.month, x.declared_at, x.id`,
    [ids],
  );
  const { rows: photos } = await db.query<OccupantData['DeclarationPhotos'][number]>(
    `SELECT occupancy_id AS "OccupancyId", id AS "Id", mime AS "Mime", width AS "Width", height AS "Height",
            iso(created_at) AS "CreatedAt", encode(bytes, 'base64') AS "Base64"
       FROM declaration_photo WHERE occupancy_id = ANY ($1::int[]) ORDER BY created_at, id`,
    [ids],
  );
  // PostgreSQL's base64 breaks lines every 76 characters; the file carries one unbroken string.
  for (const p of photos) p.Base64 = p.Base64.replace(/\n/g, '');
  const { rows: notices } = await db.query<OccupantData['DeclarationNotices'][number]>(
    `SELECT n.occupancy_id AS "OccupancyId", n.kind AS "Kind", d.device_code AS "DeviceCode",
            to_char(n.month, 'YYYY-MM') AS "Month", n.declaration_id AS "DeclarationId", n.channel AS "Channel",
            n.email AS "Email", n.status AS "Status", iso(n.queued_at) AS "QueuedAt", iso(n.sent_at) AS "SentAt",
            n.error AS "Error"
       FROM declaration_notice n JOIN device d ON d.id = n.device_id
      WHERE n.occupancy_id = ANY ($1::int[]) ORDER BY n.month, n.queued_at, n.id`,
    [ids],
  );
  return { Declarations: declarations, DeclarationPhotos: photos, DeclarationNotices: notices };
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
        `SELECT ${moveValueSql(caller)} FROM move_value mv JOIN device d ON d.id = mv.device_id
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

  const declared = await declaredReadings(db, ids);

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
      ...declared,
      AuditEntries: audit,
    };
  });
}
