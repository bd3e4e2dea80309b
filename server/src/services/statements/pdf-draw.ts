import type { FlatStatement, StatementKind, StatementKindFigures, StatementRow } from '@rodmenys/contract';
import { monthName } from '../month-name.js';
import { drawHeatBars } from './pdf-heat-bars.js';
import { parametersNote } from './pdf-parameters.js';
import { fig, fmt, fmtPlain, type Lang, lateNotes, MARKED, overdueNotes, T } from './pdf-texts.js';

/*
 * One flat's page of the statements PDF (docs/statements.md), drawn with pdfkit top down: the
 * header, the figures table, the notes, the heat balance's bars (pdf-heat-bars.ts), this month's bars
 * and the last 13 months' bars; and the footer. Each step takes the y it starts at and returns the y below it.
 */

type Doc = PDFKit.PDFDocument;

const KIND_COLORS: Record<StatementKind, string> = { heating: '#c0392b', hotWater: '#d35400', coldWater: '#2471a3' };
const LAST_YEAR = '#7f8c8d';
const AVERAGE = '#5d6d7e';
const OTHER = '#d5dbdb';
const PARTIAL = '#f4d03f';
const LEFT = 50;
/** The figures table's label column. */
const LABEL_W = 200;

const contentWidth = (doc: Doc) => doc.page.width - 100;

/** A horizontal rule from x0 to x1 at y. */
function rule(doc: Doc, x0: number, x1: number, y: number): void {
  doc.moveTo(x0, y).lineTo(x1, y).strokeColor('#999').lineWidth(0.5).stroke();
}

/** Title, month, address, area and client, and whether the month is published. */
function drawHeader(doc: Doc, s: FlatStatement, lang: Lang): number {
  const t = T[lang];
  const r = s.Row;
  doc.font('bold').fontSize(16).fillColor('#000').text(t.title, LEFT, 50);
  doc.font('regular').fontSize(11).text(monthName(s.Month, lang), LEFT, 72);
  const address = [r.City, [r.Street, r.Building].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  doc
    .font('bold')
    .fontSize(12)
    .text(`${address}, ${t.flat.toLowerCase()} ${r.Flat}`, LEFT, 96, { width: contentWidth(doc) });
  const facts = [
    r.AreaM2 !== null ? `${t.area}: ${fmt(r.AreaM2, lang, 2)} m²` : null,
    r.ClientCode ? `${t.client}: ${r.ClientCode}` : null,
  ].filter(Boolean);
  doc.font('regular').fontSize(9).fillColor('#444').text(facts.join('   ·   '), LEFT, 114);
  doc
    .fillColor(r.Published ? '#1d6b2f' : '#8a5a00')
    .text(r.Published ? t.published(r.Published.Version, r.Published.PublishedAt) : t.preliminary, LEFT, 128);
  return 150;
}

/** The table's rows: a label and each kind's text. */
function tableRows(r: StatementRow, lang: Lang): [string, (k: StatementKindFigures) => string][] {
  const t = T[lang];
  const rows: [string, (k: StatementKindFigures) => string][] = [
    [t.current, (k) => fig(k.Current, lang)],
    [t.previous, (k) => fig(k.Previous, lang)],
    [t.lastYear, (k) => fig(k.LastYear, lang)],
  ];
  if (r.Kinds.some((k) => k.LastYearCorrected !== null))
    rows.push([t.corrected, (k) => fmt(k.LastYearCorrected, lang)]);
  rows.push([t.average, (k) => fmt(k.BuildingAverage, lang)]);
  if (r.Kinds.some((k) => k.BuildingAveragePerM2 !== null))
    rows.push([t.averageM2, (k) => fmt(k.BuildingAveragePerM2, lang, 4)]);
  if (r.Kinds.some((k) => k.Units !== null)) {
    rows.push([t.unitsRow, (k) => (k.Units === null ? '' : fmt(k.Units, lang))]);
    rows.push([t.qradRow, (k) => (k.Qrad === null ? '' : fmt(k.Qrad, lang))]);
  }
  return rows;
}

/** The figures table: one column per kind, one row per figure. */
function drawTable(doc: Doc, r: StatementRow, lang: Lang, top: number): number {
  const t = T[lang];
  const width = contentWidth(doc);
  const colW = (width - LABEL_W) / r.Kinds.length;
  let y = top;
  doc.font('bold').fontSize(10).fillColor('#000');
  r.Kinds.forEach((k, i) => {
    const x = LEFT + LABEL_W + i * colW;
    doc.font('bold').text(t.kinds[k.Kind], x, y, { width: colW - 6, align: 'right', lineBreak: false });
    doc.font('regular').text(t.units[k.Unit], x, y + 13, { width: colW - 6, align: 'right', lineBreak: false });
  });
  y += 32;
  rule(doc, LEFT, LEFT + width, y - 4);
  for (const [label, value] of tableRows(r, lang)) {
    doc
      .font(label === t.current ? 'bold' : 'regular')
      .fontSize(10)
      .fillColor('#000');
    // A label that wraps (a long one in Lithuanian) makes its row taller: the next row starts below it.
    const labelW = LABEL_W - 8;
    const height = doc.heightOfString(label, { width: labelW });
    doc.text(label, LEFT, y, { width: labelW });
    r.Kinds.forEach((k, i) => {
      doc.text(value(k), LEFT + LABEL_W + i * colW, y, { width: colW - 6, align: 'right', lineBreak: false });
    });
    y += Math.max(16, height + 4);
  }
  return y + 6;
}

/**
 * The notes beside the building's balance by its heat method (docs/heat-method.md): the parameters
 * and the hot water's losses. The balance and the flat's parts are drawn as bars (pdf-heat-bars.ts).
 */
function methodNotes(k: StatementKindFigures, lang: Lang): string[] {
  const t = T[lang];
  const b = k.HeatBalance;
  if (!b) return [];
  const f = (v: number | null) => fmt(v, lang);
  const notes: string[] = [];
  const parameters = parametersNote(b, lang);
  if (parameters) notes.push(parameters);
  if (b.HotWaterM3 !== null && b.HotWaterLossesM3 !== null)
    notes.push(t.losses(f(b.HotWaterM3), f(b.HotWaterLossesM3)));
  return notes;
}

/** The building line of allocators' kWh: the meter, what was subtracted for which flats, E; and the method. */
function kwhNotes(k: StatementKindFigures, lang: Lang): string[] {
  const t = T[lang];
  // A month split by the method: its bars say how kWh were found (pdf-heat-bars.ts); otherwise the note says why not.
  if (k.HeatBalance)
    return [
      ...(k.KwhMethod && k.HeatBalance.Status !== 'split' ? [t.methods[k.KwhMethod]('')] : []),
      ...methodNotes(k, lang),
    ];
  if (!k.KwhMethod) return [];
  const line = k.BuildingLine;
  const f = (v: number | null) => fmt(v, lang);
  const notes: string[] = [];
  if (line?.Subtracted.length) {
    const flats = line.Subtracted.map((s) => t.subtractedFlat(s.Flat, f(s.Kwh))).join(', ');
    notes.push(t.buildingLine(f(line.MeterKwh), f(line.SubtractedKwh), flats, f(line.AllocatorKwh)));
  } else if (line) notes.push(t.buildingLineNoFlats(f(line.MeterKwh)));
  notes.push(t.methods[k.KwhMethod](f(line?.AllocatorKwh ?? null)));
  return notes;
}

/** The note on `*`: what the partial values on the page are made of. */
function partialNote(r: StatementRow, lang: Lang): string[] {
  const t = T[lang];
  const shown = r.Kinds.flatMap((k) => [k.Current, k.Previous, k.LastYear]).filter(
    (f) => f.Partial && f.Value !== null,
  );
  if (!shown.length) return [];
  const used = MARKED.filter((m) => shown.some((f) => f.Sources.includes(m)));
  return [used.length ? `* – ${used.map((m) => t.sourceNotes[m]).join('; ')}` : t.partial];
}

/** The notes under the table: how kWh were found, the degree-days, the overdue devices, the late declarations, what `*` stands for. */
function notesOf(s: FlatStatement, lang: Lang): string[] {
  const t = T[lang];
  const r = s.Row;
  const notes = r.Kinds.flatMap((k) => kwhNotes(k, lang));
  if (s.DegreeDays && r.Kinds.some((k) => k.LastYearCorrected !== null))
    notes.push(t.degreeDays(fmtPlain(s.DegreeDays.Current, lang), fmtPlain(s.DegreeDays.LastYear, lang)));
  // Declared readings (docs/declared-readings.md) are named as such.
  if (r.Kinds.some((k) => k.Current.Sources.includes('declared'))) notes.push(t.declared);
  return [...notes, ...overdueNotes(r.Kinds, lang), ...lateNotes(r.Kinds, lang), ...partialNote(r, lang)];
}

function drawNotes(doc: Doc, s: FlatStatement, lang: Lang, top: number): number {
  let y = top;
  doc.font('regular').fontSize(8.5).fillColor('#444');
  for (const n of notesOf(s, lang)) {
    doc.text(n, LEFT, y, { width: contentWidth(doc) });
    y = doc.y + 3;
  }
  return y;
}

/** One kind's three bars: last year (corrected when known), this month, the building average. */
function drawKindBars(doc: Doc, k: StatementKindFigures, lang: Lang, x0: number, y: number, groupW: number): number {
  const t = T[lang];
  const pairH = 70;
  const barW = 30;
  // Each bar's slot holds its value and its label; a label wider than the slot wraps inside it.
  const slotW = Math.min(64, (groupW - 20) / 3);
  const bars = [
    {
      v: k.LastYearCorrected ?? k.LastYear.Value,
      color: LAST_YEAR,
      label: k.LastYearCorrected !== null ? t.barLastYearCorrected : t.barLastYear,
    },
    { v: k.Current.Value, color: KIND_COLORS[k.Kind], label: t.barCurrent },
    { v: k.BuildingAverage, color: AVERAGE, label: t.barAverage },
  ];
  const max = Math.max(1e-9, ...bars.map((b) => Math.max(0, b.v ?? 0)));
  rule(doc, x0, x0 + 3 * slotW, y + pairH);
  let below = y + pairH + 12;
  bars.forEach((b, j) => {
    const h = b.v === null ? 0 : (Math.max(0, b.v) / max) * pairH;
    const x = x0 + j * slotW;
    if (h > 0)
      doc
        .rect(x + (slotW - barW) / 2, y + pairH - h, barW, h)
        .fillColor(b.color)
        .fill();
    doc
      .font('regular')
      .fontSize(7)
      .fillColor('#000')
      .text(fmt(b.v, lang), x, y + pairH + 3, { width: slotW - 2, align: 'center', lineBreak: false });
    doc
      .fontSize(6.5)
      .fillColor('#666')
      .text(b.label, x, y + pairH + 12, { width: slotW - 2, align: 'center' });
    below = Math.max(below, doc.y);
  });
  return below;
}

/** A kind's caption under its bars. */
function drawKindCaption(doc: Doc, k: StatementKindFigures, lang: Lang, x0: number, y: number, groupW: number): number {
  const t = T[lang];
  doc
    .font('bold')
    .fontSize(8)
    .fillColor('#333')
    .text(`${t.kinds[k.Kind]} (${t.units[k.Unit]})`, x0, y, { width: groupW - 20 });
  return doc.y;
}

/** Bars: this month against the same month last year and the building average, each kind on its own scale. */
function drawYearBars(doc: Doc, r: StatementRow, lang: Lang, top: number): number {
  const y = top + 10;
  doc.font('bold').fontSize(10).fillColor('#000').text(T[lang].chartYear, LEFT, y);
  const groupW = contentWidth(doc) / r.Kinds.length;
  const x = (i: number) => LEFT + i * groupW + 6;
  // The captions on one line, below the lowest bar label (a label may wrap).
  const labels = Math.max(...r.Kinds.map((k, i) => drawKindBars(doc, k, lang, x(i), y + 18, groupW)));
  const captions = r.Kinds.map((k, i) => drawKindCaption(doc, k, lang, x(i), labels + 3, groupW));
  return Math.max(...captions) + 14;
}

/** The history chart's legend. */
function drawLegend(doc: Doc, lang: Lang, y: number): void {
  const t = T[lang];
  const legend: [string, string][] = [
    [LAST_YEAR, t.legendLastYear],
    ['', t.legendCurrent],
    [OTHER, t.legendOther],
    [PARTIAL, t.legendPartial],
  ];
  let lx = LEFT;
  doc.font('regular').fontSize(7).fillColor('#444');
  for (const [color, label] of legend) {
    if (color)
      doc
        .rect(lx, y + 1, 7, 7)
        .fillColor(color)
        .fill();
    // This month's bar has its kind's colour: the swatch shows each kind's.
    else
      for (const [j, c] of Object.values(KIND_COLORS).entries())
        doc
          .rect(lx + j * 2.4, y + 1, 2.4, 7)
          .fillColor(c)
          .fill();
    doc.fillColor('#444').text(label, lx + 10, y, { lineBreak: false });
    lx += 10 + doc.widthOfString(label) + 14;
  }
}

/** One kind's 13 months as bars; the same month last year and this month stand out. */
function drawHistoryRow(doc: Doc, h: FlatStatement['History'][number], lang: Lang, y: number, histH: number): void {
  const t = T[lang];
  const width = contentWidth(doc);
  const max = Math.max(1e-9, ...h.Months.map((m) => Math.max(0, m.Value ?? 0)));
  doc
    .font('regular')
    .fontSize(8)
    .fillColor('#444')
    .text(`${t.kinds[h.Kind]} (${t.units[h.Unit]})`, LEFT, y + histH / 2 - 4, { width: 90 });
  doc
    .fontSize(6.5)
    .text(fmt(max === 1e-9 ? 0 : max, lang), LEFT, y - 3, { width: 96, align: 'right', lineBreak: false });
  const slot = (width - 100) / h.Months.length;
  rule(doc, LEFT + 100, LEFT + width, y + histH);
  h.Months.forEach((m, i) => {
    const bh = m.Value === null ? 0 : (Math.max(0, m.Value) / max) * histH;
    const x = LEFT + 100 + i * slot;
    const last = i === h.Months.length - 1;
    const color = last ? KIND_COLORS[h.Kind] : i === 0 ? LAST_YEAR : m.Partial ? PARTIAL : OTHER;
    if (bh > 0)
      doc
        .rect(x + 2, y + histH - bh, slot - 4, bh)
        .fillColor(color)
        .fill();
    if (m.Value === null)
      doc
        .fontSize(7)
        .fillColor('#999')
        .text(t.missing, x, y + histH - 10, { width: slot, align: 'center' });
    // This month and last year's: a partial value keeps its colour and gets an outline.
    if (m.Partial && (last || i === 0) && bh > 0)
      doc
        .rect(x + 2, y + histH - bh, slot - 4, bh)
        .strokeColor(PARTIAL)
        .lineWidth(1.2)
        .stroke();
    doc
      .fontSize(6)
      .fillColor('#444')
      .text(m.Month.slice(2), x, y + histH + 2, { width: slot, align: 'center' });
  });
}

/**
 * The last 13 months per kind, as many as fit on the page: bars 50 pt high, lower (down to 36 pt)
 * where that lets every kind's row fit (a page with the heat balance's bars above).
 */
function drawHistory(doc: Doc, s: FlatStatement, lang: Lang, top: number): void {
  doc.font('bold').fontSize(10).fillColor('#000').text(T[lang].chartHistory, LEFT, top);
  drawLegend(doc, lang, top + 14);
  let y = top + 30;
  const bottom = doc.page.height - 50;
  // A row takes its bars, 18 pt of month labels and gap; the last row needs 10 pt of labels only.
  const histH = Math.max(36, Math.min(50, (bottom - y + 8) / Math.max(1, s.History.length) - 18));
  for (const h of s.History) {
    // A row (its bars and month labels) only where it ends above the footer.
    if (y + histH + 10 > bottom) break;
    drawHistoryRow(doc, h, lang, y, histH);
    y += histH + 18;
  }
}

/** One flat's page. */
export function drawPage(doc: Doc, s: FlatStatement, lang: Lang): void {
  let y = drawHeader(doc, s, lang);
  if (!s.Row.Kinds.length) {
    doc.fillColor('#000').fontSize(11).text(T[lang].none, LEFT, y);
    return;
  }
  y = drawTable(doc, s.Row, lang, y);
  y = drawNotes(doc, s, lang, y);
  for (const k of s.Row.Kinds) y = drawHeatBars(doc, k.HeatBalance, k.HeatParts, lang, y);
  y = drawYearBars(doc, s.Row, lang, y);
  drawHistory(doc, s, lang, y);
}

/** The page's footer: who made it, when, and the page of the building's file. */
export function drawFooter(doc: Doc, lang: Lang, page: number, pages: number, at: string): void {
  const bottom = doc.page.height - 40;
  const m = doc.page.margins.bottom;
  // Writing below the bottom margin would start a new page.
  doc.page.margins.bottom = 0;
  doc
    .font('regular')
    .fontSize(7)
    .fillColor('#888')
    .text(T[lang].footer(page, pages, at), LEFT, bottom, {
      width: doc.page.width - 100,
      align: 'right',
      lineBreak: false,
    });
  doc.page.margins.bottom = m;
}
