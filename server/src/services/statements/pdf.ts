import { createRequire } from 'node:module';
import { PassThrough, type Readable } from 'node:stream';
import type { FlatStatement, OccupancyStatement } from '@rodmenys/contract';
import { Zip, ZipPassThrough } from 'fflate';
import PDFDocument from 'pdfkit';
import type { Queryable } from '../../db/db.js';
import { occupanciesOfRows } from './occupancy-figures.js';
import { drawFooter, drawPage } from './pdf-draw.js';
import { drawOccupantPage } from './pdf-occupant.js';
import { fileName, type Lang, T } from './pdf-texts.js';
import { buildingFlatIds, selectionBuildings } from './selection.js';
import { loadStatements } from './snapshots.js';

/**
 * The statements as PDF (docs/statements.md): one flat per page, drawn with pdfkit
 * (text and vector bars; DejaVu Sans embedded, so Lithuanian letters survive any
 * viewer), one file per building; several buildings go into a zip, one PDF each.
 * Streamed: a building's statements are loaded when its turn comes and each page
 * is written out as it is drawn, so memory holds one building at a time.
 */

const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');
/** The fonts every PDF of the product registers as `regular` and `bold` (the print list's too). */
export const PDF_FONTS = { regular: FONT, bold: FONT_BOLD };

/**
 * A building's statements as one PDF, written out page by page. A flat whose month is split
 * between occupants (`occupants`, by flat) gets one page per occupant instead of the flat's.
 */
export function renderBuildingPdf(
  statements: readonly FlatStatement[],
  lang: Lang,
  occupants: ReadonlyMap<number, readonly OccupancyStatement[]> = new Map(),
): Readable {
  const doc = new PDFDocument({ size: 'A4', margin: 50, autoFirstPage: false, info: { Title: T[lang].title } });
  doc.registerFont('regular', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const at = new Date().toISOString().slice(0, 10);
  const pages = statements.flatMap((s) => {
    const split = occupants.get(s.Row.FlatId);
    return split && split.length > 1
      ? split.map((o) => () => drawOccupantPage(doc, s, o, lang))
      : [() => drawPage(doc, s, lang)];
  });
  pages.forEach((draw, i) => {
    doc.addPage();
    draw();
    drawFooter(doc, lang, i + 1, pages.length, at);
  });
  if (!statements.length) doc.addPage().font('regular').fontSize(11).text(T[lang].none);
  doc.end();
  return doc;
}

interface PdfInput {
  month: string;
  scope: number[] | null;
  parents: number[] | null;
  lang: Lang;
}

/**
 * The selection's flats of one building, then their statements and the occupants' parts of those with a
 * move in the month (batched as the figures are: the same queries for one moved flat as for a hundred), as its PDF.
 */
async function buildingPdf(db: Queryable, input: PdfInput, building: number): Promise<Readable> {
  const flatIds = await buildingFlatIds(db, building, input.scope, input.parents);
  const statements = await loadStatements(db, input.month, { scope: input.scope, flatIds });
  const occupants = await occupanciesOfRows(
    db,
    input.month,
    statements.map((s) => s.Row),
  );
  return renderBuildingPdf(statements, input.lang, occupants);
}

/** A zip of one PDF per building, built building by building as the client reads it. */
function zipOfBuildings(db: Queryable, input: PdfInput, buildings: readonly { id: number; name: string }[]): Readable {
  const out = new PassThrough();
  const zip = new Zip((err, chunk, final) => {
    if (err) out.destroy(err);
    else {
      out.write(chunk);
      if (final) out.end();
    }
  });
  void (async () => {
    for (const b of buildings) {
      const entry = new ZipPassThrough(fileName(b.name, input.month));
      zip.add(entry);
      for await (const chunk of await buildingPdf(db, input, b.id)) {
        entry.push(chunk as Uint8Array);
        // Backpressure: a slow client holds the next building back instead of filling memory.
        if (out.writableNeedDrain) await new Promise((resolve) => out.once('drain', resolve));
      }
      entry.push(new Uint8Array(0), true);
    }
    zip.end();
  })().catch((err) => out.destroy(err));
  return out;
}

/**
 * The PDF answer of a selection: one building → its PDF; several → a zip of one PDF per
 * building, built building by building. Null when the selection holds no flat.
 */
export async function statementsPdf(
  db: Queryable,
  input: PdfInput,
): Promise<{ kind: 'pdf' | 'zip'; name: string; stream: Readable } | null> {
  const buildings = await selectionBuildings(db, input.scope, input.parents);
  if (!buildings.length) return null;
  if (buildings.length === 1) {
    const b = buildings[0]!;
    return { kind: 'pdf', name: fileName(b.name, input.month), stream: await buildingPdf(db, input, b.id) };
  }
  return { kind: 'zip', name: `statements-${input.month}.zip`, stream: zipOfBuildings(db, input, buildings) };
}

/** One occupant's statement of a month as a PDF (docs/occupant-access.md): their page only, never the flat's history. */
export function renderOccupantPdf(statement: FlatStatement, occupant: OccupancyStatement, lang: Lang): Readable {
  const doc = new PDFDocument({ size: 'A4', margin: 50, autoFirstPage: false, info: { Title: T[lang].title } });
  doc.registerFont('regular', FONT);
  doc.registerFont('bold', FONT_BOLD);
  doc.addPage();
  drawOccupantPage(doc, statement, occupant, lang);
  drawFooter(doc, lang, 1, 1, new Date().toISOString().slice(0, 10));
  doc.end();
  return doc;
}
