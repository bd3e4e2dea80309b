import { createHmac } from 'node:crypto';
import type { Db } from '../../db/db.js';
import type { JobDef } from '../jobs/index.js';
import { type Mailer, type MailTemplate, mailLanguage, monthName } from '../mail/index.js';

/** How long a notice is retried, and the waits between attempts (doubling from 1 minute, at most 2 hours). */
export const DELIVERY_WINDOW_MS = 24 * 3600_000;
export const backoffMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 2 * 3600_000);
/** Notices sent per run; the rest wait for the next. */
const BATCH = 50;
const TIMEOUT_MS = 10_000;

/** The signature header's value: HMAC-SHA256 with the receiver's secret over `timestamp.body`, hex (docs/integration.md). */
export const signBody = (secret: string, timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

export interface DeliveryOptions {
  /** E-mail receivers need the mailer (SMTP_URL); without one their attempts are logged as failed. */
  mailer?: Mailer | undefined;
}

/** The e-mail a receiver gets: the month, the version, the buildings and the link to the export. */
const NOTICE_MAIL: MailTemplate<{ month: string; version: number; buildings: number; link: string }> = {
  subject: {
    lt: (p) => `paskelbti ${p.month} duomenys (versija ${p.version})`,
    en: (p) => `${p.month} published (version ${p.version})`,
  },
  body: {
    lt: (p) =>
      `Paskelbti ${p.month} duomenys, versija ${p.version}, pastatų: ${p.buildings}.\n\n` +
      `Atsiskaitymų eksportas (reikia integracijos rakto arba prisijungimo):\n${p.link}`,
    en: (p) =>
      `The figures of ${p.month} are published, version ${p.version}, ${p.buildings} building(s).\n\n` +
      `The billing export (needs an integration key or a sign-in):\n${p.link}`,
  },
  footer: {
    lt: 'Šį pranešimą gaunate, nes jūsų adresas įrašytas kaip paskelbimo gavėjas.',
    en: 'You get this notice because your address is set up as a publication receiver.',
  },
};

interface Due {
  id: number;
  kind: 'webhook' | 'email';
  url: string | null;
  email: string | null;
  language: 'lt' | 'en';
  secret: string | null;
  body: string;
  attempts: number;
  created_at: Date | string;
}

interface Outcome {
  status: number | null;
  response: string | null;
  error: string | null;
  ok: boolean;
}

async function post(d: Due, now: Date): Promise<Outcome> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  try {
    const res = await fetch(d.url!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Rodmenys-Webhook',
        'x-rodmenys-delivery': String(d.id),
        'x-rodmenys-timestamp': timestamp,
        'x-rodmenys-signature': signBody(d.secret!, timestamp, d.body),
      },
      body: d.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = (await res.text()).slice(0, 500);
    return { status: res.status, response: text, error: null, ok: res.status >= 200 && res.status < 300 };
  } catch (err) {
    return { status: null, response: null, error: err instanceof Error ? err.message : String(err), ok: false };
  }
}

async function mail(d: Due, mailer: Mailer | undefined): Promise<Outcome> {
  if (!mailer) return { status: null, response: null, error: 'mail is not configured (SMTP_URL)', ok: false };
  const notice = JSON.parse(d.body) as { month: string; version: number; buildings: number[]; export: string };
  const lang = mailLanguage(d.language);
  const outcome = await mailer.send(d.email!, lang, NOTICE_MAIL, {
    month: monthName(notice.month, lang),
    version: notice.version,
    buildings: notice.buildings.length,
    link: mailer.link(notice.export),
  });
  return outcome.accepted
    ? { status: null, response: 'accepted', error: null, ok: true }
    : { status: null, response: null, error: outcome.error, ok: false };
}

/**
 * Sends the notices that are due (docs/integration.md, "Notices"): each attempt is logged with the answer; a
 * 2xx (or the SMTP server's acceptance) delivers it, anything else tries again after a growing wait, until 24
 * hours after it was queued. Run by the scheduled job `billing-delivery`; returns counts.
 */
export async function deliverBillingNotices(
  db: Db,
  now: Date,
  options: DeliveryOptions = {},
): Promise<{ delivered: number; failed: number; gaveUp: number }> {
  const { rows } = await db.query<Due>(
    `SELECT d.id, r.kind, r.url, r.email, r.language, r.secret, d.body, d.attempts, d.created_at
       FROM billing_delivery d JOIN billing_receiver r ON r.id = d.receiver_id
      WHERE d.delivered_at IS NULL AND d.given_up_at IS NULL AND d.next_attempt_at <= $1::timestamptz AND r.active
      ORDER BY d.next_attempt_at, d.id LIMIT ${BATCH}`,
    [now],
  );
  const counts = { delivered: 0, failed: 0, gaveUp: 0 };
  for (const d of rows) {
    const t0 = performance.now();
    const outcome = d.kind === 'webhook' ? await post(d, now) : await mail(d, options.mailer);
    const attempts = d.attempts + 1;
    const next = new Date(now.getTime() + backoffMs(attempts));
    const giveUp = !outcome.ok && next.getTime() > new Date(d.created_at).getTime() + DELIVERY_WINDOW_MS;
    await db.query(
      `WITH a AS (
         INSERT INTO billing_delivery_attempt (delivery_id, attempted_at, status, response, error, duration_ms)
         VALUES ($1, $2::timestamptz, $3, $4, $5, $6)
       )
       UPDATE billing_delivery SET attempts = $7,
              delivered_at = CASE WHEN $8 THEN $2::timestamptz END,
              given_up_at = CASE WHEN $9 THEN $2::timestamptz END,
              next_attempt_at = $10::timestamptz
        WHERE id = $1`,
      [
        d.id,
        now,
        outcome.status,
        outcome.response,
        outcome.error,
        Math.round(performance.now() - t0),
        attempts,
        outcome.ok,
        giveUp,
        next,
      ],
    );
    if (outcome.ok) counts.delivered++;
    else if (giveUp) counts.gaveUp++;
    else counts.failed++;
  }
  return counts;
}

/** The scheduled work of the billing interface (server/src/jobs.ts): notices every 30 seconds. */
export const billingJobs: JobDef[] = [
  {
    name: 'billing-delivery',
    run: (db, now, { mailer }) => deliverBillingNotices(db, now, { mailer }),
    nextSql: "$1::timestamptz + interval '30 seconds'",
  },
];
