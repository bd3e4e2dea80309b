import { occupantLinkUrl } from '@rodmenys/contract';
import type { Db } from '../../db/db.js';
import type { JobDef } from '../jobs/index.js';
import { type Mailer, type MailTemplate, mailLanguage, monthName } from '../mail/index.js';
import { issueLink } from '../occupant-access/secrets.js';

/** Attempts of one notice before it is given up, and the waits between them (doubling from 1 minute, at most 6 hours). */
export const MAX_ATTEMPTS = 10;
export const retryDelayMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 3600_000);
/** Notices sent per run; the rest wait for the next. */
const BATCH = 100;

/** The notice an occupant gets on publication: their month is there, with their link; never the statement itself. */
export const OCCUPANT_NOTICE: MailTemplate<{ month: string; address: string; link: string; corrected: boolean }> = {
  subject: {
    lt: (p) => `${p.corrected ? 'pataisyta' : 'jūsų'} ${p.month} suvartojimo informacija`,
    en: (p) => `${p.corrected ? 'corrected' : 'your'} consumption information for ${p.month}`,
  },
  body: {
    lt: (p) =>
      `${p.corrected ? 'Pataisyta' : 'Paskelbta'} jūsų buto (${p.address}) ${p.month} suvartojimo informacija.\n\n` +
      `Peržiūrėti (asmeninė nuoroda, neperduokite jos kitiems):\n${p.link}`,
    en: (p) =>
      `The consumption information of your flat (${p.address}) for ${p.month} is ${p.corrected ? 'corrected' : 'published'}.\n\n` +
      `View it (a personal link: do not pass it on):\n${p.link}`,
  },
  footer: {
    lt: 'Šį pranešimą gaunate, nes sutikote informaciją gauti elektroniniu paštu; tai galite išjungti savo puslapyje.',
    en: 'You get this notice because you agreed to electronic delivery; you can switch it off on your page.',
  },
};

interface Due {
  id: number;
  occupancy_id: number;
  email: string;
  language: string;
  month: string;
  version: number;
  attempts: number;
  address: string;
  /** The occupancy still has an e-mail address and consent. */
  consents: boolean;
}

/** The outcome of one attempt written to its delivery: sent, or failed with the reason (given up after the last). */
async function record(
  db: Db,
  d: Due,
  now: Date,
  error: string | null,
  giveUp = false,
): Promise<'sent' | 'failed' | 'gaveUp'> {
  const attempts = d.attempts + 1;
  const last = error !== null && (giveUp || attempts >= MAX_ATTEMPTS);
  await db.query(
    `UPDATE occupant_delivery SET attempts = $2, last_attempt_at = $3::timestamptz,
            status = CASE WHEN $4::text IS NULL THEN 'sent' ELSE 'failed' END,
            sent_at = CASE WHEN $4::text IS NULL THEN $3::timestamptz END,
            error = $4, given_up = $5,
            next_attempt_at = CASE WHEN $4::text IS NOT NULL AND NOT $5 THEN $6::timestamptz END
      WHERE id = $1`,
    [d.id, attempts, now, error, last, new Date(now.getTime() + retryDelayMs(attempts))],
  );
  return error === null ? 'sent' : last ? 'gaveUp' : 'failed';
}

/**
 * Sends the occupants' notices that are due (docs/delivery.md): each with a link token issued just
 * before it is sent (the raw token lives only in the mail), in the occupancy's language. Accepted by
 * the SMTP server → sent; otherwise failed with the reason and tried again after a growing wait, at
 * most MAX_ATTEMPTS times. Without a mailer (no SMTP_URL) every attempt fails saying so. An occupant
 * who has withdrawn consent or lost the address meanwhile is not written to. Run by the
 * `occupant-delivery` job.
 */
export async function sendOccupantNotices(
  db: Db,
  now: Date,
  mailer: Mailer | undefined,
): Promise<{ sent: number; failed: number; gaveUp: number }> {
  const { rows } = await db.query<Due>(
    `SELECT d.id, d.occupancy_id, d.email, d.language, to_char(d.month, 'YYYY-MM') AS month, d.version, d.attempts,
            concat_ws(', ', b.city, concat_ws(' ', b.street, b.building), f.flat) AS address,
            (o.consent_at IS NOT NULL AND nullif(trim(o.email), '') IS NOT NULL) AS consents
       FROM occupant_delivery d
       JOIN occupancy o ON o.id = d.occupancy_id
       JOIN location f ON f.id = d.flat_id
       JOIN location b ON b.id = d.building_id
      WHERE d.channel = 'email' AND d.status IN ('queued', 'failed') AND NOT d.given_up
        AND d.next_attempt_at <= $1::timestamptz
      ORDER BY d.next_attempt_at, d.id LIMIT ${BATCH}`,
    [now],
  );
  const counts = { sent: 0, failed: 0, gaveUp: 0 };
  for (const d of rows) {
    let outcome: 'sent' | 'failed' | 'gaveUp';
    if (!d.consents) outcome = await record(db, d, now, 'no e-mail address or consent any more', true);
    else if (!mailer) outcome = await record(db, d, now, 'SMTP_URL is not set');
    else {
      const lang = mailLanguage(d.language);
      const token = await issueLink(db, d.occupancy_id);
      const sent = await mailer.send(d.email, lang, OCCUPANT_NOTICE, {
        month: monthName(d.month, lang),
        address: d.address,
        link: occupantLinkUrl(mailer.baseUrl, token),
        corrected: d.version > 1,
      });
      outcome = await record(db, d, now, sent.accepted ? null : sent.error);
    }
    counts[outcome]++;
  }
  return counts;
}

/** The delivery's scheduled work (services/jobs): the occupants' notices that are due, every minute. */
export const deliveryJobs: JobDef[] = [
  {
    name: 'occupant-delivery',
    run: (db, now, { mailer }) => sendOccupantNotices(db, now, mailer),
    nextSql: "$1::timestamptz + interval '1 minute'",
  },
];
