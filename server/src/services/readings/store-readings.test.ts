import { DEVICE_TYPE } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../test/db.js';
import { lastSeenMismatches, makeBuilding, makeDevice, makeFlat, type Place } from '../../test/factories.js';
import { importCsv } from '../ingest/import-csv.js';
import { ingestTelegrams } from '../ingest/ingest-telegrams.js';
import { writeIntoMonths } from '../partitions/partitions.js';
import { storeGivenReadings } from './store-readings.js';

describe(`the one reading writer: telegrams, CSV files and given readings (${dbKind()})`, () => {
  const t = useDb();
  let flat: Place;
  beforeAll(async () => {
    flat = await makeFlat(t.db, await makeBuilding(t.db));
  });

  const state = async (deviceId: number) => {
    const { rows: readings } = await t.db.query<{ ts: string; value: string }>(
      'SELECT iso(ts) AS ts, value::text AS value FROM reading WHERE device_id = $1 ORDER BY ts',
      [deviceId],
    );
    const { rows: status } = await t.db.query<{ last_seen: string }>(
      'SELECT iso(last_seen) AS last_seen FROM device_status WHERE device_id = $1',
      [deviceId],
    );
    const { rows: pending } = await t.db.query<{ month: string }>(
      "SELECT to_char(month, 'YYYY-MM') AS month FROM dq_pending WHERE device_id = $1 ORDER BY month",
      [deviceId],
    );
    return {
      readings: readings.map((r) => [r.ts, r.value]),
      lastSeen: status[0]?.last_seen ?? null,
      pending: pending.map((p) => p.month),
    };
  };

  it('keeps device_status and the data-quality queue the same way whichever path writes', async () => {
    const now = new Date('2026-03-10T12:00:00Z');
    const viaCsv = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'RW-CSV' });
    const viaTelegram = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'RW-TG' });
    const given = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'RW-GIVEN' });

    await importCsv(t.db, 'RW-CSV;2026-02-10T10:00:00+02:00;5,5\nRW-CSV;2026-01-20T10:00:00+02:00;4', now);
    const json = { id: 'RW-TG', meter: 'multical21', total_m3: 7.25, timestamp: '2026-02-11T10:00:00Z' };
    await ingestTelegrams(t.db, [{ position: 1, json, raw: JSON.stringify(json) }], now);
    // Given readings are written as the device edits write them: their months get partitions first.
    await writeIntoMonths(t.db, () =>
      t.db.transaction((tx) =>
        storeGivenReadings(tx, [
          { deviceId: given, ts: '2026-02-12T10:00:00+02:00', value: 9 },
          { deviceId: given, ts: '2025-12-31T10:00:00+02:00', value: 8 },
        ]),
      ),
    );

    expect(await state(viaCsv)).toEqual({
      readings: [
        ['2026-01-20T10:00:00+02:00', '4'],
        ['2026-02-10T10:00:00+02:00', '5.5'],
      ],
      lastSeen: '2026-02-10T10:00:00+02:00',
      pending: ['2026-01', '2026-02'],
    });
    expect(await state(viaTelegram)).toEqual({
      readings: [['2026-02-11T12:00:00+02:00', '7.25']],
      lastSeen: '2026-02-11T12:00:00+02:00',
      pending: ['2026-02'],
    });
    expect(await state(given)).toEqual({
      readings: [
        ['2025-12-31T10:00:00+02:00', '8'],
        ['2026-02-12T10:00:00+02:00', '9'],
      ],
      lastSeen: '2026-02-12T10:00:00+02:00',
      pending: ['2025-12', '2026-02'],
    });
    expect(await lastSeenMismatches(t.db)).toEqual([]);
  });

  it('never lowers LastSeen; a file keeps a stored reading, an operator replaces its value', async () => {
    const now = new Date('2026-03-10T12:00:00Z');
    const id = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.hotWaterMeter, code: 'RW-BOTH' });
    await importCsv(t.db, 'RW-BOTH;2026-02-20T10:00:00+02:00;3', now);
    // An older reading, by each path, leaves LastSeen where it is.
    await importCsv(t.db, 'RW-BOTH;2026-02-01T10:00:00+02:00;1', now);
    await writeIntoMonths(t.db, () =>
      t.db.transaction((tx) => storeGivenReadings(tx, [{ deviceId: id, ts: '2026-02-05T10:00:00+02:00', value: 2 }])),
    );
    expect((await state(id)).lastSeen).toBe('2026-02-20T10:00:00+02:00');
    // The same instant again: a file changes nothing, an operator's value wins.
    const again = await importCsv(t.db, 'RW-BOTH;2026-02-20T10:00:00+02:00;30', now);
    expect(again).toMatchObject({ Stored: 0, Duplicates: 1 });
    expect((await state(id)).readings.at(-1)).toEqual(['2026-02-20T10:00:00+02:00', '3']);
    const written = await writeIntoMonths(t.db, () =>
      t.db.transaction((tx) => storeGivenReadings(tx, [{ deviceId: id, ts: '2026-02-20T10:00:00+02:00', value: 31 }])),
    );
    expect(written).toBe(1);
    expect(await state(id)).toEqual({
      readings: [
        ['2026-02-01T10:00:00+02:00', '1'],
        ['2026-02-05T10:00:00+02:00', '2'],
        ['2026-02-20T10:00:00+02:00', '31'],
      ],
      lastSeen: '2026-02-20T10:00:00+02:00',
      pending: ['2026-02'],
    });
    // A reading of a device that does not exist is never written (reading has no foreign key).
    expect(
      await writeIntoMonths(t.db, () =>
        t.db.transaction((tx) => storeGivenReadings(tx, [{ deviceId: 999_999, ts: '2026-02-20', value: 1 }])),
      ),
    ).toBe(0);
  });
});
