import type { LnsEventResult } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { DECODERS, type Decoders } from './decoding.js';
import { isUplink, type LnsEvent, type OtherEvent } from './envelopes.js';
import { submitUplink } from './uplink-batch.js';

/**
 * Takes in one LNS event (docs/lorawan.md): an uplink of a device of the connection's buildings is
 * decoded by the device's decoder and stored with what it gave; its register value becomes a
 * reading through the one reading writer (services/readings/store-readings.ts), as a telegram's
 * does, so month ends, anomalies, statements and the billing export follow. Uplinks arriving
 * together are written together (uplink-batch.ts, store-uplinks.ts): the answer comes after the
 * commit that holds this one. Idempotent: the same uplink again (ChirpStack's deduplicationId, or
 * the same DevEUI, session address, frame counter and payload) stores nothing.
 */

/** Takes in one event of an authenticated connection. */
export async function ingestLnsEvent(
  db: Db,
  /** The authenticated connection (its key's). */
  connection: { id: number },
  event: LnsEvent,
  decoders: Decoders = DECODERS,
): Promise<LnsEventResult> {
  if (!isUplink(event)) {
    await noteEvent(db, connection.id, event);
    return { Event: event.kind, Outcome: 'counted', Reading: false, Reason: null };
  }
  return submitUplink(db, { connectionId: connection.id, event, decoders });
}

/** Another event: one row (counted per kind; status and log kept for health). */
async function noteEvent(db: Queryable, connectionId: number, e: OtherEvent): Promise<void> {
  await db.query(
    `INSERT INTO lns_event (connection_id, kind, at, dev_eui, battery, external_power, margin, code, description)
     VALUES ($1, $2, coalesce($3::timestamptz, now()), $4, $5, $6, $7, $8, $9)`,
    [
      connectionId,
      e.kind,
      e.time,
      e.devEui,
      e.battery ?? null,
      e.externalPower ?? null,
      e.margin ?? null,
      e.code ?? null,
      e.description ?? null,
    ],
  );
}
