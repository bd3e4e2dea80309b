import type { Db } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { type Mailer, type MailLanguage, type MailTemplate, mailLanguage } from '../mail/index.js';
import { campaignRecipients, type Recipient } from './recipients.js';

/** A day as a person reads it: "2030 m. kovo 5 d., antradienis" / "Tuesday, 5 March 2030". */
export function visitDayText(day: string, lang: MailLanguage): string {
  return new Intl.DateTimeFormat(lang === 'lt' ? 'lt-LT' : 'en-GB', {
    dateStyle: 'full',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
}

/** The visit day with its time window, if any, in a language. */
export function visitText(r: Pick<Recipient, 'day' | 'time_from' | 'time_to'>, lang: MailLanguage): string {
  const day = visitDayText(r.day, lang);
  if (!r.time_from && !r.time_to) return day;
  const window = `${r.time_from ?? ''}–${r.time_to ?? ''}`;
  return lang === 'lt' ? `${day}, ${window} val.` : `${day}, ${window}`;
}

/** The notice of a visit to exchange or check the flat's meters, with the day. */
export const VISIT_NOTICE: MailTemplate<{ address: string; visit: string; devices: string }> = {
  subject: {
    lt: (p) => `prietaisų keitimas ${p.visit}`,
    en: (p) => `meter exchange on ${p.visit}`,
  },
  body: {
    lt: (p) =>
      `Jūsų bute (${p.address}) keisime arba tikrinsime šiuos prietaisus: ${p.devices}.\n\n` +
      `Apsilankymo diena: ${p.visit}.\n\nPrašome tą dieną sudaryti galimybę patekti į butą.`,
    en: (p) =>
      `We shall exchange or check these devices in your flat (${p.address}): ${p.devices}.\n\n` +
      `Visit day: ${p.visit}.\n\nPlease let the fitter in on that day.`,
  },
  footer: {
    lt: 'Šį pranešimą gaunate, nes sutikote informaciją gauti elektroniniu paštu.',
    en: 'You get this notice because you agreed to electronic delivery.',
  },
};

export interface NoticeCounts {
  Mailed: number;
  Failed: number;
  Printed: number;
  AlreadyTold: number;
}

/**
 * Tells the occupants of a campaign's open devices their building's visit day (docs/device-lifetime.md,
 * "Exchange campaigns"): an e-mail in their language where they consented, else a line on the print
 * list. Each occupant is told of a day once: a notice sent or printed is not repeated; a failed
 * e-mail is tried again. Without a mailer (no SMTP_URL) every e-mail fails saying so. Audited.
 */
export async function sendCampaignNotices(
  db: Db,
  caller: Caller,
  campaignId: number,
  mailer: Mailer | undefined,
): Promise<NoticeCounts> {
  const { rows: found } = await db.query('SELECT 1 FROM campaign WHERE id = $1', [campaignId]);
  if (!found.length) throw notFound();
  const recipients = await campaignRecipients(db, campaignId);
  const { rows: told } = await db.query<{ occupancy_id: number; day: string; status: string }>(
    `SELECT occupancy_id, to_char(day, 'YYYY-MM-DD') AS day, status FROM campaign_notice WHERE campaign_id = $1`,
    [campaignId],
  );
  const statusOf = new Map(told.map((t) => [`${t.occupancy_id}:${t.day}`, t.status]));
  const counts: NoticeCounts = { Mailed: 0, Failed: 0, Printed: 0, AlreadyTold: 0 };
  const write = (r: Recipient, channel: 'email' | 'print', status: string, error: string | null) =>
    db.query(
      `INSERT INTO campaign_notice (campaign_id, building_id, occupancy_id, day, channel, status, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (campaign_id, occupancy_id, day)
       DO UPDATE SET channel = excluded.channel, status = excluded.status, error = excluded.error, at = now()`,
      [campaignId, r.building_id, r.occupancy_id, r.day, channel, status, error],
    );
  for (const r of recipients) {
    const before = statusOf.get(`${r.occupancy_id}:${r.day}`);
    if (before === 'sent' || before === 'print') {
      counts.AlreadyTold++;
      continue;
    }
    if (!r.email) {
      await write(r, 'print', 'print', null);
      counts.Printed++;
      continue;
    }
    const lang = mailLanguage(r.language);
    const sent = mailer
      ? await mailer.send(r.email, lang, VISIT_NOTICE, {
          address: `${r.address}, ${r.flat}`,
          visit: visitText(r, lang),
          devices: r.device_codes.join(', '),
        })
      : ({ accepted: false, error: 'SMTP_URL is not set' } as const);
    await write(r, 'email', sent.accepted ? 'sent' : 'failed', sent.accepted ? null : sent.error);
    if (sent.accepted) counts.Mailed++;
    else counts.Failed++;
  }
  await db.transaction((tx) =>
    recordAudit(tx, {
      actor: caller,
      kind: 'campaign.notify',
      entity: 'campaign',
      entityId: campaignId,
      before: null,
      after: counts,
    }),
  );
  return counts;
}
