import type { FlatStatement, OccupancyStatement, StatementFigure } from '@rodmenys/contract';
import { monthName } from '../month-name.js';
import { drawOccupantHeatBar } from './pdf-heat-bars.js';
import { fig, type Lang, lateNotes, overdueNotes, T } from './pdf-texts.js';

/*
 * An occupant's page of a flat with a move in the month (docs/occupancies.md): the occupant, their
 * days and their own figures; comparisons only where the months were theirs. Nothing of another
 * occupant (no flat history, which would show the predecessor's months).
 */

type Doc = PDFKit.PDFDocument;
const LEFT = 50;

const OT = {
  lt: {
    occupant: (name: string, code: string) => `Gyventojas: ${name} (sąskaita ${code})`,
    days: (from: string, till: string, days: number) => `Laikotarpis: ${from} – ${till} (${days} d.)`,
    noComparison: 'nerodoma: tuo metu bute gyveno kitas gyventojas',
    kind: 'Rūšis',
  },
  en: {
    occupant: (name: string, code: string) => `Occupant: ${name} (account ${code})`,
    days: (from: string, till: string, days: number) => `Days: ${from} – ${till} (${days} days)`,
    noComparison: 'not shown: the flat had another occupant then',
    kind: 'Kind',
  },
} as const;

/** One occupant's page: the flat's address, the occupant and their days, their figures per kind. */
export function drawOccupantPage(doc: Doc, s: FlatStatement, o: OccupancyStatement, lang: Lang): void {
  const t = T[lang];
  const ot = OT[lang];
  const r = s.Row;
  const width = doc.page.width - 100;
  doc.font('bold').fontSize(16).fillColor('#000').text(t.title, LEFT, 50);
  doc.font('regular').fontSize(11).text(monthName(s.Month, lang), LEFT, 72);
  const address = [r.City, [r.Street, r.Building].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  doc.font('bold').fontSize(12).text(`${address}, ${t.flat.toLowerCase()} ${r.Flat}`, LEFT, 96, { width });
  doc.font('regular').fontSize(10).fillColor('#000').text(ot.occupant(o.Name, o.ClientCode), LEFT, 116, { width });
  doc.text(ot.days(o.From, o.Till, o.Days), LEFT, 132, { width });
  // Published or not, as on the flat's page (a letter's statement is always of a published month).
  doc
    .fillColor(r.Published ? '#1d6b2f' : '#8a5a00')
    .fontSize(9)
    .text(r.Published ? t.published(r.Published.Version, r.Published.PublishedAt) : t.preliminary, LEFT, 148);
  let y = 172;
  const value = (f: StatementFigure | null, missing: string | null) =>
    f ? fig(f, lang) : missing ? ot.noComparison : t.missing;
  for (const k of o.Kinds) {
    doc.font('bold').fontSize(10).fillColor('#000').text(`${t.kinds[k.Kind]}, ${t.units[k.Unit]}`, LEFT, y, { width });
    y += 16;
    for (const [label, text] of [
      [t.current, fig(k.Current, lang)],
      [t.previous, value(k.Previous, k.PreviousMissing)],
      [t.lastYear, value(k.LastYear, k.LastYearMissing)],
    ] as const) {
      doc
        .font('regular')
        .fontSize(9)
        .text(label, LEFT + 10, y, { width: 200 });
      doc.text(text, LEFT + 220, y, { width: width - 220 });
      y += 14;
    }
    y += 8;
  }
  // The occupant's heat parts by the building's method (docs/heat-method.md, "Occupants"), as a bar.
  for (const k of o.Kinds) if (k.HeatParts) y = drawOccupantHeatBar(doc, k.HeatParts, lang, y + 4);
  doc.font('regular').fontSize(8).fillColor('#444');
  for (const note of [...overdueNotes(o.Kinds, lang), ...lateNotes(o.Kinds, lang)]) {
    doc.text(note, LEFT, y + 4, { width });
    y = doc.y;
  }
  doc.text(t.partial, LEFT, y + 4, { width });
}
