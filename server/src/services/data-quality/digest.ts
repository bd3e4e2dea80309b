import { type DigestSubscription, GROUP, RULE_NAMES, type RuleCode } from '@rodmenys/contract';
import type { Transporter } from 'nodemailer';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest } from '../../errors.js';
import type { Caller } from '../auth/caller.js';

export async function getSubscription(db: Queryable, caller: Caller, mailConfigured: boolean) {
  const { rows } = await db.query<Omit<DigestSubscription, 'MailConfigured'>>(
    `SELECT digest_opt_in AS "OptIn", language AS "Language", email AS "Email", iso(digest_sent_at) AS "LastSentAt"
       FROM app_user WHERE id = $1`,
    [caller.id],
  );
  return { ...rows[0]!, MailConfigured: mailConfigured };
}

/** Opts in or out; opting in needs an e-mail address on the profile (400 naming `optIn`). */
export async function updateSubscription(
  db: Queryable,
  caller: Caller,
  body: { optIn: boolean; language: 'lt' | 'en' },
  mailConfigured: boolean,
): Promise<DigestSubscription> {
  const { rows } = await db.query<{ email: string | null }>('SELECT email FROM app_user WHERE id = $1', [caller.id]);
  if (body.optIn && !rows[0]?.email) throw badRequest('emailRequiredForDigest', {}, 'optIn');
  await db.query(
    // From now on: the first digest lists what appears after opting in.
    `UPDATE app_user SET digest_opt_in = $2, language = $3,
            digest_sent_at = CASE WHEN $2 AND NOT digest_opt_in THEN now() ELSE digest_sent_at END
      WHERE id = $1`,
    [caller.id, body.optIn, body.language],
  );
  return getSubscription(db, caller, mailConfigured);
}

const TEXT = {
  lt: {
    subject: (n: number) => `Rodmenys: naujos anomalijos (${n})`,
    intro: (n: number) => `Nuo paskutinės santraukos jūsų objektuose rastos naujos anomalijos: ${n}.`,
    device: 'prietaisas',
    collector: 'kolektorius',
    all: 'Visos anomalijos',
    footer: 'Šią santrauką gaunate, nes ją užsisakėte savo profilyje.',
  },
  en: {
    subject: (n: number) => `Rodmenys: new anomalies (${n})`,
    intro: (n: number) => `New anomalies found in your buildings since the last digest: ${n}.`,
    device: 'device',
    collector: 'collector',
    all: 'All anomalies',
    footer: 'You get this digest because you opted in on your profile.',
  },
};

/** What a digest line is about: a silent collector by name with its buildings, else the address and device. */
function digestSubject(
  a: { address: string; device_code: string | null; collector: string | null; buildings: string[] | null },
  t: (typeof TEXT)['en'],
): string {
  if (a.collector !== null) return `${t.collector} ${a.collector} (${(a.buildings ?? [a.address]).join('; ')})`;
  return `${a.address}${a.device_code ? `, ${t.device} ${a.device_code}` : ''}`;
}

/**
 * Sends each opted-in active user with an e-mail address the anomalies opened
 * in their scope since their last digest, in their language, with links to the
 * Anomalies page. A user with nothing new gets no mail. Returns a summary.
 */
export async function sendDigests(db: Db, mailer: Transporter, from: string, baseUrl: string, now = new Date()) {
  const { rows: users } = await db.query<{
    id: number;
    email: string;
    language: 'lt' | 'en';
    scope: number[] | null;
    since: string;
  }>(
    `SELECT u.id, u.email, u.language,
            CASE WHEN u.group_id = ${GROUP.operator} THEN NULL
                 ELSE coalesce((SELECT array_agg(location_id) FROM location_right WHERE user_id = u.id), '{}') END AS scope,
            coalesce(u.digest_sent_at, $1::timestamptz - interval '1 day') AS since
       FROM app_user u
      WHERE u.digest_opt_in AND u.active AND u.email IS NOT NULL
      ORDER BY u.id`,
    [now],
  );
  let sent = 0;
  for (const user of users) {
    const { rows } = await db.query<{
      id: number;
      rule: RuleCode;
      address: string;
      device_code: string | null;
      collector: string | null;
      buildings: string[] | null;
    }>(
      `SELECT a.id, a.rule, address_label(b) AS address, d.device_code,
              a.evidence ->> 'collector' AS collector, a.evidence -> 'buildings' AS buildings
         FROM anomaly a JOIN location b ON b.id = a.building_id LEFT JOIN device d ON d.id = a.device_id
        WHERE a.opened_at > $2::timestamptz AND a.opened_at <= $3::timestamptz
          AND ($1::int[] IS NULL OR b.path && $1::int[])
        ORDER BY b.path, a.rule, a.id LIMIT 500`,
      [user.scope, user.since, now],
    );
    if (rows.length > 0) {
      const t = TEXT[user.language];
      const lines = rows.map(
        (a) => `- ${RULE_NAMES[a.rule][user.language]}: ${digestSubject(a, t)}\n  ${baseUrl}/anomalies?id=${a.id}`,
      );
      await mailer.sendMail({
        from,
        to: user.email,
        subject: t.subject(rows.length),
        text: `${t.intro(rows.length)}\n\n${lines.join('\n')}\n\n${t.all}: ${baseUrl}/anomalies\n\n${t.footer}\n`,
      });
      sent++;
    }
    await db.query('UPDATE app_user SET digest_sent_at = $2 WHERE id = $1', [user.id, now]);
  }
  return { sent, subscribers: users.length };
}
