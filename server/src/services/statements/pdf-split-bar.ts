/*
 * A whole split into its parts drawn on a PDF page with pdfkit (docs/statements.md, "The heat balance
 * as a picture"): one horizontal bar, each part a segment as wide as its share, filled with its own
 * pattern as well as its colour, bordered, numbered where it has room; under it a legend naming each
 * part with its number, value and share. The parts read without colour (printed in greyscale), and
 * the legend's words and numbers are the PDF's text.
 */

type Doc = PDFKit.PDFDocument;

export interface PdfSplitPart {
  label: string;
  value: number;
  /** 1..8: the part's pattern and its number; the same part has the same one in every bar. */
  pattern: number;
}

const INK = '#1f1f1f';
/** Each pattern's ground and its lines (the web's split-bar.css draws the same ones). */
const PATTERNS: Record<number, { ground: string; ink: string }> = {
  1: { ground: '#f8c9a0', ink: '#8a3b00' },
  2: { ground: '#f5e3a3', ink: '#6b5200' },
  3: { ground: '#cfe3c3', ink: '#2f5d1e' },
  4: { ground: '#ddd5f0', ink: '#4b3a7a' },
  5: { ground: '#bfe0e6', ink: '#1f5661' },
  6: { ground: '#e4e4e4', ink: '#444444' },
  7: { ground: '#f2a59c', ink: '#f2a59c' },
  8: { ground: '#dfe8f3', ink: '#555555' },
};
const BAR_H = 14;
const ROW_H = 8.5;
/** A segment narrower than this has no room for its number (the legend has it). */
const KEY_MIN_W = 13;

/** The lines of pattern `n` inside the box, clipped to it. */
function hatch(doc: Doc, n: number, x: number, y: number, w: number, h: number): void {
  const p = PATTERNS[n] ?? PATTERNS[7]!;
  doc.rect(x, y, w, h).fillColor(p.ground).fill();
  if (n === 7) return;
  doc.save();
  doc.rect(x, y, w, h).clip();
  doc
    .strokeColor(p.ink)
    .fillColor(p.ink)
    .lineWidth(n === 3 || n === 8 ? 0.35 : 0.8);
  const step = n === 3 || n === 8 ? 3 : 3.6;
  if (n === 1 || n === 3)
    for (let d = -h; d < w; d += step)
      doc
        .moveTo(x + d, y + h)
        .lineTo(x + d + h, y)
        .stroke();
  if (n === 6 || n === 3)
    for (let d = -h; d < w; d += step)
      doc
        .moveTo(x + d, y)
        .lineTo(x + d + h, y + h)
        .stroke();
  if (n === 2 || n === 8)
    for (let d = step / 2; d < h; d += step)
      doc
        .moveTo(x, y + d)
        .lineTo(x + w, y + d)
        .stroke();
  if (n === 5 || n === 8)
    for (let d = step / 2; d < w; d += step)
      doc
        .moveTo(x + d, y)
        .lineTo(x + d, y + h)
        .stroke();
  if (n === 4)
    for (let dy = 1.75; dy < h; dy += 3.5)
      for (let dx = 1.75; dx < w; dx += 3.5) doc.circle(x + dx, y + dy, 0.7).fill();
  doc.restore();
}

/** A part's number on a white chip with a border, centred at (cx, cy). */
function key(doc: Doc, n: number, cx: number, cy: number): void {
  const w = 9;
  const h = 9;
  doc
    .rect(cx - w / 2, cy - h / 2, w, h)
    .fillColor('#ffffff')
    .fill();
  doc
    .rect(cx - w / 2, cy - h / 2, w, h)
    .strokeColor(INK)
    .lineWidth(0.5)
    .stroke();
  doc
    .font('bold')
    .fontSize(6.5)
    .fillColor('#000')
    .text(String(n), cx - w / 2, cy - 3.4, { width: w, align: 'center', lineBreak: false });
}

const titleFont = (doc: Doc) => doc.font('bold').fontSize(7).fillColor('#000');

/** The height of a bar's title across `width`. */
export function titleHeight(doc: Doc, title: string, width: number): number {
  return titleFont(doc).heightOfString(title, { width });
}

/**
 * The bar of `parts` with its title above and its legend below, from (x, y) across `width`; the
 * value and share of a part as `value(v)` and `share(s)` write them. Returns the y below the legend.
 */
export function drawSplitBar(
  doc: Doc,
  opts: {
    x: number;
    y: number;
    width: number;
    title: string;
    parts: readonly PdfSplitPart[];
    value: (v: number) => string;
    share: (s: number) => string;
    /** Bars side by side start at one height: the taller title's (titleHeight). */
    titleH?: number;
  },
): number {
  const { x, width, parts } = opts;
  titleFont(doc).text(opts.title, x, opts.y, { width });
  const top = opts.y + Math.max(titleHeight(doc, opts.title, width), opts.titleH ?? 0) + 2;
  const total = parts.reduce((s, p) => s + Math.max(0, p.value), 0);
  const shares = parts.map((p) => (total > 0 ? Math.max(0, p.value) / total : 0));
  // A part too small to draw at its share still shows as a sliver; the others give way for it.
  const drawn = shares.filter((s) => s > 0).length;
  const sliver = 1.5;
  const room = width - drawn * sliver;
  let cx = x;
  parts.forEach((p, i) => {
    const s = shares[i]!;
    if (s <= 0) return;
    const w = sliver + s * room;
    hatch(doc, p.pattern, cx, top, w, BAR_H);
    doc.rect(cx, top, w, BAR_H).strokeColor(INK).lineWidth(0.6).stroke();
    if (w >= KEY_MIN_W) key(doc, p.pattern, cx + w / 2, top + BAR_H / 2);
    cx += w;
  });
  if (!drawn) doc.rect(x, top, width, BAR_H).strokeColor(INK).lineWidth(0.6).stroke();
  // The legend: swatch, number, name, value and share, one part a row.
  let y = top + BAR_H + 4;
  const shareW = 34;
  const valueW = 62;
  const labelX = x + 30;
  const labelW = width - 30 - valueW - shareW;
  parts.forEach((p, i) => {
    hatch(doc, p.pattern, x, y, 14, 7);
    doc.rect(x, y, 14, 7).strokeColor(INK).lineWidth(0.5).stroke();
    key(doc, p.pattern, x + 22, y + 3.5);
    doc.font('regular').fontSize(7).fillColor('#000');
    const h = doc.heightOfString(p.label, { width: labelW });
    doc.text(p.label, labelX, y - 0.5, { width: labelW });
    doc.text(opts.value(p.value), labelX + labelW, y - 0.5, { width: valueW, align: 'right', lineBreak: false });
    doc.fillColor('#444').text(opts.share(shares[i]!), labelX + labelW + valueW, y - 0.5, {
      width: shareW,
      align: 'right',
      lineBreak: false,
    });
    y += Math.max(ROW_H, h + 1.5);
  });
  return y;
}
