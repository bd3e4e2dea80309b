import type { Db } from '../../db/db.js';
import type { TelegramItem } from '../ingest/map-telegram.js';
import { parseTime } from '../time.js';

const METER_ID = /^[0-9A-Za-z_.:-]{1,64}$/;

/** rssi_dbm as kept: a whole dBm in a plausible range; 999 (rtl433's "unknown") and anything else odd is null. */
export function rssiOf(v: unknown): number | null {
  if (typeof v !== 'number' || !Number.isFinite(v) || v === 999) return null;
  return v >= -200 && v <= 50 ? Math.round(v) : null;
}

/**
 * Notes what a collector request carried (docs/collectors.md, "Health"): the
 * collector's last contact, and per telegram with a meter id its arrival, the
 * collector's own time stamp (any year: 1970 means it has no clock, which the
 * ingest refuses as a reception time but the health shows) and its signal.
 * Known and unknown meters alike: a collector that hears only strangers still hears.
 */
export async function noteCollectorRequest(
  db: Db,
  collectorId: number,
  items: readonly TelegramItem[],
  now = new Date(),
): Promise<void> {
  const meters: string[] = [];
  const stamps: (string | null)[] = [];
  const rssi: (number | null)[] = [];
  for (const { json } of items) {
    if (typeof json.id !== 'string' || !METER_ID.test(json.id)) continue;
    meters.push(json.id);
    const t = typeof json.timestamp === 'string' ? parseTime(json.timestamp) : undefined;
    stamps.push(t && t.year >= 1 && t.year <= 9999 ? t.text : null);
    rssi.push(rssiOf(json.rssi_dbm));
  }
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO collector_contact (collector_id, last_contact) VALUES ($1, $2::timestamptz)
       ON CONFLICT (collector_id) DO UPDATE SET last_contact = greatest(collector_contact.last_contact, excluded.last_contact)`,
      [collectorId, now],
    );
    if (meters.length === 0) return;
    await tx.query(
      `INSERT INTO collector_heard (collector_id, meter_id, received_at, stamped_at, rssi_dbm)
       SELECT $1, m, $2::timestamptz, s, r FROM unnest($3::text[], $4::timestamptz[], $5::int[]) AS x(m, s, r)`,
      [collectorId, now, meters, stamps, rssi],
    );
  });
}

/** Stores an alarmshell event and counts it as contact. */
export async function noteCollectorAlarm(
  db: Db,
  collectorId: number,
  type: string,
  message: string,
  now = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO collector_contact (collector_id, last_contact) VALUES ($1, $2::timestamptz)
       ON CONFLICT (collector_id) DO UPDATE SET last_contact = greatest(collector_contact.last_contact, excluded.last_contact)`,
      [collectorId, now],
    );
    await tx.query(
      'INSERT INTO collector_event (collector_id, received_at, alarm_type, message) VALUES ($1, $2::timestamptz, $3, $4)',
      [collectorId, now, type.trim(), message.trim()],
    );
  });
}
