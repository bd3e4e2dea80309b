import {
  AUDIT_KIND_LABELS,
  type AuditEntry,
  type AuditKind,
  type AuditQuery,
  auditChangesText,
  auditEntityLabel,
  type Language,
} from '@rodmenys/contract';
import ExcelJS from 'exceljs';
import type { Queryable } from '../../db/db.js';
import { badRequest } from '../../errors.js';
import { toCsv } from '../csv.js';
import { paged } from '../paging.js';
import { prefixPattern } from '../sql.js';
import { parseDayRange, wallClockMs, wallClockOf } from '../time.js';

export type AuditFilter = Pick<AuditQuery, 'actor' | 'kind' | 'dateFrom' | 'dateTill'>;

const AUDIT_PAGE_SIZE = 50;
/** An export stops here; narrow the filter for more. */
const MAX_EXPORT_ROWS = 100_000;

/**
 * The record's own name, as it was when the entry was written (from the entry itself, so a deleted
 * or renamed record still reads as it was): a user name, a serial number with its address, an
 * address, a client's or object's code and name, a collector key's name, an imported file's name.
 */
const ENTITY_NAME = `CASE a.entity
    WHEN 'user' THEN coalesce(a.after->>'Username', a.before->>'Username')
    WHEN 'device' THEN (SELECT concat_ws(', ', d.code, (SELECT address_label(l) FROM location l WHERE l.id = d.loc))
                          FROM (SELECT coalesce(x->>'DeviceCode', y->>'DeviceCode') AS code,
                                       (coalesce(x->>'LocationId', y->>'LocationId'))::int AS loc
                                  FROM (SELECT coalesce(a.after->'Old', a.after) AS x, a.before AS y) s) d)
    WHEN 'location' THEN coalesce(a.after->>'Path', a.before->>'Path', a.after->>'Name', a.before->>'Name')
    WHEN 'collectorKey' THEN coalesce(a.after->>'Name', a.before->>'Name')
    WHEN 'register' THEN a.entity_id
    WHEN 'degreeDays' THEN concat_ws(' ', coalesce(a.after->>'City', a.before->>'City'), coalesce(a.after->>'Month', a.before->>'Month'))
    ELSE nullif(concat_ws(' ', coalesce(a.after->>'Code', a.before->>'Code'), coalesce(a.after->>'Name', a.before->>'Name')), '')
  END`;

/** An audit entry as the API answers it (AuditEntry), from `audit_log a`. */
export const AUDIT_ENTRY_COLUMNS = `a.id::int AS "Id", iso(a.at) AS "At", a.actor_id AS "ActorId", a.actor_username AS "ActorUsername",
  a.kind AS "Kind", a.entity AS "Entity", a.entity_id AS "EntityId", ${ENTITY_NAME} AS "EntityName",
  a.before AS "Before", a.after AS "After"`;

/** The WHERE clause and its parameters for a filter; days are the provider's (the session zone). */
function where(filter: AuditFilter): { sql: string; params: unknown[] } {
  const conds: string[] = [];
  const params: unknown[] = [];
  if (filter.actor?.trim()) {
    params.push(prefixPattern(filter.actor));
    conds.push(`lower(a.actor_username) LIKE $${params.length}`);
  }
  if (filter.kind) {
    params.push(filter.kind.split(','));
    conds.push(`a.kind = ANY($${params.length}::text[])`);
  }
  if (filter.dateFrom || filter.dateTill) {
    const range = parseDayRange(filter.dateFrom ?? '1990-01-01', filter.dateTill ?? '2200-12-31');
    params.push(range.from, range.till);
    conds.push(
      `a.at >= $${params.length - 1}::date::timestamptz AND a.at < ($${params.length}::date + 1)::timestamptz`,
    );
  }
  return { sql: conds.length ? `WHERE ${conds.join(' AND ')}` : '', params };
}

/** One page of the audit log, newest first. */
export async function listAudit(db: Queryable, query: AuditQuery) {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? AUDIT_PAGE_SIZE;
  const w = where(query);
  const { rows } = await db.query<AuditEntry & { total: number }>(
    `SELECT ${AUDIT_ENTRY_COLUMNS}, count(*) OVER ()::int AS total FROM audit_log a ${w.sql}
      ORDER BY a.at DESC, a.id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    w.params,
  );
  let total = rows[0]?.total;
  if (total === undefined) {
    total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log a ${w.sql}`, w.params)).rows[0]!.n;
  }
  return paged(
    rows.map(({ total: _, ...entry }) => entry),
    total,
    page,
    pageSize,
  );
}

const HEADERS: Record<Language, string[]> = {
  en: ['Time', 'User', 'Kind', 'Record', 'Record id', 'Name', 'Changes'],
  lt: ['Laikas', 'Naudotojas', 'Veiksmas', 'Įrašas', 'Įrašo id', 'Pavadinimas', 'Pakeitimai'],
};

/** The filtered log as a file: xlsx (a real workbook) or CSV (`;`, UTF-8 with BOM, for Excel). */
export async function exportAudit(
  db: Queryable,
  filter: AuditFilter,
  format: 'xlsx' | 'csv',
  lang: Language,
): Promise<Buffer> {
  const w = where(filter);
  const { rows } = await db.query<AuditEntry>(
    `SELECT ${AUDIT_ENTRY_COLUMNS} FROM audit_log a ${w.sql} ORDER BY a.at DESC, a.id DESC LIMIT ${MAX_EXPORT_ROWS}`,
    w.params,
  );
  const cells = rows.map((r) => [
    r.At,
    r.ActorUsername ?? '',
    AUDIT_KIND_LABELS[r.Kind as AuditKind]?.[lang] ?? r.Kind,
    auditEntityLabel(r.Entity, lang),
    r.EntityId ?? '',
    r.EntityName ?? '',
    auditChangesText(r.Before, r.After, lang),
  ]);
  if (format === 'csv') return toCsv([HEADERS[lang], ...cells]);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Audit');
  sheet.addRow(HEADERS[lang]).font = { bold: true };
  for (const row of cells) {
    // The time as an Excel date cell (the wall-clock time of the provider zone as shown).
    sheet.addRow([toExcelDate(row[0]!), ...row.slice(1)]);
  }
  sheet.getColumn(1).numFmt = 'yyyy-mm-dd hh:mm:ss';
  sheet.columns.forEach((c, i) => {
    c.width = i === 0 ? 20 : i === 6 ? 80 : i === 5 ? 40 : 18;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** '2026-03-29T04:00:00+03:00' → a Date whose UTC fields are that wall-clock time (how Excel stores dates). */
export function toExcelDate(iso: string): Date {
  const t = wallClockOf(iso);
  if (!t) throw badRequest('notTimestamp', { value: iso });
  return new Date(wallClockMs(t));
}
