import { createRequire } from 'node:module';
import { PassThrough, type Readable } from 'node:stream';
import {
  type FlatStatement,
  LOCATION_LEVEL,
  type StatementFigure,
  type StatementKind,
  type StatementKindFigures,
} from '@rodmenys/contract';
import { Zip, ZipPassThrough } from 'fflate';
import PDFDocument from 'pdfkit';
import type { Queryable } from '../../db/db.js';
import { buildingIdOf, inScope } from '../sql.js';
import { monthName } from './notify.js';
import { loadStatements } from './statements.js';

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

type Lang = 'lt' | 'en';

const T = {
  lt: {
    title: 'Mėnesio suvartojimo ataskaita',
    flat: 'Butas',
    area: 'Plotas',
    client: 'Kliento kodas',
    kinds: { heating: 'Šildymas', hotWater: 'Karštas vanduo', coldWater: 'Šaltas vanduo' },
    units: { kWh: 'kWh', Qrad: 'Qrad', m3: 'm³' },
    current: 'Šis mėnuo',
    previous: 'Praėjęs mėnuo',
    lastYear: 'Tas pats mėnuo pernai',
    corrected: 'Pernai, perskaičiuota pagal dienolaipsnius',
    average: 'Pastato vidurkis (butui)',
    averageM2: 'Pastato vidurkis (m²)',
    unitsRow: 'Daliklių vienetai',
    qradRow: 'Qrad (vienetai × koeficientas)',
    methods: {
      buildingMeterByQrad: (kwh: string) =>
        `kWh: pastato šilumos skaitiklio energija (${kwh} kWh) padalyta butams pagal jų Qrad.`,
      noBuildingMeter: () => 'Pastate nėra šilumos skaitiklio: šildymas pateikiamas Qrad, kWh neskaičiuojamos.',
      incompleteBuilding: () => 'kWh neskaičiuojamos: trūksta pastato prietaisų mėnesio pabaigos reikšmių.',
    },
    degreeDays: (c: number, l: number) =>
      `Dienolaipsniai: šį mėnesį ${c}, pernai ${l}; perskaičiuota reikšmė = pernai × ${c} / ${l}.`,
    partial: '* reikšmė interpoliuota, įvertinta arba įvesta rankiniu būdu',
    marks: { interpolated: 'I', estimated: 'Į', manual: 'R' },
    markNotes: {
      interpolated: 'I – interpoliuota tarp rodmenų',
      estimated: 'Į – įvertinta (rodmenų nėra)',
      manual: 'R – įvesta rankiniu būdu',
    },
    missing: '–',
    chartYear: 'Šis mėnuo, tas pats mėnuo pernai ir pastato vidurkis',
    barLastYear: 'pernai',
    barLastYearCorrected: 'pernai, perskaič.',
    barCurrent: 'šis mėn.',
    barAverage: 'vidurkis',
    legendLastYear: 'tas pats mėnuo pernai',
    legendCurrent: 'šis mėnuo',
    legendPartial: 'su interpoliuotomis, įvertintomis ar rankinėmis reikšmėmis',
    legendOther: 'kiti mėnesiai',
    footer: (page: number, pages: number, at: string) => `Rodmenys · sudaryta ${at} · ${page} / ${pages}`,
    chartHistory: 'Paskutiniai 13 mėnesių',
    published: (v: number, at: string) => `Paskelbta (versija ${v}) ${at.slice(0, 10)}`,
    preliminary: 'Preliminari: mėnuo dar nepaskelbtas',
    none: 'Šiame bute nėra prietaisų.',
  },
  en: {
    title: 'Monthly consumption statement',
    flat: 'Flat',
    area: 'Area',
    client: 'Client code',
    kinds: { heating: 'Heating', hotWater: 'Hot water', coldWater: 'Cold water' },
    units: { kWh: 'kWh', Qrad: 'Qrad', m3: 'm³' },
    current: 'This month',
    previous: 'Previous month',
    lastYear: 'Same month last year',
    corrected: 'Last year, corrected by degree-days',
    average: 'Building average (per flat)',
    averageM2: 'Building average (per m²)',
    unitsRow: 'Allocator units',
    qradRow: 'Qrad (units × rating factor)',
    methods: {
      buildingMeterByQrad: (kwh: string) =>
        `kWh: the building heat meter's energy (${kwh} kWh) shared among the flats by their Qrad.`,
      noBuildingMeter: () => 'The building has no heat meter: heating is given in Qrad, no kWh are computed.',
      incompleteBuilding: () => 'No kWh: month-end values of devices in the building are missing.',
    },
    degreeDays: (c: number, l: number) =>
      `Degree-days: ${c} this month, ${l} a year before; corrected value = last year × ${c} / ${l}.`,
    partial: '* value interpolated, estimated or set by hand',
    marks: { interpolated: 'I', estimated: 'E', manual: 'M' },
    markNotes: {
      interpolated: 'I – interpolated between readings',
      estimated: 'E – estimated (no readings)',
      manual: 'M – set by hand',
    },
    missing: '–',
    chartYear: 'This month, the same month last year and the building average',
    barLastYear: 'last year',
    barLastYearCorrected: 'last year, corr.',
    barCurrent: 'this month',
    barAverage: 'average',
    legendLastYear: 'same month last year',
    legendCurrent: 'this month',
    legendPartial: 'with interpolated, estimated or manual values',
    legendOther: 'other months',
    footer: (page: number, pages: number, at: string) => `Rodmenys · made ${at} · ${page} / ${pages}`,
    chartHistory: 'The last 13 months',
    published: (v: number, at: string) => `Published (version ${v}) ${at.slice(0, 10)}`,
    preliminary: 'Preliminary: the month is not published yet',
    none: 'This flat has no devices.',
  },
};

const KIND_COLORS: Record<StatementKind, string> = { heating: '#c0392b', hotWater: '#d35400', coldWater: '#2471a3' };
const LAST_YEAR = '#7f8c8d';
const AVERAGE = '#5d6d7e';
const OTHER = '#d5dbdb';
const PARTIAL = '#f4d03f';

const fmt = (v: number | null | undefined, lang: Lang, digits = 3) =>
  v === null || v === undefined
    ? T[lang].missing
    : v.toLocaleString(lang === 'lt' ? 'lt-LT' : 'en-GB', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
const MARKED = ['interpolated', 'estimated', 'manual'] as const;
type Marked = (typeof MARKED)[number];
/** The sources that make a figure partial, each once, in a fixed order. */
const markedSources = (f: StatementFigure): Marked[] => MARKED.filter((m) => f.Sources.includes(m));
/** A figure with its markers: the letter of each substituted source (`*` if the sources are not known). */
const fig = (f: StatementFigure, lang: Lang) => {
  if (f.Value === null || !f.Partial) return fmt(f.Value, lang);
  const marks = markedSources(f).map((m) => T[lang].marks[m]);
  return `${fmt(f.Value, lang)} ${marks.length ? marks.join('') : '*'}`;
};

/** One flat's page. */
function drawPage(doc: PDFKit.PDFDocument, s: FlatStatement, lang: Lang): void {
  const t = T[lang];
  const r = s.Row;
  const left = 50;
  const width = doc.page.width - 100;
  doc.font('bold').fontSize(16).fillColor('#000').text(t.title, left, 50);
  doc.font('regular').fontSize(11).text(monthName(s.Month, lang), left, 72);
  const address = [r.City, [r.Street, r.Building].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  doc.font('bold').fontSize(12).text(`${address}, ${t.flat.toLowerCase()} ${r.Flat}`, left, 96, { width });
  const facts = [
    r.AreaM2 !== null ? `${t.area}: ${fmt(r.AreaM2, lang, 2)} m²` : null,
    r.ClientCode ? `${t.client}: ${r.ClientCode}` : null,
  ].filter(Boolean);
  doc.font('regular').fontSize(9).fillColor('#444').text(facts.join('   ·   '), left, 114);
  doc
    .fillColor(r.Published ? '#1d6b2f' : '#8a5a00')
    .text(r.Published ? t.published(r.Published.Version, r.Published.PublishedAt) : t.preliminary, left, 128);

  let y = 150;
  if (!r.Kinds.length) {
    doc.fillColor('#000').fontSize(11).text(t.none, left, y);
    return;
  }
  // The figures table: one column per kind.
  const labelW = 200;
  const colW = (width - labelW) / r.Kinds.length;
  doc.font('bold').fontSize(10).fillColor('#000');
  r.Kinds.forEach((k, i) => {
    const x = left + labelW + i * colW;
    doc.font('bold').text(t.kinds[k.Kind], x, y, { width: colW - 6, align: 'right', lineBreak: false });
    doc.font('regular').text(t.units[k.Unit], x, y + 13, { width: colW - 6, align: 'right', lineBreak: false });
  });
  y += 32;
  doc
    .moveTo(left, y - 4)
    .lineTo(left + width, y - 4)
    .strokeColor('#999')
    .lineWidth(0.5)
    .stroke();
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
  for (const [label, value] of rows) {
    doc
      .font(label === t.current ? 'bold' : 'regular')
      .fontSize(10)
      .fillColor('#000')
      .text(label, left, y, {
        width: labelW,
      });
    r.Kinds.forEach((k, i) => {
      doc.text(value(k), left + labelW + i * colW, y, { width: colW - 6, align: 'right' });
    });
    y += 16;
  }
  y += 6;
  doc.font('regular').fontSize(8.5).fillColor('#444');
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
  for (const n of notes) {
    doc.text(n, left, y, { width });
    y = doc.y + 3;
  }

  // Bars: this month against the same month last year (corrected when known) and the building
  // average, per kind, each kind on its own scale.
  y += 10;
  doc.font('bold').fontSize(10).fillColor('#000').text(t.chartYear, left, y);
  y += 18;
  const pairH = 70;
  const groupW = width / r.Kinds.length;
  const barW = 30;
  r.Kinds.forEach((k, i) => {
    const x0 = left + i * groupW + 10;
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
    doc
      .moveTo(x0 - 4, y + pairH)
      .lineTo(x0 + 3 * (barW + 14) - 10, y + pairH)
      .strokeColor('#999')
      .lineWidth(0.5)
      .stroke();
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
  });
  y += pairH + 46;

  // Bars: the last 13 months per kind; the same month last year and this month stand out.
  doc.font('bold').fontSize(10).fillColor('#000').text(t.chartHistory, left, y);
  y += 14;
  const legend: [string, string][] = [
    [LAST_YEAR, t.legendLastYear],
    ['', t.legendCurrent],
    [OTHER, t.legendOther],
    [PARTIAL, t.legendPartial],
  ];
  let lx = left;
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
  y += 16;
  const histH = 50;
  for (const h of s.History) {
    const max = Math.max(1e-9, ...h.Months.map((m) => Math.max(0, m.Value ?? 0)));
    doc
      .font('regular')
      .fontSize(8)
      .fillColor('#444')
      .text(`${t.kinds[h.Kind]} (${t.units[h.Unit]})`, left, y + histH / 2 - 4, { width: 90 });
    doc
      .fontSize(6.5)
      .text(fmt(max === 1e-9 ? 0 : max, lang), left, y - 3, { width: 96, align: 'right', lineBreak: false });
    const slot = (width - 100) / h.Months.length;
    doc
      .moveTo(left + 100, y + histH)
      .lineTo(left + width, y + histH)
      .strokeColor('#999')
      .lineWidth(0.5)
      .stroke();
    h.Months.forEach((m, i) => {
      const bh = m.Value === null ? 0 : (Math.max(0, m.Value) / max) * histH;
      const x = left + 100 + i * slot;
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
    y += histH + 18;
    if (y > doc.page.height - 110) break;
  }
}

/** The page's footer: who made it, when, and the page of the building's file. */
function drawFooter(doc: PDFKit.PDFDocument, lang: Lang, page: number, pages: number, at: string) {
  const bottom = doc.page.height - 40;
  const m = doc.page.margins.bottom;
  // Writing below the bottom margin would start a new page.
  doc.page.margins.bottom = 0;
  doc
    .font('regular')
    .fontSize(7)
    .fillColor('#888')
    .text(T[lang].footer(page, pages, at), 50, bottom, {
      width: doc.page.width - 100,
      align: 'right',
      lineBreak: false,
    });
  doc.page.margins.bottom = m;
}

/** A building's statements as one PDF, written to `out` page by page. */
export function renderBuildingPdf(statements: readonly FlatStatement[], lang: Lang): Readable {
  const doc = new PDFDocument({ size: 'A4', margin: 50, autoFirstPage: false, info: { Title: T[lang].title } });
  doc.registerFont('regular', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const at = new Date().toISOString().slice(0, 10);
  statements.forEach((s, i) => {
    doc.addPage();
    drawPage(doc, s, lang);
    drawFooter(doc, lang, i + 1, statements.length, at);
  });
  if (!statements.length) doc.addPage().font('regular').fontSize(11).text(T[lang].none);
  doc.end();
  return doc;
}

/** The buildings of a selection that hold flats, in address order, with a file name each. */
async function selectionBuildings(db: Queryable, scope: number[] | null, parents: number[] | null) {
  const { rows } = await db.query<{ id: number; name: string }>(
    `SELECT b.id, concat_ws(' ', b.city, b.street, b.building) AS name
       FROM location b
      WHERE b.level = ${LOCATION_LEVEL.building} AND EXISTS (
        SELECT FROM location f WHERE f.level = ${LOCATION_LEVEL.flat} AND ${buildingIdOf('f')} = b.id
           AND ${inScope('f', '$1')} AND ${inScope('f', '$2')})
      ORDER BY b.country, b.county, b.region, b.city, b.street, building_number(b.building), b.building`,
    [scope, parents],
  );
  return rows;
}

const fileName = (name: string, month: string) =>
  `${month}-${
    name
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .replace(/\s+/g, '-') || 'building'
  }.pdf`;

/**
 * The PDF answer of a selection: one building → its PDF; several → a zip of one PDF per
 * building, built building by building. Null when the selection holds no flat.
 */
export async function statementsPdf(
  db: Queryable,
  input: { month: string; scope: number[] | null; parents: number[] | null; lang: Lang },
): Promise<{ kind: 'pdf' | 'zip'; name: string; stream: Readable } | null> {
  const buildings = await selectionBuildings(db, input.scope, input.parents);
  if (!buildings.length) return null;
  // The selection's flats of one building, then their statements.
  const statementsOf = async (b: { id: number }) => {
    const { rows } = await db.query<{ id: number }>(
      `SELECT f.id FROM location f WHERE f.level = ${LOCATION_LEVEL.flat} AND ${buildingIdOf('f')} = $1
          AND ${inScope('f', '$2')} AND ${inScope('f', '$3')}`,
      [b.id, input.scope, input.parents],
    );
    return loadStatements(db, input.month, { scope: input.scope, flatIds: rows.map((r) => r.id) });
  };
  if (buildings.length === 1) {
    const b = buildings[0]!;
    return {
      kind: 'pdf',
      name: fileName(b.name, input.month),
      stream: renderBuildingPdf(await statementsOf(b), input.lang),
    };
  }
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
      const pdf = renderBuildingPdf(await statementsOf(b), input.lang);
      for await (const chunk of pdf) {
        entry.push(chunk as Uint8Array);
        // Backpressure: a slow client holds the next building back instead of filling memory.
        if (out.writableNeedDrain) await new Promise((resolve) => out.once('drain', resolve));
      }
      entry.push(new Uint8Array(0), true);
    }
    zip.end();
  })().catch((err) => out.destroy(err));
  return { kind: 'zip', name: `statements-${input.month}.zip`, stream: out };
}
