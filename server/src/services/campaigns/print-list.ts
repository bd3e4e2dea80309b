import type { Readable } from 'node:stream';
import type { Queryable } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { drawTable, newDoc } from '../lifetime/pdf.js';
import type { Lang } from '../statements/pdf-texts.js';
import { visitText } from './notices.js';
import { campaignRecipients } from './recipients.js';

export const CAMPAIGN_PDF_TEXTS = {
  lt: {
    title: (name: string) => `Pranešimai apie apsilankymą: ${name}`,
    made: 'Sudaryta',
    intro: 'Gyventojai be sutikimo gauti pranešimus el. paštu: įteikti arba iškabinti pranešimą.',
    address: 'Adresas',
    flat: 'Butas',
    occupant: 'Gyventojas',
    visit: 'Apsilankymas',
    devices: 'Prietaisai',
    file: 'pranesimai-apie-apsilankyma',
  },
  en: {
    title: (name: string) => `Visit notices: ${name}`,
    made: 'Made',
    intro: 'Occupants without consent to e-mail notices: hand over or post the notice.',
    address: 'Address',
    flat: 'Flat',
    occupant: 'Occupant',
    visit: 'Visit',
    devices: 'Devices',
    file: 'visit-notices',
  },
} as const;

/**
 * The campaign's print list (docs/device-lifetime.md, "Exchange campaigns"): one line per occupant
 * to tell on paper (no e-mail consent), with the visit day in the list's language and the devices,
 * in address order (building, floor, flat).
 */
export async function renderCampaignPrintList(
  db: Queryable,
  campaignId: number,
  lang: Lang,
): Promise<{ stream: Readable; today: string }> {
  const { rows } = await db.query<{ name: string; today: string }>(
    `SELECT name, to_char(current_date, 'YYYY-MM-DD') AS today FROM campaign WHERE id = $1`,
    [campaignId],
  );
  if (!rows[0]) throw notFound();
  const t = CAMPAIGN_PDF_TEXTS[lang];
  const paper = (await campaignRecipients(db, campaignId)).filter((r) => !r.email);
  const doc = newDoc(t.title(rows[0].name));
  drawTable(
    doc,
    t.title(rows[0].name),
    [`${t.made}: ${rows[0].today}. ${t.intro}`],
    [
      { title: t.address, width: 130 },
      { title: t.flat, width: 35 },
      { title: t.occupant, width: 105 },
      { title: t.visit, width: 130 },
      { title: t.devices, width: 115 },
    ],
    paper.map((r) => [r.address, r.flat, r.name, visitText(r, lang), r.device_codes.join(', ')]),
    lang,
  );
  doc.end();
  return { stream: doc, today: rows[0].today };
}
