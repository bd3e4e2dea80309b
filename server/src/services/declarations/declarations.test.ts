import { DEVICE_TYPE, GROUP, getBillingExport, getFlatStatement, getMonthEnds } from '@rodmenys/contract';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { inject, useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeOccupancy, makeReadings, makeSignedIn } from '../../test/factories.js';
import type { Caller } from '../auth/caller.js';
import { refreshMonthEnds } from '../data-quality/refresh-month-ends.js';
import { anonymiseOccupancy } from '../personal-data/anonymise.js';
import { declare, occupantDeclarations } from './declare.js';
import { decideDeclaration } from './office/review.js';
import { cleanPhoto, storePhoto } from './photo.js';
import { windowOn } from './window.js';

/*
 * The rules of declared readings over time (docs/declared-readings.md): the window's edges, the
 * latest declaration counts and on one day the largest, a replacement between lets the value be
 * lower, and the month end becomes `declared` and stays so when the month ends are computed again.
 * The service is called with its clock (`now`) so days can differ; HTTP is in routes/declarations.test.ts.
 */

describe('the declaration window', () => {
  it('runs from the 21st to the last day by default, in any month length', () => {
    expect(windowOn('2026-10-20', 21, 31)).toEqual({
      Month: '2026-10',
      Opens: '2026-10-21',
      Closes: '2026-10-31',
      Open: false,
    });
    expect(windowOn('2026-10-21', 21, 31).Open).toBe(true);
    expect(windowOn('2026-10-31', 21, 31).Open).toBe(true);
    expect(windowOn('2026-02-28', 21, 31)).toEqual({
      Month: '2026-02',
      Opens: '2026-02-21',
      Closes: '2026-02-28',
      Open: true,
    });
    expect(windowOn('2028-02-29', 21, 31).Closes).toBe('2028-02-29');
  });

  it('after it closes, names the next month’s opening', () => {
    expect(windowOn('2026-10-26', 10, 25)).toEqual({
      Month: '2026-11',
      Opens: '2026-11-10',
      Closes: '2026-11-25',
      Open: false,
    });
    expect(windowOn('2026-12-30', 21, 29)).toEqual({
      Month: '2027-01',
      Opens: '2027-01-21',
      Closes: '2027-01-29',
      Open: false,
    });
  });
});

describe(`declared readings over time (${dbKind()})`, () => {
  const t = useApp();
  // Times as a request carries them: with milliseconds (a declaration's reading is kept to the second).
  // The fraction is derived from the seconds (never zero): 00 → .113, 30 → .223, 59 → .296.
  const vilnius = (local: string) =>
    new Date(`${local}.${String((Number(local.slice(-2)) * 37 + 113) % 1000).padStart(3, '0')}+03:00`);
  const ids = { flat: 0, occupancy: 0 };

  const world = async (code: string) => {
    const building = await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: code });
    const flat = await makeFlat(t.db, building, { name: '1', order: 1 });
    const device = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: `R-${code}` });
    // Monthly readings at each month end of 2026, 4 a month: January's end 104 … September's 136.
    await makeReadings(
      t.db,
      device,
      Array.from({ length: 9 }, (_, i) => [
        `2026-${String(i + 2).padStart(2, '0')}-01T00:00:00+0${i < 2 ? 2 : 3}:00`,
        104 + i * 4,
      ]),
    );
    ids.flat = flat.id;
    ids.occupancy = await makeOccupancy(t.db, flat, { name: `Occupant ${code}` });
    return { device, flat: flat.id, occupancy: ids.occupancy };
  };
  const setWindow = (start: number, end: number) =>
    t.db.query(
      `UPDATE dq_setting SET value = CASE key WHEN 'declarations.windowStartDay' THEN $1::jsonb ELSE $2::jsonb END
        WHERE key IN ('declarations.windowStartDay', 'declarations.windowEndDay')`,
      [String(start), String(end)],
    );
  const by = (occupancyId: number) => ({ occupancyId, sessionId: null });

  it('counts the latest day’s declaration, and on one day the largest', async () => {
    await setWindow(21, 31);
    const w = await world('1');
    const who = by(w.occupancy);
    await declare(t.db, who, { deviceId: w.device, value: 141 }, vilnius('2026-10-22T09:00:00'));
    // The same day: 140.5 later, yet 141 stays the one that counts; 141.8 is larger and counts.
    const lower = await declare(t.db, who, { deviceId: w.device, value: 140.5 }, vilnius('2026-10-22T18:00:00'));
    expect(lower.Declaration.Counts).toBe(false);
    const larger = await declare(t.db, who, { deviceId: w.device, value: 141.8 }, vilnius('2026-10-22T19:00:00'));
    expect(larger.Declaration.Counts).toBe(true);
    // A later day: its declaration counts even though it is lower (a correction).
    const next = await declare(t.db, who, { deviceId: w.device, value: 140.2 }, vilnius('2026-10-25T08:00:00'));
    expect(next.Declaration).toMatchObject({ Counts: true, Channel: 'occupant', PreviousValue: 136 });
    // Only the counting one is a reading.
    const { rows } = await t.db.query<{ value: string }>(
      `SELECT value::text FROM reading WHERE device_id = $1 AND ts > '2026-10-01' ORDER BY ts`,
      [w.device],
    );
    expect(rows.map((r) => r.value)).toEqual(['140.2']);
    const page = await occupantDeclarations(t.db, w.occupancy, vilnius('2026-10-26T10:00:00'));
    expect(page.Devices[0]!.Declarations.filter((d) => d.Counts).map((d) => d.Value)).toEqual([140.2]);
  });

  /** The readings a device has in October 2026 (its declarations' month), in time order. */
  const octoberReadings = async (device: number) =>
    (
      await t.db.query<{ value: string }>(
        `SELECT value::text FROM reading WHERE device_id = $1 AND ts >= '2026-10-02' AND ts < '2026-11-01' ORDER BY ts`,
        [device],
      )
    ).rows.map((r) => r.value);
  const octoberEnd = async (device: number) =>
    (
      await t.db.query<{ value: string; source: string }>(
        `SELECT value::text, source FROM month_end WHERE device_id = $1 AND month = '2026-10-01'`,
        [device],
      )
    ).rows[0];

  it('takes a correction lower than this window’s earlier declaration, never below the previous value', async () => {
    await setWindow(21, 31);
    const w = await world('6');
    const who = by(w.occupancy);
    // September's end is 136; 160.734 is above the plausible maximum (146), confirmed.
    const high = await declare(
      t.db,
      who,
      { deviceId: w.device, value: 160.734, confirm: true },
      vilnius('2026-10-22T09:15:30'),
    );
    expect(high.Declaration).toMatchObject({ Status: 'doubtful', PreviousValue: 136, Counts: true });
    // The same day's corrections are checked against 136, not against the 160.734 declared before them.
    const lower = await declare(t.db, who, { deviceId: w.device, value: 145.734 }, vilnius('2026-10-22T18:02:11'));
    expect(lower.Declaration).toMatchObject({ Status: 'accepted', PreviousValue: 136, Counts: false });
    const lowest = await declare(t.db, who, { deviceId: w.device, value: 137.408 }, vilnius('2026-10-22T18:40:05'));
    expect(lowest.Declaration).toMatchObject({ Status: 'accepted', PreviousValue: 136, Counts: false });
    await expect(
      declare(t.db, who, { deviceId: w.device, value: 135.999 }, vilnius('2026-10-22T19:00:00')),
    ).rejects.toMatchObject({ statusCode: 400, code: 'declarationBelowPrevious', params: { previous: '136' } });
    const page = await occupantDeclarations(t.db, w.occupancy, vilnius('2026-10-23T10:00:00'));
    expect(page.Devices[0]!.PreviousValue).toBe(136);
    // Only the one that counts (the day's largest) is a reading.
    expect(await octoberReadings(w.device)).toEqual(['160.734']);
  });

  it('takes a declaration’s reading back when it stops counting, and the month end follows', async () => {
    await setWindow(21, 31);
    const w = await world('7');
    const who = by(w.occupancy);
    const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    const caller: Caller = { ...operator, scope: null, token: {} as Caller['token'] };
    const reject = (id: number) => decideDeclaration(t.db, caller, id, { accept: false, reason: 'misread' });
    const first = await declare(t.db, who, { deviceId: w.device, value: 138.25 }, vilnius('2026-10-22T08:00:01'));
    const high = await declare(
      t.db,
      who,
      { deviceId: w.device, value: 160.734, confirm: true },
      vilnius('2026-10-23T09:15:30'),
    );
    expect(high.Declaration.Counts).toBe(true);
    expect(await octoberReadings(w.device)).toEqual(['160.734']);
    expect(await octoberEnd(w.device)).toEqual({ value: '160.734', source: 'declared' });
    // Rejected: its reading goes, the earlier declaration counts again and is the month end.
    expect(await reject(high.Declaration.Id)).toMatchObject({ Status: 'rejected', Counts: false });
    expect(await octoberReadings(w.device)).toEqual(['138.25']);
    expect(await octoberEnd(w.device)).toEqual({ value: '138.25', source: 'declared' });
    // The next correction is checked against September's 136, not against the rejected reading.
    const next = await declare(t.db, who, { deviceId: w.device, value: 139.5 }, vilnius('2026-10-24T12:30:45'));
    expect(next.Declaration).toMatchObject({ PreviousValue: 136, Counts: true });
    expect(await octoberReadings(w.device)).toEqual(['139.5']);
    // Every one rejected: no declared reading is left and the month is computed again from the readings.
    await reject(next.Declaration.Id);
    await reject(first.Declaration.Id);
    expect(await octoberReadings(w.device)).toEqual([]);
    expect(await octoberEnd(w.device)).toBeUndefined();
    await refreshMonthEnds(t.db, new Date('2026-12-02T12:00:00Z'));
    expect((await octoberEnd(w.device))?.source).not.toBe('declared');
  });

  it('makes the month end declared, with who entered it, and the computation keeps it', async () => {
    await setWindow(21, 31);
    const w = await world('2');
    await declare(t.db, by(w.occupancy), { deviceId: w.device, value: 139.4 }, vilnius('2026-10-23T12:00:00'));
    // A reading after the month end would value October by interpolation; the declaration stays its value.
    await makeReadings(t.db, w.device, [['2026-11-03T00:00:00+02:00', 140]]);
    await t.db.query(`INSERT INTO dq_pending VALUES ($1, '2026-10-01'), ($1, '2026-11-01') ON CONFLICT DO NOTHING`, [
      w.device,
    ]);
    await refreshMonthEnds(t.db, new Date('2026-12-02T12:00:00Z'));
    const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    const res = await inject(t.app, getMonthEnds, {
      params: { deviceId: w.device },
      query: { from: '2026-09', till: '2026-11' },
      token: operator.token,
    });
    expect(res.status, res.text).toBe(200);
    const october = res.body.find((r) => r.Month === '2026-10');
    expect(october).toMatchObject({ Source: 'declared', Value: 139.4, Method: 'occupant' });
    expect(october!.ReadingTime?.slice(0, 10)).toBe('2026-10-23');
    expect(res.body.find((r) => r.Month === '2026-09')).toMatchObject({ Source: 'measured', Value: 136 });
    // The statement's figure and the billing export name the source.
    const statement = await inject(t.app, getFlatStatement, {
      params: { flatId: w.flat },
      query: { month: '2026-10' },
      token: operator.token,
    });
    expect(statement.status, statement.text).toBe(200);
    expect(statement.body.Row.Kinds.flatMap((k) => k.Current.Sources)).toContain('declared');
    const billing = await inject(t.app, getBillingExport, { query: { month: '2026-10' }, token: operator.token });
    expect(billing.status, billing.text).toBe(200);
    expect(billing.text).toContain('"EndSource":"declared"');
  });

  it('lets a replaced device’s new meter start lower, and still refuses below its own start', async () => {
    await setWindow(21, 31);
    const w = await world('3');
    await declare(t.db, by(w.occupancy), { deviceId: w.device, value: 139 }, vilnius('2026-10-22T10:00:00'));
    // Replaced on 5 November: the new meter starts at 2.
    const fresh = await makeDevice(t.db, w.flat, {
      typeId: DEVICE_TYPE.coldWaterMeter,
      code: 'R-3-NEW',
      installedAt: '2026-11-05T10:00:00+02:00',
    });
    await t.db.query(`UPDATE device SET removed_at = '2026-11-05T10:00:00+02:00', replaced_by = $2 WHERE id = $1`, [
      w.device,
      fresh,
    ]);
    await makeReadings(t.db, w.device, [['2026-11-05T10:00:00+02:00', 139.6]]);
    await makeReadings(t.db, fresh, [['2026-11-05T10:00:00+02:00', 2]]);
    const november = vilnius('2026-11-22T10:00:00');
    const page = await occupantDeclarations(t.db, w.occupancy, november);
    expect(page.Devices.map((d) => [d.DeviceCode, d.PreviousValue])).toEqual([['R-3-NEW', 2]]);
    const ok = await declare(t.db, by(w.occupancy), { deviceId: fresh, value: 5 }, november);
    expect(ok.Declaration).toMatchObject({ Value: 5, Status: 'accepted', PreviousValue: 2 });
    await expect(
      declare(t.db, by(w.occupancy), { deviceId: fresh, value: 1.5 }, vilnius('2026-11-23T10:00:00')),
    ).rejects.toMatchObject({ statusCode: 400, code: 'declarationBelowPrevious' });
  });

  it('opens at the window’s first instant and closes after its last day, in the provider’s zone', async () => {
    await setWindow(21, 31);
    const w = await world('4');
    await expect(
      declare(t.db, by(w.occupancy), { deviceId: w.device, value: 137 }, new Date('2026-10-20T23:59:59.999+03:00')),
    ).rejects.toMatchObject({ statusCode: 409, code: 'declarationWindowClosed' });
    const first = await declare(
      t.db,
      by(w.occupancy),
      { deviceId: w.device, value: 137 },
      new Date('2026-10-21T00:00:00+03:00'),
    );
    expect(first.Declaration.Month).toBe('2026-10');
    // The last day's last second (winter time from 25 October: +02:00) is inside, the next one outside.
    const last = await declare(
      t.db,
      by(w.occupancy),
      { deviceId: w.device, value: 138 },
      new Date('2026-10-31T23:59:59.999+02:00'),
    );
    expect(last.Declaration.Month).toBe('2026-10');
    await expect(
      declare(t.db, by(w.occupancy), { deviceId: w.device, value: 139 }, new Date('2026-11-01T00:00:00+02:00')),
    ).rejects.toMatchObject({ statusCode: 409, code: 'declarationWindowClosed', params: { opens: '2026-11-21' } });
  });

  it('removes the photos with the occupancy’s personal data, keeping the declared value', async () => {
    await setWindow(21, 31);
    const w = await world('5');
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const photoId = await storePhoto(t.db, w.occupancy, await cleanPhoto(png));
    const done = await declare(
      t.db,
      by(w.occupancy),
      { deviceId: w.device, value: 138, photoId },
      vilnius('2026-10-22T10:00:00'),
    );
    expect(done.Declaration.PhotoId).toBe(photoId);
    await t.db.query(`UPDATE occupancy SET move_out = '2026-11-25' WHERE id = $1`, [w.occupancy]);
    expect(await anonymiseOccupancy(t.db, w.occupancy, new Date('2035-01-01T12:00:00Z'))).not.toBeNull();
    const { rows: photos } = await t.db.query('SELECT 1 FROM declaration_photo WHERE occupancy_id = $1', [w.occupancy]);
    expect(photos).toHaveLength(0);
    const { rows } = await t.db.query<{ value: string; photo_id: number | null }>(
      'SELECT value::text, photo_id FROM declaration WHERE id = $1',
      [done.Declaration.Id],
    );
    expect(rows).toEqual([{ value: '138', photo_id: null }]);
  });
});
