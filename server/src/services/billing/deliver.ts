import { createHmac } from 'node:crypto';
import type { DeliveryReason } from '@rodmenys/contract';
import pLimit from 'p-limit';
import type { Db } from '../../db/db.js';
import type { JobDef } from '../jobs/index.js';
import { type Mailer, type MailTemplate, mailLanguage, monthName } from '../mail/index.js';
import { NO_INTERNAL_NETWORKS, type OutgoingPolicy, postOutgoing, sanitised } from '../outgoing.js';

/** How long a notice is retried, and the waits between attempts (doubling from 1 minute, at most 2 hours). */
export const DELIVERY_WINDOW_MS = 24 * 3600_000;
export const backoffMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 2 * 3600_000);
/** Notices sent per run; the rest wait for the next. */
const BATCH = 50;
/** Receivers sent to at once: one that does not answer delays no other (docs/integration.md). */
export const DELIVERY_CONCURRENCY = 8;
const TIMEOUT_MS = 10_000;

/** The signature header's value: HMAC-SHA256 with the receiver's secret over `timestamp.body`, hex (docs/integration.md). */
export const signBody = (secret: string, timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

export interface DeliveryOptions {
  /** E-mail receivers need the mailer (SMTP_URL); without one their attempts are logged as failed. */
  mailer?: Mailer | undefined;
  /** Where webhooks may go (OUTGOING_ALLOWED_NETWORKS); absent: no internal network. */
  outgoing?: OutgoingPolicy | undefined;
  /** How long a receiver has to answer (10 s). */
  timeoutMs?: number;
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
  active: boolean;
  body: string;
  attempts: number;
  created_at: Date | string;
}

interface Outcome {
  status: number | null;
  reason: DeliveryReason;
  /** A short sanitised reason phrase or mail server reply; never an answer's body. */
  response: string | null;
  ok: boolean;
}

/** The POST of a notice, stamped and signed with `at`, the moment it is sent. */
async function post(d: Due, at: Date, options: DeliveryOptions): Promise<Outcome> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const answer = await postOutgoing(d.url!, {
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Rodmenys-Webhook',
      'x-rodmenys-delivery': String(d.id),
      'x-rodmenys-timestamp': timestamp,
      'x-rodmenys-signature': signBody(d.secret!, timestamp, d.body),
    },
    body: d.body,
    timeoutMs: options.timeoutMs ?? TIMEOUT_MS,
    policy: options.outgoing ?? NO_INTERNAL_NETWORKS,
  });
  return { status: answer.status, reason: answer.reason, response: answer.detail, ok: answer.reason === 'accepted' };
}

async function mail(d: Due, mailer: Mailer | undefined): Promise<Outcome> {
  if (!mailer) return { status: null, reason: 'mailNotConfigured', response: null, ok: false };
  const notice = JSON.parse(d.body) as { month: string; version: number; buildings: number[]; export: string };
  const lang = mailLanguage(d.language);
  const outcome = await mailer.send(d.email!, lang, NOTICE_MAIL, {
    month: monthName(notice.month, lang),
    version: notice.version,
    buildings: notice.buildings.length,
    link: mailer.link(notice.export),
  });
  return outcome.accepted
    ? { status: null, reason: 'accepted', response: null, ok: true }
    : { status: null, reason: 'mailRefused', response: sanitised(outcome.error), ok: false };
}

/** How a notice's turn ended, and whether the receiver answered at all (status or mail server). */
type Sent = { result: 'delivered' | 'failed' | 'gaveUp' | 'skipped'; answered: boolean };

/**
 * One notice: the receiver's state is read with its row locked in the transaction that stamps the attempt
 * (a switch-off waits for it, or it sees the switch-off and gives the notice up), the notice is sent with
 * that stamp, and the answer recorded. A notice given up or delivered meanwhile is skipped. A receiver
 * switched off while the notice was on its way keeps it given up unless it was delivered.
 */
async function sendOne(
  db: Db,
  id: number,
  run: { start: Date; clock: () => Date },
  options: DeliveryOptions,
): Promise<Sent> {
  const { clock } = run;
  const claim = await db.transaction(async (tx) => {
    const { rows } = await tx.query<Due>(
      `SELECT d.id, r.kind, r.url, r.email, r.language, r.secret, r.active, d.body, d.attempts, d.created_at
         FROM billing_delivery d JOIN billing_receiver r ON r.id = d.receiver_id
        WHERE d.id = $1 AND d.delivered_at IS NULL AND d.given_up_at IS NULL
        FOR UPDATE OF d FOR SHARE OF r`,
      [id],
    );
    const d = rows[0];
    if (d && !d.active) await tx.query('UPDATE billing_delivery SET given_up_at = $2 WHERE id = $1', [id, clock()]);
    return d && { d, at: clock() };
  });
  if (!claim) return { result: 'skipped', answered: true };
  if (!claim.d.active) return { result: 'gaveUp', answered: true };
  const { d, at } = claim;
  const t0 = performance.now();
  const outcome = d.kind === 'webhook' ? await post(d, at, options) : await mail(d, options.mailer);
  const answered = clock();
  const attempts = d.attempts + 1;
  // The waits count from the run's start, so a run every 30 seconds keeps the 1, 2, 4 … minutes.
  const next = new Date(run.start.getTime() + backoffMs(attempts));
  const giveUp = !outcome.ok && next.getTime() > new Date(d.created_at).getTime() + DELIVERY_WINDOW_MS;
  const { rows } = await db.query<{ given_up: boolean }>(
    `WITH a AS (
       INSERT INTO billing_delivery_attempt (delivery_id, attempted_at, status, reason, response, duration_ms)
       VALUES ($1, $2::timestamptz, $3, $4, $5, $6)
     )
     UPDATE billing_delivery d SET attempts = d.attempts + 1,
            delivered_at = CASE WHEN $7 THEN $8::timestamptz END,
            given_up_at = CASE WHEN $7 THEN NULL
                               ELSE coalesce(d.given_up_at, CASE WHEN $9 OR NOT r.active THEN $8::timestamptz END) END,
            next_attempt_at = $10::timestamptz
       FROM billing_receiver r
      WHERE d.id = $1 AND r.id = d.receiver_id
      RETURNING d.given_up_at IS NOT NULL AS given_up`,
    [
      d.id,
      at,
      outcome.status,
      outcome.reason,
      outcome.response,
      Math.round(performance.now() - t0),
      outcome.ok,
      answered,
      giveUp,
      next,
    ],
  );
  const result = outcome.ok ? 'delivered' : rows[0]?.given_up ? 'gaveUp' : 'failed';
  return { result, answered: outcome.ok || outcome.status !== null || d.kind === 'email' };
}

/**
 * Sends the notices that are due (docs/integration.md, "Notices"): each attempt is stamped, signed and logged
 * when it is sent, with its status and reason; a 2xx (or the SMTP server's acceptance) delivers it, anything
 * else tries again after a growing wait, until 24 hours after it was queued. Different receivers are sent to
 * at once (at most DELIVERY_CONCURRENCY), each receiver's notices in order; a receiver that does not answer
 * (no connection, no answer in time) is not waited for again in the run: its other notices wait for the next. `now` is the run's start; attempts are stamped with it plus the time
 * elapsed since. Run by the scheduled job `billing-delivery`; returns counts.
 */
export async function deliverBillingNotices(
  db: Db,
  now: Date,
  options: DeliveryOptions = {},
): Promise<{ delivered: number; failed: number; gaveUp: number }> {
  const started = performance.now();
  const clock = () => new Date(now.getTime() + Math.round(performance.now() - started));
  const { rows } = await db.query<{ id: number; receiver_id: number }>(
    `SELECT d.id, d.receiver_id
       FROM billing_delivery d JOIN billing_receiver r ON r.id = d.receiver_id
      WHERE d.delivered_at IS NULL AND d.given_up_at IS NULL AND d.next_attempt_at <= $1::timestamptz AND r.active
      ORDER BY d.next_attempt_at, d.id LIMIT ${BATCH}`,
    [now],
  );
  const byReceiver = new Map<number, number[]>();
  for (const r of rows) byReceiver.set(r.receiver_id, [...(byReceiver.get(r.receiver_id) ?? []), r.id]);
  const counts = { delivered: 0, failed: 0, gaveUp: 0 };
  const limit = pLimit(DELIVERY_CONCURRENCY);
  const results = await Promise.allSettled(
    [...byReceiver.values()].map((ids) =>
      limit(async () => {
        for (const id of ids) {
          const { result, answered } = await sendOne(db, id, { start: now, clock }, options);
          if (result !== 'skipped') counts[result]++;
          // A receiver that did not answer is not waited for again in this run.
          if (!answered) break;
        }
      }),
    ),
  );
  const failure = results.find((r) => r.status === 'rejected');
  if (failure) throw failure.reason;
  return counts;
}

/** The scheduled work of the billing interface (server/src/jobs.ts): notices every 30 seconds. */
export const billingJobs: JobDef[] = [
  {
    name: 'billing-delivery',
    run: (db, now, { mailer, outgoing }) => deliverBillingNotices(db, now, { mailer, outgoing }),
    nextSql: "$1::timestamptz + interval '30 seconds'",
  },
];
