import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEVICE_TYPE } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeOccupancy, makeReadings } from '../../test/factories.js';

/*
 * Migration 305 on a database the earlier code filled: declarations kept the request's fraction of a
 * second and their readings were stored to the second, so the reading of one that stopped counting
 * stayed (docs/declared-readings.md, "Several declarations"). The migration holds declarations to
 * whole seconds and takes those readings back.
 */
const MIGRATION = readFileSync(
  path.join(import.meta.dirname, '../../db/migrations/305_declaration_whole_second.sql'),
  'utf8',
);

describe(`declarations to the second, migration 305 (${dbKind()})`, () => {
  const t = useDb();

  it('takes back the readings left by declarations that do not count, and keeps every other reading', async () => {
    const building = await makeBuilding(t.db, { city: 'Kaunas', street: 'Savanorių pr.', number: '305' });
    const flat = await makeFlat(t.db, building, { name: '1', order: 1 });
    const device = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'WS-305' });
    const occupancy = await makeOccupancy(t.db, flat);
    // The database as the earlier code left it.
    await t.db.exec(`ALTER TABLE declaration DROP CONSTRAINT declaration_whole_second;
                     ALTER TABLE declaration ALTER COLUMN declared_at SET DEFAULT now()`);
    const declared: [string, number, string][] = [
      // Counts (the latest day's of those not rejected).
      ['2026-10-23 08:00:01.5+03', 138.25, 'accepted'],
      // Rejected; its reading stayed.
      ['2026-10-24 09:15:30.25+03', 160.734, 'rejected'],
      // Rejected; an operator's reading of another value at its second is not its reading.
      ['2026-10-25 10:00:00.7+03', 150, 'rejected'],
      // An earlier day's: another one counts; its reading stayed.
      ['2026-10-22 18:40:05.999+03', 137.408, 'accepted'],
    ];
    for (const [at, value, status] of declared) {
      await t.db.query(
        `INSERT INTO declaration (device_id, occupancy_id, location_id, value, declared_at, month, channel, status, reason)
         VALUES ($1, $2, $3, $4, $5, '2026-10-01', 'occupant', $6, CASE WHEN $6 = 'rejected' THEN 'misread' END)`,
        [device, occupancy, flat.id, value, at, status],
      );
    }
    await makeReadings(t.db, device, [
      ['2026-10-01T00:00:00+03:00', 136],
      ['2026-10-22T18:40:05+03:00', 137.408],
      ['2026-10-23T08:00:01+03:00', 138.25],
      ['2026-10-24T09:15:30+03:00', 160.734],
      ['2026-10-25T10:00:00+03:00', 149],
    ]);
    await t.db.query('DELETE FROM dq_pending');

    await t.db.transaction((tx) => tx.exec(MIGRATION));

    const { rows: readings } = await t.db.query<{ value: string }>(
      'SELECT value::text FROM reading WHERE device_id = $1 ORDER BY ts',
      [device],
    );
    expect(readings.map((r) => r.value)).toEqual(['136', '138.25', '149']);
    const { rows: times } = await t.db.query<{ at: string }>(
      `SELECT to_char(declared_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS at FROM declaration
        WHERE device_id = $1 ORDER BY declared_at`,
      [device],
    );
    expect(times.map((r) => r.at)).toEqual([
      '2026-10-22 15:40:05.000000',
      '2026-10-23 05:00:01.000000',
      '2026-10-24 06:15:30.000000',
      '2026-10-25 07:00:00.000000',
    ]);
    const { rows: pending } = await t.db.query<{ month: string }>(
      'SELECT month::text FROM dq_pending WHERE device_id = $1',
      [device],
    );
    expect(pending.map((r) => r.month)).toEqual(['2026-10-01']);
    // From now on a fraction of a second is refused by the table itself (the writers store whole seconds).
    await expect(
      t.db.query(
        `INSERT INTO declaration (device_id, occupancy_id, location_id, value, declared_at, month, channel)
         VALUES ($1, $2, $3, 139, '2026-10-26 10:00:00.5+02', '2026-10-01', 'occupant')`,
        [device, occupancy, flat.id],
      ),
    ).rejects.toThrow(/declaration_whole_second/);
  });
});
