import type { DeclarationNoticeKind } from '@rodmenys/contract';
import type { Db, Queryable } from '../../../db/db.js';
import type { JobDef } from '../../jobs/index.js';
import { type Mailer, type MailLanguage, type MailTemplate, mailLanguage, monthName } from '../../mail/index.js';
import { windowOf } from './access.js';
import { UNDECLARED_SQL } from './devices.js';

/** Attempts of one e-mail before it is left failed. */
export const MAX_NOTICE_ATTEMPTS = 5;

const FOOTER: Record<MailLanguage, string> = {
  lt: 'Šį pranešimą gaunate, nes sutikote informaciją gauti elektroniniu paštu; tai galite išjungti savo puslapyje.',
  en: 'You get this notice because you agreed to electronic delivery; you can switch it off on your page.',
};

/** The back office's decision on a declaration, in the occupant's language. */
export const DECISION_MAIL: MailTemplate<{
  accepted: boolean;
  device: string;
  value: string;
  month: string;
  reason: string | null;
}> = {
  subject: {
    lt: (p) => `deklaruotas rodmuo ${p.accepted ? 'priimtas' : 'atmestas'}`,
    en: (p) => `declared reading ${p.accepted ? 'accepted' : 'rejected'}`,
  },
  body: {
    lt: (p) =>
      `Jūsų deklaruotas skaitiklio ${p.device} rodmuo ${p.value} už ${p.month} ${p.accepted ? 'priimtas' : 'atmestas'}.` +
      (p.reason ? `\n\nPriežastis: ${p.reason}` : '') +
      (p.accepted ? '' : '\n\nDeklaruokite rodmenį iš naujo savo puslapyje arba paskambinkite mums.'),
    en: (p) =>
      `The reading ${p.value} you declared for meter ${p.device} for ${p.month} was ${p.accepted ? 'accepted' : 'rejected'}.` +
      (p.reason ? `\n\nReason: ${p.reason}` : '') +
      (p.accepted ? '' : '\n\nPlease declare the reading again on your page, or call us.'),
  },
  footer: FOOTER,
};

/** A reminder of the window: at its start, and two days before its end when nothing came. */
export const REMINDER_MAIL: MailTemplate<{ end: boolean; devices: string; month: string; closes: string }> = {
  subject: {
    lt: (p) => (p.end ? `liko dvi dienos deklaruoti ${p.month} rodmenis` : `laikas deklaruoti ${p.month} rodmenis`),
    en: (p) =>
      p.end ? `two days left to declare the readings of ${p.month}` : `time to declare the readings of ${p.month}`,
  },
  body: {
    lt: (p) =>
      `${p.end ? 'Dar negavome' : 'Laukiame'} jūsų skaitiklių (${p.devices}) ${p.month} rodmenų. ` +
      `Deklaruokite juos savo puslapyje iki ${p.closes} imtinai.`,
    en: (p) =>
      `${p.end ? 'We have not yet received' : 'We are waiting for'} the readings of your meters (${p.devices}) for ${p.month}. ` +
      `Please declare them on your page by ${p.closes} inclusive.`,
  },
  footer: FOOTER,
};

/** The occupancy's e-mail when it has consented and has an address, as SQL over `occupancy o`. */
const CONSENTED_EMAIL = `CASE WHEN o.consent_at IS NOT NULL THEN nullif(trim(o.email), '') END`;

/** Queues the decision's e-mail for the declaration's occupancy, when it consented to electronic delivery. */
export async function queueDecisionNotice(tx: Queryable, declarationId: number, kind: 'accepted' | 'rejected') {
  await tx.query(
    `INSERT INTO declaration_notice (kind, occupancy_id, device_id, month, declaration_id, channel, email, language)
     SELECT $2, o.id, x.device_id, x.month, x.id, 'email', ${CONSENTED_EMAIL}, coalesce(o.language, 'lt')
       FROM declaration x JOIN occupancy o ON o.id = x.occupancy_id
      WHERE x.id = $1 AND ${CONSENTED_EMAIL} IS NOT NULL`,
    [declarationId, kind],
  );
}

/**
 * Queues the reminders due at `now` (docs/declared-readings.md), once per reminder, device,
 * occupancy and window (a unique index): inside the window until two days before its end,
 * `reminderStart`; from two days before its end, `reminderEnd`; each only for a declared device with
 * no declaration that counts. By e-mail with consent; else on the print list.
 */
export async function queueReminders(db: Queryable, now: Date): Promise<{ queued: number }> {
  const w = await windowOf(db, undefined, now);
  if (!w.open) return { queued: 0 };
  const { rows } = await db.query<{ end: boolean }>(`SELECT $1::timestamptz::date >= $2::date - 2 AS end`, [
    now,
    w.closes,
  ]);
  const kind: DeclarationNoticeKind = rows[0]!.end ? 'reminderEnd' : 'reminderStart';
  const { rowCount } = await db.query(
    `WITH u AS (${UNDECLARED_SQL})
     INSERT INTO declaration_notice (kind, occupancy_id, device_id, month, channel, email, language)
     SELECT $5, o.id, u.device_id, $2::date, CASE WHEN ${CONSENTED_EMAIL} IS NULL THEN 'print' ELSE 'email' END,
            ${CONSENTED_EMAIL}, coalesce(o.language, 'lt')
       FROM u JOIN occupancy o ON o.id = u.occupancy_id
      WHERE NOT u.declared
      ORDER BY u.device_id
     ON CONFLICT DO NOTHING`,
    [null, `${w.month}-01`, w.closes, null, kind],
  );
  return { queued: rowCount ?? 0 };
}

interface Due {
  ids: number[];
  kind: DeclarationNoticeKind;
  email: string;
  language: string;
  month: string;
  devices: string;
  value: string | null;
  reason: string | null;
  consents: boolean;
  attempts: number;
}

/**
 * Sends the queued e-mails (decisions one by one, a window's reminders one per occupancy listing its
 * devices), each recorded sent or failed with the reason; a failed one is tried again on the next
 * runs, at most MAX_NOTICE_ATTEMPTS times. Without a mailer they fail saying so. An occupant who
 * withdrew consent meanwhile is not written to.
 */
export async function sendDeclarationNotices(db: Db, mailer: Mailer | undefined) {
  const { rows } = await db.query<Due>(
    `SELECT array_agg(n.id ORDER BY n.id) AS ids, n.kind, n.email, n.language, to_char(n.month, 'YYYY-MM') AS month,
            string_agg(DISTINCT d.device_code, ', ') AS devices, max(x.value)::text AS value, max(x.reason) AS reason,
            bool_and(o.consent_at IS NOT NULL AND nullif(trim(o.email), '') IS NOT NULL) AS consents,
            max(n.attempts) AS attempts
       FROM declaration_notice n
       JOIN occupancy o ON o.id = n.occupancy_id
       JOIN device d ON d.id = n.device_id
       LEFT JOIN declaration x ON x.id = n.declaration_id
      WHERE n.channel = 'email' AND n.status IN ('queued', 'failed') AND n.attempts < ${MAX_NOTICE_ATTEMPTS}
      GROUP BY n.occupancy_id, n.kind, n.month, n.email, n.language, coalesce(n.declaration_id, 0)
      ORDER BY min(n.id) LIMIT 100`,
  );
  let sent = 0;
  let failed = 0;
  for (const n of rows) {
    const lang = mailLanguage(n.language);
    let error: string | null = null;
    if (!n.consents) error = 'no e-mail address or consent any more';
    else if (!mailer) error = 'SMTP_URL is not set';
    else {
      const month = monthName(n.month, lang);
      const outcome =
        n.kind === 'accepted' || n.kind === 'rejected'
          ? await mailer.send(n.email, lang, DECISION_MAIL, {
              accepted: n.kind === 'accepted',
              device: n.devices,
              value: (n.value ?? '').replace('.', lang === 'lt' ? ',' : '.'),
              month,
              reason: n.reason,
            })
          : await mailer.send(n.email, lang, REMINDER_MAIL, {
              end: n.kind === 'reminderEnd',
              devices: n.devices,
              month,
              closes: (await windowOf(db, n.month)).closes,
            });
      if (!outcome.accepted) error = outcome.error;
    }
    await db.query(
      `UPDATE declaration_notice SET attempts = attempts + 1, status = CASE WHEN $2::text IS NULL THEN 'sent' ELSE 'failed' END,
              sent_at = CASE WHEN $2::text IS NULL THEN now() END, error = $2
        WHERE id = ANY ($1::int[])`,
      [n.ids, error],
    );
    if (error === null) sent++;
    else failed++;
  }
  return { sent, failed };
}

/** The declarations' scheduled work (services/jobs): reminders queued hourly, e-mails sent every minute. */
export const declarationJobs: JobDef[] = [
  {
    name: 'declaration-reminders',
    run: (db, now) => queueReminders(db, now),
    nextSql: "$1::timestamptz + interval '1 hour'",
  },
  {
    name: 'declaration-mail',
    run: (db, _now, { mailer }) => sendDeclarationNotices(db, mailer),
    nextSql: "$1::timestamptz + interval '1 minute'",
  },
];
