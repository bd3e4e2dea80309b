import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { BILLING_COLUMNS, type BillingRow, LOCATION_LEVEL, type StatementRow } from '@rodmenys/contract';
import ExcelJS from 'exceljs';
import type { Queryable } from '../../db/db.js';
import { badRequest, notFound } from '../../errors.js';
import { csvLine } from '../csv.js';
import { buildingOrder } from '../devices/device-row.js';
import { buildingIdOf, inScope } from '../sql.js';
import { billingRow, LIVE_BATCH_BUILDINGS, liveBuildingRows, liveFlatRows } from './rows.js';

/** What to export: a month, the caller's scope and subtrees, and which version (docs/integration.md). */
export interface ExportRequest {
  month: string;
  scope: number[] | null;
  parents: number[] | null;
  /** A published version of each building; absent = the latest. */
  version?: number;
  /** Only the rows that differ from this version. */
  since?: number;
  /** Computed now even where published. */
  live?: boolean;
}

interface Building {
  building_id: number;
  flat_ids: number[];
  /** The building itself is selected: its heat meters and its line are exported too. */
  whole: boolean;
  /** The chosen publication (latest, or `version`) with a frozen export, and the one compared with. */
  chosen: number | null;
  /** The chosen publication's version. */
  chosen_version: number | null;
  since: number | null;
}

/** The selection's buildings in address order, each with its selected flats and the publications to read. */
async function selectBuildings(db: Queryable, req: ExportRequest): Promise<Building[]> {
  const { rows } = await db.query<Building>(
    `WITH f AS (
       SELECT ${buildingIdOf('l')} AS building_id, array_agg(l.id ORDER BY l.id) AS flat_ids
         FROM location l
        WHERE l.level = ${LOCATION_LEVEL.flat} AND ${inScope('l', '$1')} AND ${inScope('l', '$2')}
        GROUP BY 1
     )
     SELECT f.building_id, f.flat_ids, (${inScope('b', '$1')} AND ${inScope('b', '$2')}) AS whole,
            (SELECT p.id FROM statement_publication p JOIN billing_snapshot s ON s.publication_id = p.id
              WHERE p.month = $3::date AND p.building_id = f.building_id AND ($4::int IS NULL OR p.version = $4)
              ORDER BY p.version DESC LIMIT 1) AS chosen,
            (SELECT max(p.version) FROM statement_publication p JOIN billing_snapshot s ON s.publication_id = p.id
              WHERE p.month = $3::date AND p.building_id = f.building_id AND ($4::int IS NULL OR p.version = $4))
              AS chosen_version,
            (SELECT p.id FROM statement_publication p JOIN billing_snapshot s ON s.publication_id = p.id
              WHERE p.month = $3::date AND p.building_id = f.building_id AND p.version = $5) AS since
       FROM f JOIN location b ON b.id = f.building_id
      ORDER BY ${buildingOrder('b')}, b.id`,
    [req.scope, req.parents, `${req.month}-01`, req.version ?? null, req.since ?? null],
  );
  return rows;
}

/**
 * The rows frozen with a publication (undefined: none, a version older than the export). Rows are frozen without
 * their null members (rows.ts, frozenRowsText) and get them back here; rows frozen before a column existed get it
 * too (null; `Books` on the flat rows, which were the ones booked then), so every version answers the contract's
 * row.
 */
export async function snapshotRows(db: Queryable, publicationId: number): Promise<BillingRow[] | undefined> {
  const { rows } = await db.query<{ rows: string }>('SELECT rows FROM billing_snapshot WHERE publication_id = $1', [
    publicationId,
  ]);
  return rows[0] && parseSnapshotRows(rows[0].rows);
}

/** A billing snapshot's rows from its stored text (see snapshotRows). */
export function parseSnapshotRows(text: string): BillingRow[] {
  return (JSON.parse(text) as BillingRow[]).map((r) =>
    BILLING_COLUMNS.every((c) => c in r) ? r : billingRow({ ...r, Books: r.Books ?? r.Line === 'flat' }),
  );
}

const rowKey = (r: BillingRow) => `${r.Line}|${r.FlatId}|${r.DeviceId}|${r.Kind}|${r.OccupancyId}`;
const STAMP = new Set<string>(['Status', 'Version', 'PublishedAt', 'Change']);
const figures = (r: BillingRow) => JSON.stringify(BILLING_COLUMNS.filter((c) => !STAMP.has(c)).map((c) => r[c]));

/** The rows of `after` that are new or differ from `before`, and those of `before` gone since (stamped as `after`). */
export function billingChanges(before: readonly BillingRow[], after: readonly BillingRow[]): BillingRow[] {
  const old = new Map(before.map((r) => [rowKey(r), r]));
  const keys = new Set(after.map(rowKey));
  const stamp = after[0] && { Status: after[0].Status, Version: after[0].Version, PublishedAt: after[0].PublishedAt };
  const out: BillingRow[] = [];
  for (const r of after) {
    const prev = old.get(rowKey(r));
    if (!prev) out.push({ ...r, Change: 'added' });
    else if (figures(prev) !== figures(r)) out.push({ ...r, Change: 'changed' });
  }
  for (const r of before) if (!keys.has(rowKey(r))) out.push({ ...r, ...stamp, Change: 'removed' });
  return out;
}

/**
 * The export's rows, one building at a time (bounded memory: one building's rows are held, never the
 * selection's). A published building answers its frozen rows (or their differences to `since`); an
 * unpublished one, or `live`, its rows computed now. 404 when `version` names no building's publication.
 */
export async function exportBuildings(db: Queryable, req: ExportRequest): Promise<AsyncIterable<BillingRow[]>> {
  const buildings = await selectBuildings(db, req);
  if (req.version !== undefined && !req.live && !buildings.some((b) => b.chosen !== null))
    throw notFound('billingVersionNotFound', { version: String(req.version), month: req.month });
  // `since` names a version some building has frozen, earlier than the one exported: never compared with nothing.
  if (
    req.since !== undefined &&
    !req.live &&
    !buildings.some((b) => b.since !== null && b.chosen_version !== null && b.chosen_version > req.since!)
  )
    throw badRequest('billingSinceNotEarlier', { since: String(req.since), month: req.month }, 'since');
  const isLive = (b: Building) => req.live || b.chosen === null;
  // An asked-for version or difference leaves out the buildings without that publication.
  const wanted = buildings.filter(
    (b) => !(isLive(b) && !req.live && (req.version !== undefined || req.since !== undefined)),
  );
  async function* gen(): AsyncGenerator<BillingRow[]> {
    let batch = new Map<number, StatementRow[]>();
    for (const [i, b] of wanted.entries()) {
      const published = !isLive(b);
      if (!published && !batch.has(b.building_id)) {
        // The next live buildings' figures in one computation (at most LIVE_BATCH_BUILDINGS held at once).
        const next = wanted
          .slice(i)
          .filter(isLive)
          .slice(0, LIVE_BATCH_BUILDINGS)
          .map((x) => x.building_id);
        batch = await liveFlatRows(db, req.month, next);
      }
      let rows = published
        ? ((await snapshotRows(db, b.chosen!)) ?? [])
        : await liveBuildingRows(db, req.month, b.building_id, batch.get(b.building_id) ?? []);
      // A building whose version is not later than `since` has nothing new since.
      if (published && req.since !== undefined)
        rows =
          b.since === b.chosen || (b.chosen_version ?? 0) <= req.since
            ? []
            : billingChanges(b.since === null ? [] : ((await snapshotRows(db, b.since)) ?? []), rows);
      const flats = new Set(b.flat_ids);
      const kept = rows.filter((r) => (r.FlatId === null ? b.whole : flats.has(r.FlatId)));
      if (kept.length) yield kept;
    }
  }
  return gen();
}

/** The export as the contract's JSON, written as it is produced: `{"Month":…,"Rows":[…]}`. */
export function billingJson(month: string, chunks: AsyncIterable<BillingRow[]>): Readable {
  return Readable.from(
    (async function* () {
      yield `{"Month":${JSON.stringify(month)},"Rows":[`;
      let first = true;
      for await (const rows of chunks) {
        const text = rows.map((r) => JSON.stringify(r)).join(',');
        yield first ? text : `,${text}`;
        first = false;
      }
      yield ']}';
    })(),
  );
}

const cellsOf = (r: BillingRow) => BILLING_COLUMNS.map((c) => r[c] as string | number | boolean | null);

/** The same rows as CSV (the project's writer: `;`, quoted where needed, UTF-8 with a BOM), a header line first. */
export function billingCsv(chunks: AsyncIterable<BillingRow[]>): Readable {
  return Readable.from(
    (async function* () {
      yield `\uFEFF${csvLine(BILLING_COLUMNS)}`;
      for await (const rows of chunks) yield rows.map((r) => csvLine(cellsOf(r))).join('');
    })(),
  );
}

/** Text columns: codes keep their leading zeros and are never read as numbers. */
const TEXT_COLUMNS = new Set<string>(['DeviceCode', 'AccountCode', 'Flat', 'Building']);

/**
 * The same rows as XLSX, with exceljs's streaming writer (rows are written and dropped as they come). The
 * workbook's dates and every zip entry's time are `stampedAt` (the latest publication's time for a published
 * export), so a published version is the same bytes every time.
 */
export function billingXlsx(chunks: AsyncIterable<BillingRow[]>, stampedAt: () => Date): Readable {
  const out = new PassThrough();
  void (async () => {
    const chunk = chunks[Symbol.asyncIterator]();
    let next = await chunk.next();
    const when = next.done ? stampedAt() : stampOf(next.value, stampedAt);
    const wb = new (stampedWriter(when))({ stream: out, useStyles: false, useSharedStrings: false });
    wb.created = when;
    wb.modified = when;
    wb.creator = 'Rodmenys';
    const sheet = wb.addWorksheet('Billing');
    sheet.addRow([...BILLING_COLUMNS]).commit();
    for (; !next.done; next = await chunk.next()) {
      for (const r of next.value)
        sheet
          .addRow(cellsOf(r).map((v, i) => (v !== null && TEXT_COLUMNS.has(BILLING_COLUMNS[i]!) ? String(v) : v)))
          .commit();
      if (out.writableNeedDrain) await once(out, 'drain');
    }
    sheet.commit();
    await wb.commit();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

type ZipHolder = { zip: { append: (source: unknown, data: Record<string, unknown>) => unknown } };

/**
 * exceljs's streaming writer whose zip entries all carry `when` (archiver would stamp the time of writing).
 * Its constructor creates the zip and then adds the first entries through `addThemes`, so that is where the
 * zip's `append` is wrapped, before any entry.
 */
function stampedWriter(when: Date) {
  return class StampedWorkbookWriter extends ExcelJS.stream.xlsx.WorkbookWriter {
    override addThemes(): Promise<void> {
      const { zip } = this as unknown as ZipHolder;
      const append = zip.append.bind(zip);
      zip.append = (source, data) => append(source, { ...data, date: when });
      return super.addThemes();
    }
  };
}

/** A live export's time is now; a published one's the latest publication time of its first building. */
function stampOf(rows: BillingRow[], now: () => Date): Date {
  const r = rows[0];
  return r?.PublishedAt ? new Date(r.PublishedAt) : now();
}
