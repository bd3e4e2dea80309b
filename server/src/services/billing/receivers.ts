import { randomBytes } from 'node:crypto';
import {
  type BillingDelivery,
  type BillingReceiver,
  DELIVERY_REASON_TEXT,
  type DeliveryReason,
} from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest, notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { checkOutgoingUrl, NO_INTERNAL_NETWORKS, type OutgoingPolicy } from '../outgoing.js';

const COLUMNS = `r.id AS "Id", r.name AS "Name", r.kind AS "Kind", r.url AS "Url", r.email AS "Email",
  r.language AS "Language", r.active AS "Active", iso(r.created_at) AS "CreatedAt"`;

export async function listReceivers(db: Queryable): Promise<BillingReceiver[]> {
  const { rows } = await db.query<BillingReceiver>(
    `SELECT ${COLUMNS} FROM billing_receiver r ORDER BY r.active DESC, r.id`,
  );
  return rows;
}

/** A webhook's URL as stored, or 400 naming `url` (services/outgoing.ts; docs/integration.md, "Where a receiver may be"). */
async function checkUrl(url: string | undefined, policy: OutgoingPolicy): Promise<string> {
  const checked = await checkOutgoingUrl(url ?? '', policy);
  if ('refused' in checked) throw badRequest(checked.refused, {}, 'url');
  return checked.url;
}

/**
 * Adds a receiver (group 1). A webhook gets a random signing secret, answered here once (the server keeps it to
 * sign, so it is stored as it is; only this receiver's notices use it). Audited without the secret.
 */
export async function createReceiver(
  db: Db,
  caller: Caller,
  body: { name: string; kind: 'webhook' | 'email'; url?: string; email?: string; language?: 'lt' | 'en' },
  policy: OutgoingPolicy = NO_INTERNAL_NETWORKS,
): Promise<{ Receiver: BillingReceiver; Secret: string | null }> {
  const url = body.kind === 'webhook' ? await checkUrl(body.url, policy) : null;
  const email = body.kind === 'email' ? body.email?.trim() : null;
  if (body.kind === 'email' && !(email && /^[^\s@]+@[^\s@]+$/.test(email)))
    throw badRequest('receiverEmail', {}, 'email');
  const secret = body.kind === 'webhook' ? `whsec_${randomBytes(32).toString('base64url')}` : null;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<BillingReceiver>(
      `WITH r AS (INSERT INTO billing_receiver (name, kind, url, email, language, secret, created_by)
                  VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *)
       SELECT ${COLUMNS} FROM r`,
      [body.name.trim(), body.kind, url, email, body.language ?? 'lt', secret, caller.id],
    );
    const receiver = rows[0]!;
    await recordAudit(tx, {
      actor: caller,
      kind: 'billingReceiver.create',
      entity: 'billingReceiver',
      entityId: receiver.Id,
      before: null,
      after: { Name: receiver.Name, Kind: receiver.Kind, Url: receiver.Url, Email: receiver.Email },
    });
    return { Receiver: receiver, Secret: secret };
  });
}

/** Switches a receiver off; its pending notices are given up. Audited. */
export async function disableReceiver(db: Db, caller: Caller, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ name: string }>(
      'UPDATE billing_receiver SET active = false WHERE id = $1 RETURNING name',
      [id],
    );
    if (!rows[0]) throw notFound('receiverNotFound');
    await tx.query(
      'UPDATE billing_delivery SET given_up_at = now() WHERE receiver_id = $1 AND delivered_at IS NULL AND given_up_at IS NULL',
      [id],
    );
    await recordAudit(tx, {
      actor: caller,
      kind: 'billingReceiver.disable',
      entity: 'billingReceiver',
      entityId: id,
      before: { Name: rows[0].name, Active: true },
      after: { Name: rows[0].name, Active: false },
    });
  });
}

/**
 * Queues one notice per active receiver and version in the publishing transaction: the month, the version and
 * the buildings published with it (a publication that gives buildings different versions makes one notice each).
 */
export async function queueBillingNotices(
  tx: Queryable,
  month: string,
  published: readonly { buildingId: number; version: number; publishedAt: string }[],
): Promise<void> {
  const byVersion = new Map<number, typeof published>();
  for (const p of published) byVersion.set(p.version, [...(byVersion.get(p.version) ?? []), p]);
  for (const [version, list] of byVersion) {
    const buildings = list.map((p) => p.buildingId).sort((a, b) => a - b);
    const body = JSON.stringify({
      event: 'statements.published',
      month,
      version,
      buildings,
      publishedAt: list[0]!.publishedAt,
      export: `/api/billing/export?month=${month}&version=${version}&locationParentId=${buildings.join(',')}`,
    });
    await tx.query(
      `INSERT INTO billing_delivery (receiver_id, month, version, building_ids, body)
       SELECT r.id, $1::date, $2, $3::int[], $4 FROM billing_receiver r WHERE r.active`,
      [`${month}-01`, version, buildings, body],
    );
  }
}

/** The delivery log with every attempt, newest first (at most 500 notices). */
export async function listBillingDeliveries(db: Queryable, receiverId: number | undefined): Promise<BillingDelivery[]> {
  const { rows } = await db.query<BillingDelivery>(
    `SELECT d.id AS "Id", d.receiver_id AS "ReceiverId", r.name AS "ReceiverName", to_char(d.month, 'YYYY-MM') AS "Month",
            d.version AS "Version", d.building_ids AS "BuildingIds", iso(d.created_at) AS "CreatedAt",
            CASE WHEN d.delivered_at IS NOT NULL THEN 'delivered' WHEN d.given_up_at IS NOT NULL THEN 'failed'
                 ELSE 'pending' END AS "State",
            CASE WHEN d.delivered_at IS NULL AND d.given_up_at IS NULL THEN iso(d.next_attempt_at) END AS "NextAttemptAt",
            coalesce((SELECT json_agg(json_build_object('At', iso(a.attempted_at), 'Status', a.status,
                                'Reason', a.reason, 'Response', a.response, 'Error', NULL, 'DurationMs', a.duration_ms)
                                ORDER BY a.attempted_at, a.id)
                        FROM billing_delivery_attempt a WHERE a.delivery_id = d.id), '[]') AS "Attempts"
       FROM billing_delivery d JOIN billing_receiver r ON r.id = d.receiver_id
      WHERE $1::int IS NULL OR d.receiver_id = $1
      ORDER BY d.id DESC LIMIT 500`,
    [receiverId ?? null],
  );
  for (const d of rows) for (const a of d.Attempts) a.Error = errorOf(a.Reason, a.Status);
  return rows;
}

/** An attempt's reason in English, as the API gives it (`Error`); null when accepted. */
const errorOf = (reason: DeliveryReason, status: number | null) =>
  reason === 'accepted' ? null : DELIVERY_REASON_TEXT[reason].replace('{{status}}', String(status ?? ''));
