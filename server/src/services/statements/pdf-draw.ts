import type { FlatStatement, StatementKind, StatementKindFigures, StatementRow } from '@rodmenys/contract';
import { monthName } from '../month-name.js';
import { fig, fmt, type Lang, MARKED, markedSources, T } from './pdf-texts.js';

/*
 * One flat's page of the statements PDF (docs/statements.md), drawn with pdfkit top down: the
 * header, the figures table, the notes, this month's bars and the last 13 months' bars; and the
 * footer. Each step takes the y it starts at and returns the y below it.
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
      .fillColor('#000')
      .text(label, LEFT, y, { width: LABEL_W });
    r.Kinds.forEach((k, i) => {
      doc.text(value(k), LEFT + LABEL_W + i * colW, y, { width: colW - 6, align: 'right' });
    });
    y += 16;
  }
  return y + 6;
}

/** The notes under the table: how kWh were found, the degree-days, the markers used. */
function notesOf(s: FlatStatement, lang: Lang): string[] {
  const t = T[lang];
  const r = s.Row;
  const notes: string[] = [];
  for (const k of r.Kinds) if (k.KwhMethod) notes.push(t.methods[k.KwhMethod](fmt(k.BuildingKwh, lang)));
  if (s.DegreeDays && r.Kinds.some((k) => k.LastYearCorrected !== null))
    notes.push(t.degreeDays(s.DegreeDays.Current, s.DegreeDays.LastYear));
  // One note per marker used on the page; `*` only for a partial figure whose sources are not known.
  const shown = r.Kinds.flatMap((k) => [k.Current, k.Previous, k.LastYear]).filter(
    (f) => f.Partial && f.Value !== null,
  );
  const used = MARKED.filter((m) => shown.some((f) => f.Sources.includes(m)));
  if (used.length) notes.push(used.map((m) => t.markNotes[m]).join('; '));
  if (shown.some((f) => !markedSources(f).length)) notes.push(t.partial);
  return notes;
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
function drawKindBars(doc: Doc, k: StatementKindFigures, lang: Lang, x0: number, y: number, groupW: number): void {
  const t = T[lang];
  const pairH = 70;
  const barW = 30;
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
  rule(doc, x0 - 4, x0 + 3 * (barW + 14) - 10, y + pairH);
  bars.forEach((b, j) => {
    const h = b.v === null ? 0 : (Math.max(0, b.v) / max) * pairH;
    const x = x0 + j * (barW + 14);
    if (h > 0)
      doc
        .rect(x, y + pairH - h, barW, h)
        .fillColor(b.color)
        .fill();
    doc
      .font('regular')
      .fontSize(7)
      .fillColor('#000')
      .text(fmt(b.v, lang), x - 7, y + pairH + 3, { width: barW + 14, align: 'center', lineBreak: false });
    doc
      .fontSize(6.5)
      .fillColor('#666')
      .text(b.label, x - 7, y + pairH + 12, { width: barW + 14, align: 'center', lineBreak: false });
  });
  doc
    .font('bold')
    .fontSize(8)
    .fillColor('#333')
    .text(`${t.kinds[k.Kind]} (${t.units[k.Unit]})`, x0 - 4, y + pairH + 24, { width: groupW - 20 });
}

/** Bars: this month against the same month last year and the building average, each kind on its own scale. */
function drawYearBars(doc: Doc, r: StatementRow, lang: Lang, top: number): number {
  const y = top + 10;
  doc.font('bold').fontSize(10).fillColor('#000').text(T[lang].chartYear, LEFT, y);
  const groupW = contentWidth(doc) / r.Kinds.length;
  r.Kinds.forEach((k, i) => {
    drawKindBars(doc, k, lang, LEFT + i * groupW + 10, y + 18, groupW);
  });
  return y + 18 + 70 + 46;
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
function drawHistoryRow(doc: Doc, h: FlatStatement['History'][number], lang: Lang, y: number): void {
  const t = T[lang];
  const width = contentWidth(doc);
  const histH = 50;
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

/** The last 13 months per kind, as many as fit on the page. */
function drawHistory(doc: Doc, s: FlatStatement, lang: Lang, top: number): void {
  doc.font('bold').fontSize(10).fillColor('#000').text(T[lang].chartHistory, LEFT, top);
  drawLegend(doc, lang, top + 14);
  let y = top + 30;
  for (const h of s.History) {
    drawHistoryRow(doc, h, lang, y);
    y += 50 + 18;
    if (y > doc.page.height - 110) break;
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
