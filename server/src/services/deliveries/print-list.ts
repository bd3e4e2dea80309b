import type { Readable } from 'node:stream';
import { type FlatStatement, formatLetterCode, type OccupancyStatement, occupantCodeUrl } from '@rodmenys/contract';
import PDFDocument from 'pdfkit';
import type { Db, Queryable } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { issueLetterCode } from '../occupant-access/secrets.js';
import { occupanciesOfRows } from '../statements/occupancy-figures.js';
import { PDF_FONTS } from '../statements/pdf.js';
import { drawFooter, drawPage } from '../statements/pdf-draw.js';
import { drawOccupantPage } from '../statements/pdf-occupant.js';
import { fileName, type Lang } from '../statements/pdf-texts.js';
import { loadStatements } from '../statements/snapshots.js';
import { drawLetter, type Letter, printListFileName } from './letter.js';

/** One letter of the list as the database has it. */
interface Row {
  id: number;
  occupancy_id: number;
  flat_id: number;
  name: string;
  language: Lang;
  street: string;
  city: string;
  flat: string;
  building: string;
  /** The occupancy was the flat's only one through the 13 months a flat page shows. */
  whole_history: boolean;
}

/** The letters of the building's latest version of the month, in flat order, locked for the caller. */
async function lettersOf(tx: Queryable, month: string, buildingId: number): Promise<Row[]> {
  const { rows } = await tx.query<Row>(
    `SELECT d.id, d.occupancy_id, d.flat_id, o.name, d.language, concat_ws(' ', b.street, b.building) AS street,
            coalesce(b.city, '') AS city, f.flat, concat_ws(' ', b.city, b.street, b.building) AS building,
            coalesce(o.move_in, '-infinity') <= ($1::date - interval '12 months')::date
              AND coalesce(o.move_out, 'infinity') >= ($1::date + interval '1 month')::date AS whole_history
       FROM occupant_delivery d
       JOIN occupancy o ON o.id = d.occupancy_id
       JOIN location f ON f.id = d.flat_id
       JOIN location b ON b.id = d.building_id
      WHERE d.month = $1::date AND d.building_id = $2
        -- A letter, or an e-mail given up (failed to the last attempt, or the consent withdrawn meanwhile).
        AND (d.channel = 'print' OR d.given_up AND d.status IN ('failed', 'printed'))
        AND d.version = (SELECT max(version) FROM occupant_delivery WHERE month = $1::date AND building_id = $2)
      ORDER BY f.flat_order NULLS FIRST, f.flat, f.id, o.move_in NULLS FIRST, d.id
      FOR UPDATE OF d`,
    [`${month}-01`, buildingId],
  );
  return rows;
}

/** Each letter's statement page: the flat's own page when the occupant's months are all of it, else their part. */
async function statementPages(db: Queryable, month: string, rows: readonly Row[]) {
  const flats = await loadStatements(db, month, { flatIds: [...new Set(rows.map((r) => r.flat_id))], scope: null });
  const byFlat = new Map(flats.map((s) => [s.Row.FlatId, s]));
  // The parts of every flat with an occupant whose months are not all of it, for all of them at once.
  const partial = new Set(rows.filter((r) => !r.whole_history).map((r) => r.flat_id));
  const split = await occupanciesOfRows(
    db,
    month,
    flats.filter((s) => partial.has(s.Row.FlatId)).map((s) => s.Row),
    { everyOccupied: true },
  );
  const parts = new Map([...split.values()].flat().map((o) => [o.OccupancyId, o]));
  return rows.map((r) => ({
    flat: byFlat.get(r.flat_id),
    part: r.whole_history ? undefined : parts.get(r.occupancy_id),
  }));
}

/** The letters and statements as one PDF, written out page by page. */
function render(
  letters: readonly {
    letter: Letter;
    lang: Lang;
    flat: FlatStatement | undefined;
    part: OccupancyStatement | undefined;
  }[],
): Readable {
  const doc = new PDFDocument({ size: 'A4', margin: 50, autoFirstPage: false });
  doc.registerFont('regular', PDF_FONTS.regular);
  doc.registerFont('bold', PDF_FONTS.bold);
  const at = new Date().toISOString().slice(0, 10);
  const pages: { lang: Lang; draw: () => void }[] = [];
  for (const l of letters) {
    pages.push({ lang: l.lang, draw: () => drawLetter(doc, l.letter, l.lang) });
    const { flat, part } = l;
    if (flat && part) pages.push({ lang: l.lang, draw: () => drawOccupantPage(doc, flat, part, l.lang) });
    else if (flat) pages.push({ lang: l.lang, draw: () => drawPage(doc, flat, l.lang) });
  }
  pages.forEach((p, i) => {
    doc.addPage();
    p.draw();
    drawFooter(doc, p.lang, i + 1, pages.length, at);
  });
  doc.end();
  return doc;
}

/**
 * A building's print list of month M (docs/delivery.md): a letter per occupant whose delivery is
 * by post or whose e-mail was given up, each with a new letter code (replacing the earlier one, as the letter says) and their
 * statement. Issuing the codes, marking the deliveries printed and the audit entry commit before
 * the PDF is drawn. 404 when the building has no letter for the month. `lang` names the file.
 */
export async function printList(
  db: Db,
  caller: Caller,
  input: { month: string; buildingId: number; lang: Lang; baseUrl: string },
): Promise<{ name: string; stream: Readable }> {
  const { month, buildingId } = input;
  const issued = await db.transaction(async (tx) => {
    const rows = await lettersOf(tx, month, buildingId);
    if (!rows.length) throw notFound('printListEmpty', { month });
    const codes: string[] = [];
    for (const r of rows) codes.push(await issueLetterCode(tx, r.occupancy_id));
    await tx.query(
      `UPDATE occupant_delivery SET status = 'printed', printed_at = now(), printed_by = $2 WHERE id = ANY ($1::int[])`,
      [rows.map((r) => r.id), caller.id],
    );
    await recordAudit(tx, {
      actor: caller,
      kind: 'printList.download',
      entity: 'location',
      entityId: buildingId,
      before: null,
      after: { Month: month, Letters: rows.length },
    });
    return rows.map((r, i) => ({ row: r, code: codes[i]! }));
  });
  const pages = await statementPages(
    db,
    month,
    issued.map((x) => x.row),
  );
  const letters = issued.map(({ row, code }, i) => ({
    lang: row.language,
    letter: {
      name: row.name,
      street: row.street,
      city: row.city,
      flat: row.flat,
      flatNumber: row.flat_id,
      month,
      code: formatLetterCode(code),
      // The code page in the occupancy's language, as the letter is written.
      codeUrl: occupantCodeUrl(input.baseUrl, row.language),
    },
    ...pages[i]!,
  }));
  return { name: printListFileName(input.lang, fileName(issued[0]!.row.building, month)), stream: render(letters) };
}
