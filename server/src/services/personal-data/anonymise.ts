import type { Db, Queryable, Tx } from '../../db/db.js';
import { recordAudit } from '../audit/record-audit.js';
import { ANONYMISED, personalValues, scrubAuditLog, scrubKeptColumns } from './scrub.js';

/**
 * The SQL test "occupancy `o` is past its retention on `$1` (a timestamptz)": it has ended, and the
 * setting `personalData.retentionMonths` months have passed since the end of its last billed month,
 * the month of its last day (docs/personal-data.md). Open occupancies never expire; without the
 * setting nothing does.
 */
const EXPIRED = `o.anonymised_at IS NULL AND o.move_out IS NOT NULL
  AND (date_trunc('month', (o.move_out - 1)::timestamp)
       + make_interval(months => 1 + (SELECT (value #>> '{}')::int FROM dq_setting WHERE key = 'personalData.retentionMonths'))
      )::date <= ($1::timestamptz)::date`;

/** The occupancies whose personal data is due for removal at `now`, oldest first (at most `limit`). */
export async function expiredOccupancies(db: Queryable, now: Date, limit = 1000): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT o.id FROM occupancy o WHERE ${EXPIRED} ORDER BY o.move_out, o.id LIMIT $2`,
    [now.toISOString(), limit],
  );
  return rows.map((r) => r.id);
}

/** Every name and contact the occupancy ever had: its row and its audit entries' before and after. */
async function occupancyValues(tx: Tx, id: number): Promise<(string | null)[]> {
  const { rows } = await tx.query<{ v: string | null }>(
    `SELECT unnest(ARRAY[o.name, o.email, o.phone]) AS v FROM occupancy o WHERE o.id = $1
     UNION
     SELECT unnest(ARRAY[d.caller_name, d.caller_phone]) FROM declaration d WHERE d.occupancy_id = $1
     UNION
     SELECT s ->> f FROM audit_log a, LATERAL (VALUES (a.before), (a.after)) AS x(s), unnest(ARRAY['Name', 'Email', 'Phone']) AS f
      WHERE a.entity = 'occupancy' AND a.entity_id = $1::text AND jsonb_typeof(s) = 'object'`,
    [id],
  );
  return rows.map((r) => r.v);
}

/** Names and contacts someone still holds: a kept occupancy's, a kept client's (lower case). */
async function liveValues(tx: Tx, values: readonly string[]): Promise<Set<string>> {
  const { rows } = await tx.query<{ v: string }>(
    `SELECT DISTINCT lower(v) AS v FROM (
       SELECT unnest(ARRAY[name, email, phone]) AS v FROM occupancy WHERE anonymised_at IS NULL
       UNION ALL SELECT name FROM client WHERE name <> $2) x
      WHERE lower(v) = ANY ($1::text[])`,
    [values.map((v) => v.toLowerCase()), ANONYMISED],
  );
  return new Set(rows.map((r) => r.v));
}

/** What one anonymisation changed. */
export interface Anonymised {
  auditEntries: number;
  keptRows: number;
  /** Sessions, links and letter codes deleted. */
  secrets: number;
  client: boolean;
}

/**
 * Removes one expired occupancy's personal data (docs/personal-data.md) in one short transaction
 * that holds the flat's lock like every occupancy writer: the name becomes ANONYMISED, the contacts,
 * language, consent and access secrets go; the account's name too when no kept occupancy is left on it; every copy of
 * those values in the audit log, frozen publications and free text is replaced. Days, account code
 * and consumption stay with the flat. Audited (`occupancy.anonymise`, naming the occupancy by flat,
 * account and days, never the person). Null when it is not (or no longer) due: safe to repeat and to
 * run twice at once.
 */
export async function anonymiseOccupancy(db: Db, id: number, now: Date): Promise<Anonymised | null> {
  return db.transaction(async (tx) => {
    const { rows: found } = await tx.query<{ location_id: number }>('SELECT location_id FROM occupancy WHERE id = $1', [
      id,
    ]);
    if (!found[0]) return null;
    await tx.query('SELECT 1 FROM location WHERE id = $1 FOR UPDATE', [found[0].location_id]);
    const { rows: due } = await tx.query<{
      client_id: number;
      flat: string;
      code: string;
      move_in: string | null;
      move_out: string;
    }>(
      `SELECT o.client_id, address_label(l) AS flat, c.code, o.move_in::text, o.move_out::text
         FROM occupancy o JOIN location l ON l.id = o.location_id JOIN client c ON c.id = o.client_id
        WHERE o.id = $2 AND ${EXPIRED} FOR UPDATE OF o`,
      [now.toISOString(), id],
    );
    const o = due[0];
    if (!o) return null;
    const candidates = await occupancyValues(tx, id);
    await tx.query(
      `UPDATE occupancy SET name = $2, email = NULL, phone = NULL, language = NULL, consent_at = NULL,
              consent_channel = NULL, anonymised_at = $3::timestamptz WHERE id = $1`,
      [id, ANONYMISED, now.toISOString()],
    );
    // The occupant's own access (docs/occupant-access.md) goes with them: sessions, links, letter codes.
    let secrets = 0;
    for (const table of ['occupant_session', 'occupant_link', 'occupant_letter_code'])
      secrets += (await tx.query(`DELETE FROM ${table} WHERE occupancy_id = $1`, [id])).rowCount;
    // Photos of declared readings (docs/declared-readings.md) go; the declared values stay with the flat.
    await tx.query('DELETE FROM declaration_photo WHERE occupancy_id = $1', [id]);
    // So do who called in a declaration by phone and where its notices were mailed
    // (docs/declared-readings.md).
    await tx.query(
      `UPDATE declaration SET caller_name = $2, caller_phone = NULL
        WHERE occupancy_id = $1 AND (caller_name IS NOT NULL OR caller_phone IS NOT NULL)`,
      [id, ANONYMISED],
    );
    await tx.query('UPDATE declaration_notice SET email = NULL, error = NULL WHERE occupancy_id = $1', [id]);
    // The delivery log (docs/delivery.md) keeps what was sent and when, not where to.
    await tx.query('UPDATE occupant_delivery SET email = NULL WHERE occupancy_id = $1 AND email IS NOT NULL', [id]);
    const own: { entity: string; ids: number[] }[] = [{ entity: 'occupancy', ids: [id] }];
    // The account goes with its last kept occupancy: then nobody is billed under that name any more.
    const { rows: client } = await tx.query<{ name: string }>(
      `SELECT c.name FROM client c WHERE c.id = $1 AND c.name <> $2
          AND NOT EXISTS (SELECT 1 FROM occupancy k WHERE k.client_id = c.id AND k.anonymised_at IS NULL) FOR UPDATE`,
      [o.client_id, ANONYMISED],
    );
    if (client[0]) {
      const { rows: names } = await tx.query<{ v: string | null }>(
        `SELECT s ->> 'Name' AS v FROM audit_log a, LATERAL (VALUES (a.before), (a.after)) AS x(s)
          WHERE a.entity = 'client' AND a.entity_id = $1::text AND jsonb_typeof(s) = 'object'`,
        [o.client_id],
      );
      candidates.push(client[0].name, ...names.map((r) => r.v));
      await tx.query('UPDATE client SET name = $2 WHERE id = $1', [o.client_id, ANONYMISED]);
      own.push({ entity: 'client', ids: [o.client_id] });
    }
    // A value someone else still holds (the same name on a kept occupancy) stays where it is shared.
    const all = personalValues(candidates);
    const live = await liveValues(tx, all);
    const values = all.filter((v) => !live.has(v.toLowerCase()));
    const keptRows = await scrubKeptColumns(tx, values);
    const auditEntries = await scrubAuditLog(tx, values, own);
    const which = { Flat: o.flat, Code: o.code, MoveIn: o.move_in, MoveOut: o.move_out };
    await recordAudit(tx, {
      actor: null,
      kind: 'occupancy.anonymise',
      entity: 'occupancy',
      entityId: id,
      before: which,
      after: { ...which, Anonymised: true },
    });
    return { auditEntries, keptRows, secrets, client: !!client[0] };
  });
}

/** The scheduled work: every occupancy past its retention at `now`, each in its own transaction. */
export async function anonymiseExpired(db: Db, now: Date): Promise<{ anonymised: number; clients: number }> {
  let anonymised = 0;
  let clients = 0;
  for (const id of await expiredOccupancies(db, now)) {
    const done = await anonymiseOccupancy(db, id, now);
    if (!done) continue;
    anonymised++;
    if (done.client) clients++;
  }
  return { anonymised, clients };
}
