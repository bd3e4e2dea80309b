import { DEVICE_TYPE } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../test/db.js';
import {
  lastSeenMismatches,
  makeBuilding,
  makeDevice,
  makeFlat,
  makeReadings,
  type Place,
} from '../../test/factories.js';

describe(`keep_last_seen and the LastSeen invariant (${dbKind()})`, () => {
  const t = useDb();
  let flat: Place;
  beforeAll(async () => {
    flat = await makeFlat(t.db, await makeBuilding(t.db), { order: 1 });
  });

  it('finds a reading inserted without keeping last_seen, and keep_last_seen (the migration backfill) fixes it', async () => {
    const { db } = t;
    const a = await makeDevice(db, flat, { typeId: DEVICE_TYPE.coldWaterMeter });
    const b = await makeDevice(db, flat, { typeId: DEVICE_TYPE.coldWaterMeter });
    await makeReadings(db, a, [['2026-02-01T10:00:00+02:00', 1]]);
    expect(await lastSeenMismatches(db)).toEqual([]);
    // As a COPY load would: readings without device_status (b has no row, a an older one).
    await db.query(
      `INSERT INTO reading (device_id, ts, value) VALUES ($1, '2026-02-03T10:00:00+02:00', 2), ($2, '2026-02-02T10:00:00+02:00', 5)`,
      [a, b],
    );
    expect(await lastSeenMismatches(db)).toEqual([
      { id: a, kept: '2026-02-01T10:00:00+02:00', latest: '2026-02-03T10:00:00+02:00' },
      { id: b, kept: null, latest: '2026-02-02T10:00:00+02:00' },
    ]);
    await db.query('SELECT keep_last_seen(array(SELECT id FROM device))');
    expect(await lastSeenMismatches(db)).toEqual([]);
    // An older reading added later never lowers it; a newer telegram time is kept.
    await db.query(
      "UPDATE device_status SET last_seen = '2026-02-05T10:00:00+02:00', telegram_ts = '2026-02-05T10:00:00+02:00' WHERE device_id = $1",
      [b],
    );
    await db.query(`INSERT INTO telegram (device_id, ts, raw) VALUES ($1, '2026-02-05T10:00:00+02:00', '{}')`, [b]);
    await makeReadings(db, b, [['2026-02-04T10:00:00+02:00', 6]]);
    const { rows } = await db.query<{ last_seen: string }>(
      'SELECT iso(last_seen) AS last_seen FROM device_status WHERE device_id = $1',
      [b],
    );
    expect(rows[0]!.last_seen).toBe('2026-02-05T10:00:00+02:00');
    expect(await lastSeenMismatches(db)).toEqual([]);
  });
});
