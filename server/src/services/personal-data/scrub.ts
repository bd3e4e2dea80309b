import { ANONYMISED } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';

export { ANONYMISED };

/** Values shorter than this are replaced only where they are the whole text, never inside other text. */
const MIN_INSIDE = 3;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The distinct, non-blank personal values, longest first (so a longer one is replaced before its part). */
export function personalValues(values: readonly (string | null | undefined)[]): string[] {
  const set = new Set<string>();
  for (const v of values) {
    const t = v?.trim();
    if (t && t !== ANONYMISED) set.add(t);
  }
  return [...set].sort((a, b) => b.length - a.length);
}

/** `text` with every personal value replaced by ANONYMISED (case-insensitive). */
export function scrubText(text: string, values: readonly string[]): string {
  let out = text;
  for (const v of values) {
    if (v.length < MIN_INSIDE) {
      if (out.trim().toLowerCase() === v.toLowerCase()) return ANONYMISED;
      continue;
    }
    out = out.replace(new RegExp(escapeRegExp(v), 'giu'), ANONYMISED);
  }
  return out;
}

/** The fields of an occupancy's own audit shape that hold personal data (docs/occupancies.md). */
const PERSONAL_FIELDS = new Set(['Name', 'Email', 'Phone', 'ConsentAt', 'ConsentChannel']);

/** An occupancy's own audit shape without its personal fields: the name as ANONYMISED, the rest null. */
function withoutPersonalFields(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      PERSONAL_FIELDS.has(k) && v !== null ? (k === 'Name' ? ANONYMISED : null) : withoutPersonalFields(v),
    ]),
  );
}

/** A JSON value with every personal value replaced in its strings and keys. */
export function scrubJson(value: unknown, values: readonly string[]): unknown {
  if (typeof value === 'string') return scrubText(value, values);
  if (Array.isArray(value)) return value.map((v) => scrubJson(v, values));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [scrubText(k, values), scrubJson(v, values)] as const),
    );
  return value;
}

/** How a kept column holds text: plain, JSON text, or jsonb. */
type ColumnKind = 'text' | 'jsonText' | 'jsonb';

/**
 * Every kept column besides the occupancy itself where an occupant's name or contacts may have been
 * copied (docs/personal-data.md, "What anonymisation removes"): frozen publications, the billing
 * export's frozen rows and notices, free-text reasons and comments. The audit log is handled apart
 * (its own rule in the database). A new table that copies personal data adds itself here.
 */
export const KEPT_COLUMNS: readonly { table: string; key: readonly string[]; column: string; kind: ColumnKind }[] = [
  { table: 'statement_snapshot', key: ['publication_id', 'flat_id'], column: 'statement', kind: 'jsonb' },
  { table: 'statement_snapshot', key: ['publication_id', 'flat_id'], column: 'occupancies', kind: 'jsonb' },
  { table: 'billing_snapshot', key: ['publication_id'], column: 'rows', kind: 'jsonText' },
  { table: 'billing_delivery', key: ['id'], column: 'body', kind: 'jsonText' },
  { table: 'move_value', key: ['device_id', 'day'], column: 'reason', kind: 'text' },
  { table: 'month_end', key: ['device_id', 'month'], column: 'reason', kind: 'text' },
  { table: 'anomaly', key: ['id'], column: 'comment', kind: 'text' },
  // A failed delivery's reason may quote the address (the SMTP server's answer).
  { table: 'occupant_delivery', key: ['id'], column: 'error', kind: 'text' },
  { table: 'campaign_notice', key: ['id'], column: 'error', kind: 'text' },
  { table: 'campaign_no_access', key: ['id'], column: 'reason', kind: 'text' },
  { table: 'anomaly', key: ['id'], column: 'evidence', kind: 'jsonb' },
];

/**
 * The forms a value takes inside a column's text, for the SQL pre-filter: as written and, inside
 * JSON, escaped; values too short to be searched inside text are left to their own rows.
 */
function needles(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    if (v.length < MIN_INSIDE) continue;
    out.add(v.toLowerCase());
    out.add(JSON.stringify(v).slice(1, -1).toLowerCase());
  }
  return [...out];
}

/** The SQL test "this text contains one of $n (lower case)". */
const containsAny = (expr: string, param: string) =>
  `EXISTS (SELECT 1 FROM unnest(${param}::text[]) v WHERE strpos(lower(${expr}), v) > 0)`;

/** Replaces the personal values in every kept column (KEPT_COLUMNS); the number of rows changed. */
export async function scrubKeptColumns(tx: Queryable, values: readonly string[]): Promise<number> {
  const search = needles(values);
  if (!search.length) return 0;
  let changed = 0;
  for (const c of KEPT_COLUMNS) {
    const keys = c.key.map((k) => `${k}::text AS "${k}"`).join(', ');
    const { rows } = await tx.query<Record<string, string | null> & { value: unknown }>(
      `SELECT ${keys}, ${c.column} AS value FROM ${c.table}
        WHERE ${c.column} IS NOT NULL AND ${containsAny(`${c.column}::text`, '$1')} FOR UPDATE`,
      [search],
    );
    for (const row of rows) {
      let next: string;
      if (c.kind === 'text') next = scrubText(String(row.value), values);
      else if (c.kind === 'jsonText') next = JSON.stringify(scrubJson(JSON.parse(String(row.value)), values));
      else next = JSON.stringify(scrubJson(row.value, values));
      const where = c.key.map((k, i) => `${k}::text = $${i + 2}`).join(' AND ');
      const cast = c.kind === 'jsonb' ? '::jsonb' : '';
      const r = await tx.query(`UPDATE ${c.table} SET ${c.column} = $1${cast} WHERE ${where}`, [
        next,
        ...c.key.map((k) => row[k]),
      ]);
      changed += r.rowCount;
    }
  }
  return changed;
}

/**
 * Replaces the personal values inside the audit log's before/after (the only change the log accepts,
 * and only in this transaction: migration 170). The entries of the records in `own` (the occupancy's,
 * the client's when it goes too) lose their personal fields whatever their values. The number of
 * entries changed.
 */
export async function scrubAuditLog(
  tx: Queryable,
  values: readonly string[],
  own: { entity: string; ids: readonly (number | string)[] }[],
): Promise<number> {
  await tx.query("SELECT set_config('rodmenys.audit_redaction', 'personal-data', true)");
  const search = needles(values);
  const ownSql = own.map((_, i) => `(entity = $${2 * i + 2} AND entity_id = ANY ($${2 * i + 3}::text[]))`);
  const { rows } = await tx.query<{
    id: string;
    entity: string;
    entity_id: string | null;
    before: unknown;
    after: unknown;
  }>(
    `SELECT id::text, entity, entity_id, before, after FROM audit_log
      WHERE ${[containsAny("coalesce(before::text, '') || ' ' || coalesce(after::text, '')", '$1'), ...ownSql].join(' OR ')}`,
    [search, ...own.flatMap((o) => [o.entity, o.ids.map(String)])],
  );
  const isOwn = (r: { entity: string; entity_id: string | null }) =>
    own.some((o) => o.entity === r.entity && o.ids.map(String).includes(r.entity_id ?? ''));
  let changed = 0;
  for (const row of rows) {
    const fields = (v: unknown) => (isOwn(row) ? withoutPersonalFields(v) : v);
    const before = scrubJson(fields(row.before), values);
    const after = scrubJson(fields(row.after), values);
    if (JSON.stringify(before) === JSON.stringify(row.before) && JSON.stringify(after) === JSON.stringify(row.after))
      continue;
    await tx.query('UPDATE audit_log SET before = $2::jsonb, after = $3::jsonb WHERE id = $1::bigint', [
      row.id,
      before === null ? null : JSON.stringify(before),
      after === null ? null : JSON.stringify(after),
    ]);
    changed++;
  }
  await tx.query("SELECT set_config('rodmenys.audit_redaction', '', true)");
  return changed;
}
