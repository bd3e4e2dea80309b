import type { Readable } from 'node:stream';
import type { Queryable } from '../../../db/db.js';
import { notFound } from '../../../errors.js';
import type { Caller } from '../../auth/caller.js';
import { drawTable, newDoc, typeNames } from '../../lifetime/pdf.js';
import { monthName } from '../../month-name.js';
import type { Lang } from '../../statements/pdf-texts.js';
import { assertDeclarationOffice } from './access.js';
import { declarationDevicesDb } from './devices.js';

export const PRINT_LIST_TEXTS = {
  lt: {
    title: (month: string) => `Priminimai paštu: ${month} rodmenų deklaravimas`,
    line: (opens: string, closes: string) => `Deklaravimo laikas: ${opens} – ${closes}. Sudaryta: `,
    address: 'Adresas',
    flat: 'Butas',
    occupant: 'Gyventojas',
    type: 'Tipas',
    serial: 'Numeris',
    reading: 'Rodmuo',
    file: 'priminimai-pastu',
  },
  en: {
    title: (month: string) => `Reminders by post: declaring the readings of ${month}`,
    line: (opens: string, closes: string) => `Declaration window: ${opens} – ${closes}. Made: `,
    address: 'Address',
    flat: 'Flat',
    occupant: 'Occupant',
    type: 'Type',
    serial: 'Serial',
    reading: 'Reading',
    file: 'reminders-by-post',
  },
} as const;

/**
 * The reminders that go by post (docs/declared-readings.md): the declared devices without a
 * declaration in the window whose occupant has no e-mail consent, one line per device, by address,
 * flat and serial, with a box for the reading. 404 when there is none.
 */
export async function undeclaredPrintList(
  db: Queryable,
  caller: Caller,
  q: { month?: string | undefined; buildingId?: number | undefined; lang: Lang },
): Promise<{ name: string; stream: Readable }> {
  assertDeclarationOffice(caller);
  const { window, rows } = await declarationDevicesDb(db, caller.scope, { ...q, undeclared: true });
  const post = rows.filter((r) => r.occupancy_id !== null && !r.email);
  if (!post.length) throw notFound('declarationPrintListEmpty');
  const t = PRINT_LIST_TEXTS[q.lang];
  const types = await typeNames(db, q.lang);
  const title = t.title(monthName(window.month, q.lang));
  const doc = newDoc(title);
  drawTable(
    doc,
    title,
    [`${t.line(window.opens, window.closes)}${new Date().toISOString().slice(0, 10)}`],
    [
      { title: t.address, width: 140 },
      { title: t.flat, width: 40 },
      { title: t.occupant, width: 110 },
      { title: t.type, width: 85 },
      { title: t.serial, width: 75 },
      { title: t.reading, width: 65 },
    ],
    post.map((r) => [
      r.address,
      r.flat,
      r.occupant_name ?? '',
      types.get(r.device_type_id) ?? String(r.device_type_id),
      r.device_code,
      '________',
    ]),
    q.lang,
  );
  doc.end();
  return { name: `${t.file}-${window.month}.pdf`, stream: doc };
}
