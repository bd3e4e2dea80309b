import { type DigestSubscription, GROUP, RULE_NAMES, type RuleCode } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import type { Caller } from '../auth/caller.js';
import {
  type Mailer,
  type MailTemplate,
  OPT_IN_FOOTER,
  type OptIn,
  optedIn,
  readOptIn,
  writeOptIn,
} from '../mail/index.js';
import { inScope } from '../sql.js';
import { evidenceBuildingsInScope } from './anomalies.js';

/** The digest's opt-in (services/mail): opting in starts from now, so the first digest lists only what is new. */
const DIGEST: OptIn = {
  column: 'digest_opt_in',
  emailRequired: 'emailRequiredForDigest',
  extraColumns: ', iso(digest_sent_at) AS "LastSentAt"',
  onChange: 'digest_sent_at = CASE WHEN $2 AND NOT digest_opt_in THEN now() ELSE digest_sent_at END',
};

export async function getSubscription(db: Queryable, caller: Caller, mailConfigured: boolean) {
  const state = await readOptIn<Omit<DigestSubscription, 'MailConfigured'>>(db, DIGEST, caller.id);
  return { ...state, MailConfigured: mailConfigured };
}

/** Opts in or out; opting in needs an e-mail address on the profile (400 naming `optIn`). */
export async function updateSubscription(
  db: Queryable,
  caller: Caller,
  body: { optIn: boolean; language: 'lt' | 'en' },
  mailConfigured: boolean,
): Promise<DigestSubscription> {
  await writeOptIn(db, DIGEST, caller.id, body);
  return getSubscription(db, caller, mailConfigured);
}

interface DigestParams {
  lines: string[];
  all: string;
}

/** The digest mail: the new anomalies, one line and link each, and a link to all of them. */
const DIGEST_MAIL: MailTemplate<DigestParams> = {
  subject: {
    lt: (p) => `naujos anomalijos (${p.lines.length})`,
    en: (p) => `new anomalies (${p.lines.length})`,
  },
  body: {
    lt: (p) =>
      `Nuo paskutinės santraukos jūsų objektuose rastos naujos anomalijos: ${p.lines.length}.\n\n${p.lines.join('\n')}\n\nVisos anomalijos: ${p.all}`,
    en: (p) =>
      `New anomalies found in your buildings since the last digest: ${p.lines.length}.\n\n${p.lines.join('\n')}\n\nAll anomalies: ${p.all}`,
  },
  footer: OPT_IN_FOOTER.digest,
};

const DEVICE = { lt: 'prietaisas', en: 'device' };
const COLLECTOR = { lt: 'kolektorius', en: 'collector' };
const CONNECTION = { lt: 'jungtis', en: 'connection' };

interface DigestRow {
  address: string;
  device_code: string | null;
  collector: string | null;
  connection: string | null;
  buildings: string[] | null;
}

/**
 * What a digest line is about: a silent collector or LoRaWAN connection by name with its buildings,
 * else the address and device.
 */
function digestSubject(a: DigestRow, lang: 'lt' | 'en'): string {
  const buildings = () => (a.buildings ?? [a.address]).join('; ');
  if (a.collector !== null) return `${COLLECTOR[lang]} ${a.collector} (${buildings()})`;
  if (a.connection !== null) return `${CONNECTION[lang]} ${a.connection} (${buildings()})`;
  return `${a.address}${a.device_code ? `, ${DEVICE[lang]} ${a.device_code}` : ''}`;
}

/**
 * Sends each opted-in active user with an e-mail address the anomalies opened
 * in their scope since their last digest, in their language, with links to the
 * Anomalies page. A user with nothing new gets no mail. Returns a summary.
 */
export async function sendDigests(db: Db, mailer: Mailer, now = new Date()) {
  const users = await optedIn<{ scope: number[] | null; since: string }>(
    db,
    DIGEST,
    `, CASE WHEN u.group_id = ${GROUP.operator} THEN NULL
            ELSE coalesce((SELECT array_agg(location_id) FROM location_right WHERE user_id = u.id), '{}') END AS scope,
       coalesce(u.digest_sent_at, $1::timestamptz - interval '1 day') AS since`,
    [now],
  );
  let sent = 0;
  for (const user of users) {
    const { rows } = await db.query<DigestRow & { id: number; rule: RuleCode }>(
      `SELECT a.id, a.rule, address_label(b) AS address, d.device_code,
              a.evidence ->> 'collector' AS collector,
              CASE WHEN a.lns_connection_id IS NOT NULL THEN a.evidence ->> 'connection' END AS connection,
              CASE WHEN a.evidence ? 'buildings' THEN ${evidenceBuildingsInScope('a', '$1')} END AS buildings
         FROM anomaly a JOIN location b ON b.id = a.building_id LEFT JOIN device d ON d.id = a.device_id
        WHERE a.opened_at > $2::timestamptz AND a.opened_at <= $3::timestamptz
          AND ${inScope('b', '$1')}
        ORDER BY b.path, a.rule, a.id LIMIT 500`,
      [user.scope, user.since, now],
    );
    if (rows.length > 0) {
      const lang = user.language;
      const lines = rows.map(
        (a) => `- ${RULE_NAMES[a.rule][lang]}: ${digestSubject(a, lang)}\n  ${mailer.link(`/anomalies?id=${a.id}`)}`,
      );
      const outcome = await mailer.send(user.email, lang, DIGEST_MAIL, { lines, all: mailer.link('/anomalies') });
      // A digest that did not go out is tried again at the next run: the job records the error.
      if (!outcome.accepted) throw new Error(outcome.error);
      sent++;
    }
    await db.query('UPDATE app_user SET digest_sent_at = $2 WHERE id = $1', [user.id, now]);
  }
  return { sent, subscribers: users.length };
}
