import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../../../test/app.js';
import { dbKind } from '../../../test/db.js';
import {
  makeBuilding,
  makeDevice,
  makeFlat,
  makeOccupancy,
  makeReadings,
  makeSignedIn,
  type ReadingInput,
} from '../../../test/factories.js';
import { currentMonth, plusMonths } from '../../../test/months.js';
import { computeMonthForAll } from '../../data-quality/refresh-month-ends.js';

/*
 * A declared meter's month without a declaration (docs/declared-readings.md): estimated from
 * its own average monthly consumption of the 12 months before; replaced when the declaration comes.
 * A radio meter with the same readings keeps the estimate it had (the same month last year × trend).
 */

const t = useApp();

/**
 * The 13 months up to last month (within the recalculation cap, docs/declared-readings.md): a reading on
 * each one's 1st at 00:00 (local) is the month end of the month before; the last one has none.
 */
const months = Array.from({ length: 13 }, (_, i) => plusMonths(currentMonth(), i - 13));
/** Monthly consumption from the month before the first, that one much larger than the rest (last year ≠ the average). */
const use = [30, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const readings: ReadingInput[] = months.map((m, i) => {
  const value = 100 + use.slice(0, i).reduce((a, b) => a + b, 0);
  return [`${m}-01T00:00:00`, value] as const;
});

describe(`the estimated month end of a declared meter (${dbKind()})`, { timeout: 120_000 }, () => {
  const id: Record<string, number> = {};
  beforeAll(async () => {
    const b = await makeBuilding(t.db);
    const flat = await makeFlat(t.db, b);
    id.declared = await makeDevice(t.db, flat, {
      typeId: DEVICE_TYPE.coldWaterMeter,
      installedAt: `${plusMonths(months[0]!, -2)}-01T00:00:00`,
    });
    id.radio = await makeDevice(t.db, flat, {
      typeId: DEVICE_TYPE.coldWaterMeter,
      installedAt: `${plusMonths(months[0]!, -2)}-01T00:00:00`,
    });
    await t.db.query(`UPDATE device SET read_method = 'manual' WHERE id = $1`, [id.declared]);
    await t.db.query(`UPDATE device SET read_method = 'remote' WHERE id = $1`, [id.radio]);
    // The month before the first … the last but one measured (13 month ends); nothing for the last.
    for (const d of [id.declared!, id.radio!]) await makeReadings(t.db, d, readings);
    await makeOccupancy(t.db, flat, { name: 'Ona' });
    for (const m of [plusMonths(months[0]!, -1), ...months]) await computeMonthForAll(t.db, `${m}-01`);
  });

  const monthEnd = async (deviceId: number, month: string) =>
    (
      await t.db.query<{ value: string; source: string; method: string | null }>(
        'SELECT value::text AS value, source, method FROM month_end WHERE device_id = $1 AND month = $2',
        [deviceId, `${month}-01`],
      )
    ).rows[0];

  it('a month without a declaration: the last month end plus the 12-month average', async () => {
    // The last but one month's end is 100 + all of use (the reading on the last month's 1st, 00:00).
    const dec = 100 + use.reduce((a, b) => a + b, 0);
    expect((await monthEnd(id.declared!, months[11]!))?.source).toBe('measured');
    // The 12 months before the last: from the month end of the month before the first (100) to the last but one's.
    const avg = (dec - 100) / 12;
    const jan = await monthEnd(id.declared!, months[12]!);
    expect(jan).toMatchObject({ source: 'estimated', method: 'average_12_months' });
    expect(Number(jan!.value)).toBeCloseTo(dec + avg, 3);
    // The radio meter: the same month last year (30) scaled by the trend, not the average.
    const radio = await monthEnd(id.radio!, months[12]!);
    expect(radio?.method).toBe('last_year_trend');
    expect(Number(radio!.value)).not.toBeCloseTo(dec + avg, 3);
  });

  it('replaced when the declaration comes', async () => {
    const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    const res = await inject(t.app, contract.enterPhoneDeclaration, {
      token: operator.token,
      body: { deviceId: id.declared!, value: 220.25, day: `${months[12]}-27`, callerName: 'Ona' },
    });
    expect(res.status, res.text).toBe(201);
    expect(await monthEnd(id.declared!, months[12]!)).toMatchObject({ value: '220.25', source: 'declared' });
  });
});
