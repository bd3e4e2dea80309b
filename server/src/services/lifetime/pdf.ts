import type { Readable } from 'node:stream';
import type { DueRow, RemoteRegister } from '@rodmenys/contract';
import PDFDocument from 'pdfkit';
import type { Queryable } from '../../db/db.js';
import { PDF_FONTS } from '../statements/pdf.js';
import type { Lang } from '../statements/pdf-texts.js';

/*
 * The lifetime PDFs (docs/device-lifetime.md): a fitter's work list of due devices and the
 * remote-reading register, drawn with pdfkit as plain tables (DejaVu Sans, so Lithuanian letters
 * survive), a header row repeated on every page.
 */

type Doc = PDFKit.PDFDocument;

export const LIFETIME_PDF_TEXTS = {
  lt: {
    workList: 'Prietaisų keitimo darbų sąrašas',
    register: 'Nuotolinio nuskaitymo registras',
    made: 'Sudaryta',
    address: 'Adresas',
    flat: 'Butas',
    type: 'Tipas',
    serial: 'Numeris',
    due: 'Terminas',
    reason: 'Priežastis',
    done: 'Atlikta',
    reasons: { verification: 'Patikra', battery: 'Baterija' },
    none: 'Sąrašas tuščias.',
    deadline: (d: string, left: number) => `Terminas ${d}: liko ${left} d.`,
    summary: (dev: number, rem: number, pct: string, late: number) =>
      `Prietaisų: ${dev}, nuotoliniu būdu nuskaitomų: ${rem} (${pct} %), įrengtų po 2020-10-25 ir ne nuotolinių: ${late}`,
    devices: 'Prietaisai',
    remote: 'Nuotoliniai',
    percent: '%',
    late: 'Po 2020-10-25 ne nuotoliniai',
    exception: 'Išimtis',
    page: (n: number, of: number) => `${n} psl. iš ${of}`,
    file: { workList: 'darbu-sarasas', register: 'nuotolinio-nuskaitymo-registras' },
  },
  en: {
    workList: 'Device exchange work list',
    register: 'Remote-reading register',
    made: 'Made',
    address: 'Address',
    flat: 'Flat',
    type: 'Type',
    serial: 'Serial',
    due: 'Due',
    reason: 'Reason',
    done: 'Done',
    reasons: { verification: 'Verification', battery: 'Battery' },
    none: 'The list is empty.',
    deadline: (d: string, left: number) => `Deadline ${d}: ${left} days left.`,
    summary: (dev: number, rem: number, pct: string, late: number) =>
      `Devices: ${dev}, read remotely: ${rem} (${pct} %), installed after 2020-10-25 and not remote: ${late}`,
    devices: 'Devices',
    remote: 'Remote',
    percent: '%',
    late: 'After 2020-10-25 not remote',
    exception: 'Exception',
    page: (n: number, of: number) => `Page ${n} of ${of}`,
    file: { workList: 'work-list', register: 'remote-reading-register' },
  },
} as const;

/** The device types' names in a language, by id. */
export async function typeNames(db: Queryable, lang: Lang): Promise<Map<number, string>> {
  const { rows } = await db.query<{ id: number; name: string }>(
    `SELECT id, ${lang === 'lt' ? 'name_lt' : 'name_en'} AS name FROM device_type`,
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

interface Column {
  title: string;
  width: number;
}

/** A table of text rows (the lifetime, campaign and declarations print-list PDFs) over as many pages as it needs, the header on each; every page numbered. */
export function drawTable(
  doc: Doc,
  title: string,
  lines: string[],
  columns: Column[],
  rows: string[][],
  lang: Lang,
): void {
  const t = LIFETIME_PDF_TEXTS[lang];
  const left = 40;
  const bottom = doc.page.height - 60;
  let y = 0;
  const header = () => {
    doc.font('bold').fontSize(14).fillColor('#000').text(title, left, 40);
    y = 62;
    doc.font('regular').fontSize(9).fillColor('#444');
    for (const line of lines) {
      doc.text(line, left, y, { width: doc.page.width - 2 * left });
      y = doc.y + 2;
    }
    y += 6;
    let x = left;
    doc.font('bold').fontSize(8.5).fillColor('#000');
    for (const c of columns) {
      doc.text(c.title, x, y, { width: c.width - 4 });
      x += c.width;
    }
    y = doc.y + 4;
    doc
      .moveTo(left, y - 2)
      .lineTo(x, y - 2)
      .strokeColor('#999')
      .lineWidth(0.5)
      .stroke();
  };
  header();
  if (!rows.length)
    doc
      .font('regular')
      .fontSize(10)
      .text(t.none, left, y + 4);
  for (const row of rows) {
    doc.font('regular').fontSize(8.5).fillColor('#000');
    const height = Math.max(...row.map((cell, i) => doc.heightOfString(cell, { width: columns[i]!.width - 4 })));
    if (y + height > bottom) {
      doc.addPage();
      header();
      doc.font('regular').fontSize(8.5).fillColor('#000');
    }
    let x = left;
    row.forEach((cell, i) => {
      doc.text(cell, x, y, { width: columns[i]!.width - 4 });
      x += columns[i]!.width;
    });
    y += height + 3;
  }
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc
      .font('regular')
      .fontSize(8)
      .fillColor('#666')
      .text(t.page(i + 1, range.count), left, doc.page.height - 40, { lineBreak: false });
  }
}

export function newDoc(title: string): Doc {
  const doc = new PDFDocument({ size: 'A4', margin: 40, bufferPages: true, info: { Title: title } });
  doc.registerFont('regular', PDF_FONTS.regular);
  doc.registerFont('bold', PDF_FONTS.bold);
  return doc;
}

/** The due devices as a fitter's work list: one line per device, in the due list's address order. */
export function renderWorkList(
  rows: readonly DueRow[],
  types: Map<number, string>,
  lang: Lang,
  today: string,
): Readable {
  const t = LIFETIME_PDF_TEXTS[lang];
  const doc = newDoc(t.workList);
  drawTable(
    doc,
    t.workList,
    [`${t.made}: ${today}`],
    [
      { title: t.address, width: 140 },
      { title: t.flat, width: 35 },
      { title: t.type, width: 105 },
      { title: t.serial, width: 80 },
      { title: t.due, width: 58 },
      { title: t.reason, width: 55 },
      { title: t.done, width: 42 },
    ],
    rows.map((r) => [
      r.Address,
      r.Flat ?? '',
      types.get(r.DeviceTypeId) ?? String(r.DeviceTypeId),
      r.DeviceCode,
      r.DueDate,
      t.reasons[r.Reason],
      '☐',
    ]),
    lang,
  );
  doc.end();
  return doc;
}

/** The remote-reading register: the summary, then one line per building. */
export function renderRegister(register: RemoteRegister, lang: Lang): Readable {
  const t = LIFETIME_PDF_TEXTS[lang];
  const s = register.Summary;
  const pct = (p: number | null) => (p === null ? '–' : p.toLocaleString(lang === 'lt' ? 'lt-LT' : 'en-GB'));
  const doc = newDoc(t.register);
  drawTable(
    doc,
    t.register,
    [
      `${t.made}: ${register.Today}. ${t.deadline(register.Deadline, register.DaysLeft)}`,
      t.summary(s.Devices, s.Remote, pct(s.RemotePercent), s.LateNotRemote),
    ],
    [
      { title: t.address, width: 170 },
      { title: t.devices, width: 50 },
      { title: t.remote, width: 55 },
      { title: t.percent, width: 40 },
      { title: t.late, width: 75 },
      { title: t.exception, width: 125 },
    ],
    register.Buildings.map((b) => [
      b.Address,
      String(b.Devices),
      String(b.Remote),
      pct(b.RemotePercent),
      String(b.LateNotRemote.length),
      b.Exception
        ? `${b.Exception.Note} (${b.Exception.NotedAt.slice(0, 10)}${b.Exception.NotedBy ? `, ${b.Exception.NotedBy}` : ''})`
        : '',
    ]),
    lang,
  );
  doc.end();
  return doc;
}
