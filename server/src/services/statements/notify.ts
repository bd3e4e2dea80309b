import type { StatementDelivery, StatementNotification } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import type { Caller } from '../auth/caller.js';
import type { JobDef } from '../jobs/index.js';
import {
  type Mailer,
  type MailTemplate,
  mailLanguage,
  OPT_IN_FOOTER,
  type OptIn,
  readOptIn,
  writeOptIn,
} from '../mail/index.js';
import { monthName } from '../month-name.js';

/** The publication notice's opt-in (services/mail). */
const STATEMENTS: OptIn = { column: 'statement_opt_in', emailRequired: 'emailRequiredForStatements' };

export async function getNotification(
  db: Queryable,
  caller: Caller,
  mailConfigured: boolean,
): Promise<StatementNotification> {
  return { ...(await readOptIn(db, STATEMENTS, caller.id)), MailConfigured: mailConfigured };
}

/** Opts in or out; opting in needs an e-mail address on the profile (400 naming `optIn`). */
export async function updateNotification(
  db: Queryable,
  caller: Caller,
  body: { optIn: boolean; language: 'lt' | 'en' },
  mailConfigured: boolean,
): Promise<StatementNotification> {
  await writeOptIn(db, STATEMENTS, caller.id, body);
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

/** The publication notice: the month's statements are published, with a link to them. */
const PUBLISHED_MAIL: MailTemplate<{ month: string; link: string }> = {
  subject: {
    lt: (p) => `paskelbtos ${p.month} suvartojimo ataskaitos`,
    en: (p) => `consumption statements for ${p.month} published`,
  },
  body: {
    lt: (p) => `Paskelbtos jūsų butų ${p.month} suvartojimo ataskaitos.\n\nPeržiūrėti: ${p.link}`,
    en: (p) => `The consumption statements of your flats for ${p.month} are published.\n\nView them: ${p.link}`,
  },
  footer: OPT_IN_FOOTER.notice,
};

/**
 * Sends the queued publication e-mails (statement_delivery rows not sent yet), one at a time, each
 * recorded as accepted by the SMTP server or with its error. Run by the scheduled work, so a
 * publication never waits for or fails on mail.
 */
export async function sendStatementMails(db: Db, mailer: Mailer) {
  const { rows } = await db.query<{ id: number; month: string; email: string; language: string }>(
    `SELECT id, to_char(month, 'YYYY-MM') AS month, email, language FROM statement_delivery
      WHERE sent_at IS NULL ORDER BY id LIMIT 500`,
  );
  let sent = 0;
  let failed = 0;
  for (const d of rows) {
    const lang = mailLanguage(d.language);
    const outcome = await mailer.send(d.email, lang, PUBLISHED_MAIL, {
      month: monthName(d.month, lang),
      link: mailer.link(`/statements?month=${d.month}`),
    });
    const error = outcome.accepted ? null : outcome.error;
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

/** The statements' scheduled work (services/jobs): the queued publication e-mails, every minute. */
export const statementJobs: JobDef[] = [
  {
    name: 'statement-mail',
    // Without SMTP_URL the queue is logged as not sent (docs/statements.md).
    run: (db, _now, { mailer }) => (mailer ? sendStatementMails(db, mailer) : markMailNotConfigured(db)),
    nextSql: "$1::timestamptz + interval '1 minute'",
  },
];
