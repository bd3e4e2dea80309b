import { HEAT_BAR_PARTS, type StatementHeatBalance, type StatementHeatParts } from '@rodmenys/contract';
import { drawSplitBar, type PdfSplitPart, titleHeight } from './pdf-split-bar.js';
import { fmt, type Lang, T } from './pdf-texts.js';

/*
 * The heat balance of a flat's page as pictures (docs/statements.md, "The heat balance as a picture"):
 * the building's input as one bar of its seven parts and the flat's heat as one bar of its own parts,
 * side by side; an occupant's page draws the occupant's parts. Each bar is its own whole.
 */

type Doc = PDFKit.PDFDocument;
const LEFT = 50;
const GAP = 18;

const HT = {
  lt: {
    note: (method: string, from: string) =>
      `Šiluma padalyta pagal pastato metodą (${method} nuo ${from}). Kiekviena juosta – atskira visuma; skaičiai 1–8 abiejose juostose žymi tas pačias dalis.`,
    building: (input: string) => `Pastato įvadas: ${input} kWh – visa juosta`,
    flat: (total: string, share: string | null) =>
      `Jūsų butas: ${total} kWh – visa juosta${share ? ` (${share} įvado)` : ''}`,
    occupant: (total: string) => `Jūsų dalis pagal pastato metodą: iš viso ${total} kWh šilumos – visa juosta`,
    buildingParts: {
      hotWater: 'karštas vanduo',
      circulation: 'cirkuliacija',
      common: 'bendros patalpos',
      noDevice: 'butai be prietaiso',
      heatMeter: 'butų šilumos skaitikliai',
      base: 'bazinė dalis',
      consumption: 'pagal suvartojimą',
    },
    flatParts: {
      hotWater: 'karšto vandens šiluma',
      circulation: 'cirkuliacija',
      common: 'bendros patalpos',
      noDevice: 'be prietaiso (pagal plotą)',
      heatMeter: 'šilumos skaitiklis',
      base: 'bazinė',
      consumption: 'pagal suvartojimą',
      assigned: 'priskirta (minimumas)',
    },
  },
  en: {
    note: (method: string, from: string) =>
      `Heat split by the building's method (${method} from ${from}). Each bar is a whole of its own; the numbers 1–8 mark the same parts in both bars.`,
    building: (input: string) => `The building's input: ${input} kWh, the whole bar`,
    flat: (total: string, share: string | null) =>
      `Your flat: ${total} kWh, the whole bar${share ? ` (${share} of the input)` : ''}`,
    occupant: (total: string) => `Your part by the building's method: ${total} kWh of heat in all, the whole bar`,
    buildingParts: {
      hotWater: 'hot water',
      circulation: 'circulation',
      common: 'common areas',
      noDevice: 'flats without a device',
      heatMeter: 'flat heat meters',
      base: 'base part',
      consumption: 'by consumption',
    },
    flatParts: {
      hotWater: 'hot-water heat',
      circulation: 'circulation',
      common: 'common areas',
      noDevice: 'no device (by area)',
      heatMeter: 'heat meter',
      base: 'base',
      consumption: 'by consumption',
      assigned: 'assigned (minimum)',
    },
  },
} as const;

const percent = (s: number, lang: Lang) =>
  `${(s * 100).toLocaleString(lang === 'lt' ? 'lt-LT' : 'en-GB', { maximumFractionDigits: 1 })} %`;

/** A flat's or an occupant's parts: those it has none of are left out. */
const flatParts = (p: StatementHeatParts, lang: Lang): PdfSplitPart[] =>
  HEAT_BAR_PARTS.flatMap((x, i) =>
    p[x.Flat] !== 0 ? [{ label: HT[lang].flatParts[x.Name], value: p[x.Flat], pattern: i + 1 }] : [],
  );

/** Numbers as the page writes them. */
const writers = (lang: Lang) => ({ value: (v: number) => fmt(v, lang), share: (s: number) => percent(s, lang) });

/**
 * The building's bar and the flat's beside it, under a line saying what they are, from `top`;
 * nothing unless the month was split by the method. Returns the y below.
 */
export function drawHeatBars(
  doc: Doc,
  b: StatementHeatBalance | null,
  p: StatementHeatParts | null,
  lang: Lang,
  top: number,
): number {
  if (b?.Status !== 'split') return top;
  const ht = HT[lang];
  const width = doc.page.width - 100;
  const method = T[lang].methodNames[b.Method as keyof (typeof T)[Lang]['methodNames']] ?? b.Method;
  doc
    .font('regular')
    .fontSize(7)
    .fillColor('#444')
    .text(ht.note(method, b.ValidFrom), LEFT, top + 4, { width });
  const y = doc.y + 3;
  const half = (width - GAP) / 2;
  const share = p && b.InputKwh ? percent(p.Total / b.InputKwh, lang) : null;
  const titles = { building: ht.building(fmt(b.InputKwh, lang)), flat: p ? ht.flat(fmt(p.Total, lang), share) : '' };
  const titleH = Math.max(titleHeight(doc, titles.building, half), titleHeight(doc, titles.flat, half));
  const building = drawSplitBar(doc, {
    x: LEFT,
    y,
    width: p ? half : width,
    title: titles.building,
    titleH,
    parts: HEAT_BAR_PARTS.flatMap((x, i) =>
      x.Balance ? [{ label: ht.buildingParts[x.Name], value: b[x.Balance] ?? 0, pattern: i + 1 }] : [],
    ),
    ...writers(lang),
  });
  if (!p) return building + 4;
  const flat = drawSplitBar(doc, {
    x: LEFT + half + GAP,
    y,
    width: half,
    title: titles.flat,
    titleH,
    parts: flatParts(p, lang),
    ...writers(lang),
  });
  return Math.max(building, flat) + 4;
}

/** An occupant's parts by the building's method as one bar (their page of a flat with a move). */
export function drawOccupantHeatBar(doc: Doc, p: StatementHeatParts, lang: Lang, top: number): number {
  const width = (doc.page.width - 100 - GAP) / 2;
  return (
    drawSplitBar(doc, {
      x: LEFT,
      y: top,
      width,
      title: HT[lang].occupant(fmt(p.Total, lang)),
      parts: flatParts(p, lang),
      ...writers(lang),
    }) + 4
  );
}
