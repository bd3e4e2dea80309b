import type { Declaration } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { type Mailer, type MailTemplate, mailLanguage, monthName } from '../mail/index.js';

/**
 * The receipt of a declaration by e-mail (docs/declared-readings.md): to an occupancy with an
 * address and consent to electronic delivery, in its language, saying what was declared.
 */
export const DECLARATION_RECEIPT: MailTemplate<{
  address: string;
  device: string;
  value: string;
  month: string;
  at: string;
  doubtful: boolean;
}> = {
  subject: {
    lt: (p) => `gautas deklaruotas rodmuo (${p.device})`,
    en: (p) => `declared reading received (${p.device})`,
  },
  body: {
    lt: (p) =>
      `Gavome jūsų deklaruotą rodmenį.\n\nButas: ${p.address}\nSkaitiklis: ${p.device}\nRodmuo: ${p.value}\n` +
      `Mėnuo: ${p.month}\nPateikta: ${p.at}` +
      (p.doubtful ? '\n\nRodmuo didesnis nei įprasta: jį patikrins tiekėjo darbuotojai.' : ''),
    en: (p) =>
      `We have received your declared reading.\n\nFlat: ${p.address}\nMeter: ${p.device}\nReading: ${p.value}\n` +
      `Month: ${p.month}\nDeclared: ${p.at}` +
      (p.doubtful ? "\n\nThe reading is higher than usual: your provider's staff will check it." : ''),
  },
  footer: {
    lt: 'Šį patvirtinimą gaunate, nes sutikote informaciją gauti elektroniniu paštu; tai galite išjungti savo puslapyje.',
    en: 'You get this receipt because you agreed to electronic delivery; you can switch it off on your page.',
  },
};

/** Sends the receipt when the occupancy has an address and consent; true when the SMTP server accepted it. */
export async function sendReceipt(
  db: Queryable,
  mailer: Mailer | undefined,
  declaration: Declaration,
  deviceCode: string,
): Promise<boolean> {
  if (!mailer) return false;
  const { rows } = await db.query<{ email: string | null; language: string | null; address: string; at: string }>(
    `SELECT o.email, o.language, to_char(x.declared_at, 'YYYY-MM-DD HH24:MI') AS at,
            concat_ws(', ', nullif(l.street, ''), nullif(l.building, ''), nullif(coalesce(l.flat, l.name), ''),
                      nullif(l.city, '')) AS address
       FROM declaration x JOIN occupancy o ON o.id = x.occupancy_id JOIN location l ON l.id = o.location_id
      WHERE x.id = $1 AND o.consent_at IS NOT NULL AND nullif(trim(o.email), '') IS NOT NULL`,
    [declaration.Id],
  );
  const r = rows[0];
  if (!r?.email) return false;
  const lang = mailLanguage(r.language);
  const sent = await mailer.send(r.email, lang, DECLARATION_RECEIPT, {
    address: r.address,
    device: deviceCode,
    value: lang === 'lt' ? String(declaration.Value).replace('.', ',') : String(declaration.Value),
    month: monthName(declaration.Month, lang),
    at: r.at,
    doubtful: declaration.Status === 'doubtful',
  });
  return sent.accepted;
}
