import { monthName } from '../month-name.js';
import type { Lang } from '../statements/pdf-texts.js';

/*
 * The letter that carries an occupant's code by post (docs/delivery.md): drawn with pdfkit on the
 * page before their statement, in the occupancy's language.
 */

type Doc = PDFKit.PDFDocument;
const LEFT = 50;

/** What one letter says: to whom, where, which month, the code and where to type it. */
export interface Letter {
  name: string;
  /** Street and building number. */
  street: string;
  city: string;
  flat: string;
  /** The number the code page asks for with the code: the flat's id in Rodmenys (contract/src/occupant.ts). */
  flatNumber: number;
  month: string;
  code: string;
  /** The page where the code is typed (absolute). */
  codeUrl: string;
}

const LT = {
  title: 'Jūsų mėnesio suvartojimo informacija',
  flat: 'butas',
  intro: (month: string) =>
    `Siunčiame jūsų buto ${month} suvartojimo informaciją (kitame lape). Ją ir ankstesnius mėnesius galite matyti internete:`,
  steps: (url: string, number: number) => [
    `1. Atidarykite ${url}`,
    `2. Įveskite numerį ${number} (jūsų buto numeris mūsų sistemoje) ir šį kodą:`,
  ],
  replaces:
    'Šis kodas pakeičia anksčiau jums siųstą kodą: senasis nebegalioja. Kodą saugokite ir neperduokite kitiems.',
  why:
    'Šį laišką gaunate, nes neturime jūsų el. pašto adreso arba sutikimo informaciją gauti elektroniniu būdu. ' +
    'Norėdami gauti ją el. paštu, susisiekite su mumis arba įjunkite tai savo puslapyje.',
};
const EN: typeof LT = {
  title: 'Your monthly consumption information',
  flat: 'flat',
  intro: (month: string) =>
    `Here is the consumption information of your flat for ${month} (next page). You can also see it, and earlier months, online:`,
  steps: (url: string, number: number) => [
    `1. Open ${url}`,
    `2. Type the number ${number} (your flat's number in our system) and this code:`,
  ],
  replaces: 'This code replaces any code sent to you before: the old one no longer works. Keep it to yourself.',
  why:
    'You get this letter because we have no e-mail address for you or no consent to electronic delivery. ' +
    'To get it by e-mail instead, contact us or switch it on on your page.',
};

/** The letter page: the address block, the month, how to open it online, the code, why a letter. */
export function drawLetter(doc: Doc, l: Letter, lang: Lang): void {
  const t = lang === 'lt' ? LT : EN;
  const width = doc.page.width - 100;
  doc.font('regular').fontSize(11).fillColor('#000');
  doc.text(l.name, LEFT, 90, { width: 260 });
  doc.text(`${l.street}-${l.flat}`, { width: 260 });
  doc.text(l.city, { width: 260 });
  doc.font('bold').fontSize(16).text(t.title, LEFT, 220, { width });
  doc
    .font('regular')
    .fontSize(11)
    .text(`${monthName(l.month, lang)} · ${t.flat} ${l.flat}`, LEFT, 246, { width });
  doc.text(t.intro(monthName(l.month, lang)), LEFT, 280, { width });
  doc.moveDown(0.5);
  for (const step of t.steps(l.codeUrl, l.flatNumber)) doc.text(step, { width });
  doc.moveDown(0.5);
  doc.font('bold').fontSize(22).text(l.code, { width });
  doc.moveDown(0.5);
  doc.font('regular').fontSize(10).text(t.replaces, { width });
  doc.moveDown(1);
  doc.fontSize(9).fillColor('#444').text(t.why, { width });
}

/** The print list's file name in the UI's language: the month and the building's address in ASCII. */
export const printListFileName = (lang: Lang, fileName: string) =>
  `${lang === 'lt' ? 'laiskai' : 'letters'}-${fileName}`;
