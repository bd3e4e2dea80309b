import type { Readable } from 'node:stream';
import type { FlatStatement, OccupantMonth, OccupantProfile, OccupantStatement } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import { occupancyStatements } from '../statements/occupancy-figures.js';
import { renderOccupantPdf } from '../statements/pdf.js';
import { fileName, type Lang } from '../statements/pdf-texts.js';
import { storedStatement } from '../statements/snapshots.js';
import type { OccupantCaller } from './sessions.js';
import { accessUntilSql } from './sessions.js';

/*
 * What an occupant session reads and changes (docs/occupant-access.md): its own occupancy, and
 * only the months that are published and that the occupancy lived in. Everything is keyed by the
 * session's occupancy; nothing here takes an id from the request.
 */

/** Months of the history beside a statement (the month and the 12 before it, where published and theirs). */
const HISTORY_MONTHS = 13;

/** The occupant's profile: their name, account, address, days and consent. */
export async function occupantProfile(db: Queryable, occupant: OccupantCaller): Promise<OccupantProfile> {
  const { rows } = await db.query<OccupantProfile>(
    `SELECT o.id AS "OccupancyId", o.name AS "Name", c.code AS "ClientCode",
            coalesce(l.city, '') AS "City", coalesce(l.street, '') AS "Street",
            coalesce(l.building, '') AS "Building", coalesce(l.flat, l.name, '') AS "Flat",
            o.language AS "Language", o.move_in::text AS "MoveIn", o.move_out::text AS "MoveOut",
            ${accessUntilSql('o')}::text AS "AccessUntil", o.email AS "Email",
            o.consent_at IS NOT NULL AS "Electronic", o.consent_at::text AS "ConsentAt",
            o.consent_channel AS "ConsentChannel"
       FROM occupancy o JOIN client c ON c.id = o.client_id JOIN location l ON l.id = o.location_id
      WHERE o.id = $1`,
    [occupant.occupancyId],
  );
  if (!rows[0]) throw notFound('occupancyNotFound');
  return rows[0];
}

/**
 * Switches electronic delivery on (consent today, channel `portal`) or off (no consent: letters).
 * Switching on keeps an earlier consent's day and channel. Audited, with no actor (the occupant).
 */
export async function updateConsent(
  db: Queryable,
  occupant: OccupantCaller,
  electronic: boolean,
): Promise<OccupantProfile> {
  const before = await occupantProfile(db, occupant);
  if (before.Electronic !== electronic) {
    await db.query(
      `UPDATE occupancy SET consent_at = CASE WHEN $2 THEN current_date END,
                            consent_channel = CASE WHEN $2 THEN 'portal' END
        WHERE id = $1`,
      [occupant.occupancyId, electronic],
    );
  }
  const after = await occupantProfile(db, occupant);
  await recordAudit(db, {
    actor: null,
    kind: 'occupantAccess.consent',
    entity: 'occupancy',
    entityId: occupant.occupancyId,
    before: { ConsentAt: before.ConsentAt, ConsentChannel: before.ConsentChannel },
    after: { ConsentAt: after.ConsentAt, ConsentChannel: after.ConsentChannel },
  });
  return after;
}

/** The occupancy's months with a published statement (the building's latest version), newest first. */
export async function occupantMonths(db: Queryable, occupant: OccupantCaller, only?: string): Promise<OccupantMonth[]> {
  const { rows } = await db.query<OccupantMonth>(
    `SELECT to_char(p.month, 'YYYY-MM') AS "Month", iso(max(p.published_at)) AS "PublishedAt"
       FROM occupancy o
       JOIN statement_snapshot s ON s.flat_id = o.location_id
       JOIN statement_publication p ON p.id = s.publication_id
      WHERE o.id = $1
        AND coalesce(o.move_in, '-infinity') < (p.month + interval '1 month')::date
        AND coalesce(o.move_out, 'infinity') > p.month
        AND ($2::date IS NULL OR p.month = $2::date)
      GROUP BY p.month ORDER BY p.month DESC`,
    [occupant.occupancyId, only ? `${only}-01` : null],
  );
  return rows;
}

/** The occupancy's own statement of a month it may open; 404 for any other month. */
async function ownStatement(db: Queryable, occupant: OccupantCaller, month: string) {
  const split = await occupancyStatements(db, month, occupant.flatId, null);
  const own = split.Occupancies.find((o) => o.OccupancyId === occupant.occupancyId);
  if (!own) throw notFound('occupantMonthNotFound');
  return own;
}

/** One month's statement with the occupancy's own earlier published months (never a predecessor's). */
export async function occupantStatement(
  db: Queryable,
  occupant: OccupantCaller,
  month: string,
): Promise<OccupantStatement> {
  const months = await occupantMonths(db, occupant);
  const at = months.findIndex((m) => m.Month === month);
  const published = months[at];
  if (!published) throw notFound('occupantMonthNotFound');
  const statement = await ownStatement(db, occupant, month);
  const earlier = months.slice(at + 1, at + HISTORY_MONTHS).reverse();
  const history = [];
  for (const m of earlier) {
    const s = await ownStatement(db, occupant, m.Month);
    history.push({ Month: m.Month, Kinds: s.Kinds.map((k) => ({ Kind: k.Kind, Value: k.Current.Value })) });
  }
  history.push({ Month: month, Kinds: statement.Kinds.map((k) => ({ Kind: k.Kind, Value: k.Current.Value })) });
  return { Month: month, PublishedAt: published.PublishedAt, Statement: statement, History: history };
}

/** One month's statement as a PDF in `lang` (default: the occupancy's language, else Lithuanian). */
export async function occupantStatementPdf(
  db: Queryable,
  occupant: OccupantCaller,
  month: string,
  lang: Lang | undefined,
): Promise<{ name: string; stream: Readable }> {
  if (!(await occupantMonths(db, occupant, month)).length) throw notFound('occupantMonthNotFound');
  const own = await ownStatement(db, occupant, month);
  const { rows } = await db.query<{
    statement: FlatStatement | string;
    language: Lang | null;
    building_id: number;
    version: number;
    published_at: string;
  }>(
    `SELECT s.statement - 'History' AS statement, o.language, p.building_id, p.version,
            iso(p.published_at) AS published_at
       FROM statement_snapshot s JOIN statement_publication p ON p.id = s.publication_id
       JOIN occupancy o ON o.id = $3
      WHERE s.flat_id = $1 AND p.month = $2::date ORDER BY p.version DESC LIMIT 1`,
    [occupant.flatId, `${month}-01`, occupant.occupancyId],
  );
  const row = rows[0];
  if (!row) throw notFound('occupantMonthNotFound');
  const language = lang ?? row.language ?? 'lt';
  // The snapshot is the statement as published; which version it is lives with the publication (as the
  // back office's statement shows it). Never who published it: that is the provider's business.
  const stored = storedStatement(row.statement);
  const Published = {
    BuildingId: row.building_id,
    Version: row.version,
    PublishedAt: row.published_at,
    PublishedBy: null,
  };
  return {
    name: fileName(own.ClientCode, month),
    stream: renderOccupantPdf({ ...stored, Row: { ...stored.Row, Published } }, own, language),
  };
}
