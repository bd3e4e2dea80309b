import type { StatementDelivery, StatementNotification } from '@rodmenys/contract';
import type { Transporter } from 'nodemailer';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest } from '../../errors.js';
import type { Caller } from '../auth/caller.js';
import { monthName } from '../month-name.js';

export async function getNotification(
  db: Queryable,
  caller: Caller,
  mailConfigured: boolean,
): Promise<StatementNotification> {
  const { rows } = await db.query<Omit<StatementNotification, 'MailConfigured'>>(
    'SELECT statement_opt_in AS "OptIn", language AS "Language", email AS "Email" FROM app_user WHERE id = $1',
    [caller.id],
  );
  return { ...rows[0]!, MailConfigured: mailConfigured };
}

/** Opts in or out; opting in needs an e-mail address on the profile (400 naming `optIn`). */
export async function updateNotification(
  db: Queryable,
  caller: Caller,
  body: { optIn: boolean; language: 'lt' | 'en' },
  mailConfigured: boolean,
): Promise<StatementNotification> {
  const { rows } = await db.query<{ email: string | null }>('SELECT email FROM app_user WHERE id = $1', [caller.id]);
  if (body.optIn && !rows[0]?.email) throw badRequest('emailRequiredForStatements', {}, 'optIn');
  await db.query('UPDATE app_user SET statement_opt_in = $2, language = $3 WHERE id = $1', [
    caller.id,
    body.optIn,
    body.language,
  ]);
  return getNotification(db, caller, mailConfigured);
}

/** The delivery log, newest first (at most 1,000 entries). */
export async function listDeliveries(db: Queryable, month: string | undefined): Promise<StatementDelivery[]> {
  const { rows } = await db.query<StatementDelivery>(
    `SELECT s.id AS "Id", to_char(s.month, 'YYYY-MM') AS "Month", u.username AS "UserName", s.email AS "Email",
            iso(s.sent_at) AS "SentAt", s.accepted AS "Accepted", s.error AS "Error"
       FROM statement_delivery s JOIN app_user u ON u.id = s.user_id
      WHERE s.sent_at IS NOT NULL AND ($1::date IS NULL OR s.month = $1::date)
      ORDER BY s.sent_at DESC, s.id DESC LIMIT 1000`,
    [month ? `${month}-01` : null],
  );
  return rows;
}

const TEXT = {
  lt: {
    subject: (m: string) => `Rodmenys: paskelbtos ${m} suvartojimo ataskaitos`,
    body: (m: string, link: string) =>
      `Paskelbtos jūsų butų ${m} suvartojimo ataskaitos.\n\nPeržiūrėti: ${link}\n\nŠį pranešimą gaunate, nes jį užsisakėte savo profilyje.\n`,
  },
  en: {
    subject: (m: string) => `Rodmenys: consumption statements for ${m} published`,
    body: (m: string, link: string) =>
      `The consumption statements of your flats for ${m} are published.\n\nView them: ${link}\n\nYou get this notice because you opted in on your profile.\n`,
  },
};

/**
 * Sends the queued publication e-mails (statement_delivery rows not sent yet), one at a time, each
 * recorded as accepted by the SMTP server or with its error. Run by the scheduled work, so a
 * publication never waits for or fails on mail.
 */
export async function sendStatementMails(db: Db, mailer: Transporter, from: string, baseUrl: string) {
  const { rows } = await db.query<{ id: number; month: string; email: string; language: 'lt' | 'en' }>(
    `SELECT id, to_char(month, 'YYYY-MM') AS month, email, language FROM statement_delivery
      WHERE sent_at IS NULL ORDER BY id LIMIT 500`,
  );
  let sent = 0;
  let failed = 0;
  for (const d of rows) {
    const lang = d.language === 'en' ? 'en' : 'lt';
    const t = TEXT[lang];
    const link = `${baseUrl}/statements?month=${d.month}`;
    let error: string | null = null;
    try {
      const info = await mailer.sendMail({
        from,
        to: d.email,
        subject: t.subject(monthName(d.month, lang)),
        text: t.body(monthName(d.month, lang), link),
      });
      if (!info.accepted?.length) error = `rejected: ${String(info.response ?? '')}`.slice(0, 1000);
    } catch (err) {
      error = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    }
    await db.query('UPDATE statement_delivery SET sent_at = now(), accepted = $2, error = $3 WHERE id = $1', [
      d.id,
      error === null,
      error,
    ]);
    if (error === null) sent++;
    else failed++;
  }
  return { sent, failed };
}

/** Without SMTP_URL the queue is marked as not sent, so the log says why. */
export async function markMailNotConfigured(db: Queryable) {
  const { rowCount } = await db.query(
    "UPDATE statement_delivery SET sent_at = now(), accepted = false, error = 'SMTP_URL is not set' WHERE sent_at IS NULL",
  );
  return { notConfigured: rowCount ?? 0 };
}
