import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, type FlatStatement, GROUP, type StatementKindFigures } from '@rodmenys/contract';
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
  type Place,
} from '../../../test/factories.js';
import { plusMonths } from '../../../test/months.js';
import { computeMonthForAll, refreshMonthEnds } from '../../data-quality/refresh-month-ends.js';
import { computeStatements } from '../../statements/figures.js';
import { splitOccupancies } from '../../statements/occupancy-figures.js';
import { renderBuildingPdf, renderOccupantPdf } from '../../statements/pdf.js';

/*
 * The recalculation cap (docs/declared-readings.md, "Late declarations"): a declared meter's estimated
 * month end more than `declarations.recalcMonths` (N, 3) months before the provider's month is kept when
 * a late declaration comes; the declaration becomes the first open month's end, whose consumption
 * carries the correction, marked `lateDeclaration` on the statement. Months relative to now (the phone
 * declaration's day is checked against today): C is the provider's current month.
 */

const t = useApp();

const plus = plusMonths;

/** Month ends of C−18 … C−6 measured (100, 110, … 220: a reading on the next month's 1st, 00:00 local). */
const MEASURED = Array.from({ length: 13 }, (_, k) => k - 18);
const V6 = 220;

async function pdfText(stream: Readable): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'late-pdf-'));
  try {
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
    writeFileSync(path.join(dir, 'x.pdf'), Buffer.concat(chunks));
    return execFileSync('pdftotext', [path.join(dir, 'x.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe(`a late declaration and the recalculation cap (${dbKind()})`, { timeout: 180_000 }, () => {
  let C = '';
  let operator: Awaited<ReturnType<typeof makeSignedIn>>;
  let buildingId = 0;
  const id: Record<string, number> = {};
  const flat: Record<string, number> = {};

  /** A flat with a cold-water meter read by hand (or by radio) and the readings of MEASURED. */
  async function meter(b: Place, name: string, order: number, method: 'manual' | 'remote') {
    const f = await makeFlat(t.db, b, { name: String(order), order });
    flat[name] = f.id;
    id[name] = await makeDevice(t.db, f, {
      typeId: DEVICE_TYPE.coldWaterMeter,
      code: `CAP-${name}`,
      installedAt: `${plus(C, -19)}-01T00:00:00`,
    });
    await t.db.query('UPDATE device SET read_method = $2 WHERE id = $1', [id[name], method]);
    await makeReadings(
      t.db,
      id[name]!,
      MEASURED.map((k, i) => [`${plus(C, k + 1)}-01T00:00:00`, 100 + 10 * i] as const),
    );
    await makeOccupancy(t.db, f, { name: `Ona ${name}` });
  }

  const phone = (name: string, month: string, value: number) =>
    inject(t.app, contract.enterPhoneDeclaration, {
      token: operator.token,
      body: { deviceId: id[name]!, value, day: `${month}-20`, callerName: 'Ona' },
    });

  const monthEnd = async (name: string, month: string) =>
    (
      await t.db.query<{ value: number; source: string; late: string | null }>(
        `SELECT value::float8 AS value, source,
                CASE WHEN reading_ts < month::timestamp::timestamptz THEN to_char(reading_ts, 'YYYY-MM') END AS late
           FROM month_end WHERE device_id = $1 AND month = $2::date`,
        [id[name], `${month}-01`],
      )
    ).rows[0];

  const cold = async (month: string, name: string): Promise<StatementKindFigures> => {
    const rows: FlatStatement[] = await computeStatements(t.db, month, { scope: null, parents: [buildingId] });
    return rows.find((r) => r.Row.FlatId === flat[name])!.Row.Kinds.find((k) => k.Kind === 'coldWater')!;
  };

  beforeAll(async () => {
    const { rows } = await t.db.query<{ m: string }>(`SELECT to_char(now(), 'YYYY-MM') AS m`);
    C = rows[0]!.m;
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    const b = await makeBuilding(t.db);
    buildingId = b.id;
    await meter(b, 'late', 1, 'manual');
    await meter(b, 'radio', 2, 'remote');
    await meter(b, 'boundary', 3, 'manual');
    await meter(b, 'capOne', 4, 'manual');
    await meter(b, 'capThree', 5, 'manual');
    // C−5 … C−1 without a reading: estimated, the 12-month average (10) on the month before.
    for (let k = -18; k <= -1; k++) await computeMonthForAll(t.db, `${plus(C, k)}-01`);
  });

  it('estimates the months without a declaration at 10 a month', async () => {
    expect(await monthEnd('late', plus(C, -6))).toMatchObject({ value: V6, source: 'measured' });
    for (let k = 1; k <= 5; k++)
      expect(await monthEnd('late', plus(C, -6 + k))).toMatchObject({ value: V6 + 10 * k, source: 'estimated' });
  });

  it('a declaration N + 1 months late keeps the estimate and moves the correction into the first open month', async () => {
    const res = await phone('late', plus(C, -4), 247);
    expect(res.status, res.text).toBe(201);
    await refreshMonthEnds(t.db, new Date(), { ensure: false });
    // C−5 and C−4 (closed: before C−3) keep their estimates.
    expect(await monthEnd('late', plus(C, -5))).toMatchObject({ value: 230, source: 'estimated' });
    expect(await monthEnd('late', plus(C, -4))).toMatchObject({ value: 240, source: 'estimated' });
    // C−3 (the first open month): the declared value, carried from C−4; its consumption 247 − 240.
    expect(await monthEnd('late', plus(C, -3))).toMatchObject({
      value: 247,
      source: 'declared',
      late: plus(C, -4),
    });
    // C−2 is estimated again from it: the average of C−15 … C−3's month ends, (247 − 130) / 12.
    expect(await monthEnd('late', plus(C, -2))).toMatchObject({ value: 256.75, source: 'estimated' });
    const f = await cold(plus(C, -3), 'late');
    expect(f.Current.Value).toBe(7);
    expect(f.Markers).toContain('lateDeclaration');
    expect(f.LateDeclarations).toEqual([plus(C, -4)]);
    // The month before carries nothing.
    const before = await cold(plus(C, -4), 'late');
    expect(before.Current.Value).toBe(10);
    expect(before.Markers).not.toContain('lateDeclaration');
    expect(before.LateDeclarations).toEqual([]);
  });

  it("the statement's PDF and the occupant's statement and PDF say so, in both languages", async () => {
    const month = plus(C, -3);
    const all = await computeStatements(t.db, month, { scope: null, parents: [buildingId] });
    const st = all.filter((s) => s.Row.FlatId === flat.late || s.Row.FlatId === flat.radio);
    const en = await pdfText(renderBuildingPdf(st, 'en'));
    expect(en).toContain(`the difference counts in this month): Cold water – ${plus(C, -4)}.`);
    expect(en.match(/carrying a late declaration/g)).toHaveLength(1);
    const lt = await pdfText(renderBuildingPdf(st, 'lt'));
    expect(lt).toContain(`skirtumas įskaitytas šį mėnesį): Šaltas vanduo – ${plus(C, -4)}.`);
    const s = st.find((x) => x.Row.FlatId === flat.late)!;
    const occupants = await splitOccupancies(t.db, month, flat.late!, s.Row);
    expect(occupants[0]!.Kinds.find((k) => k.Kind === 'coldWater')!.LateDeclarations).toEqual([plus(C, -4)]);
    expect(await pdfText(renderOccupantPdf(s, occupants[0]!, 'en'))).toContain('Figures carrying a late declaration');
  });

  it('nothing is lost or counted twice: the months add up to the last value less the first', async () => {
    let sum = 0;
    for (let k = -5; k <= -1; k++) sum += (await cold(plus(C, k), 'late')).Current.Value!;
    const last = (await monthEnd('late', plus(C, -1)))!.value;
    expect(last).toBeGreaterThan(256.75);
    expect(sum).toBeCloseTo(last - V6, 9);
  });

  it('a radio meter with the same readings is recalculated and carries no marker', async () => {
    await makeReadings(t.db, id.radio!, [[`${plus(C, -4)}-20T23:59:59`, 247]]);
    // Queued as every path that stores readings queues them (services/readings/store-readings.ts).
    await t.db.query('INSERT INTO dq_pending (device_id, month) VALUES ($1, $2::date)', [
      id.radio,
      `${plus(C, -4)}-01`,
    ]);
    await refreshMonthEnds(t.db, new Date(), { ensure: false });
    // Recalculated however far back: C−5 interpolated up to the reading, C−4 estimated on from it.
    expect((await monthEnd('radio', plus(C, -5)))?.source).toBe('interpolated');
    expect((await monthEnd('radio', plus(C, -4)))!.value).toBeGreaterThan(247);
    const f = await cold(plus(C, -3), 'radio');
    expect(f.Markers).not.toContain('lateDeclaration');
    expect(f.LateDeclarations).toEqual([]);
  });

  it('a declaration exactly N months back is recalculated in place', async () => {
    const res = await phone('boundary', plus(C, -3), 247);
    expect(res.status, res.text).toBe(201);
    await refreshMonthEnds(t.db, new Date(), { ensure: false });
    expect(await monthEnd('boundary', plus(C, -3))).toMatchObject({ value: 247, source: 'declared', late: null });
    // The closed months before keep their estimates; C−3 is its own declaration, not a late one.
    expect(await monthEnd('boundary', plus(C, -4))).toMatchObject({ value: 240, source: 'estimated' });
    const f = await cold(plus(C, -3), 'boundary');
    expect(f.Current.Value).toBe(7);
    expect(f.Markers).not.toContain('lateDeclaration');
  });

  it('the setting changes the outcome: with 1, a declaration 2 months back moves into C − 1', async () => {
    // With the default 3: in place.
    expect((await phone('capThree', plus(C, -2), 249)).status).toBe(201);
    expect(await monthEnd('capThree', plus(C, -2))).toMatchObject({ value: 249, source: 'declared', late: null });
    await t.db.query(`UPDATE dq_setting SET value = '1' WHERE key = 'declarations.recalcMonths'`);
    try {
      const res = await phone('capOne', plus(C, -2), 249);
      expect(res.status, res.text).toBe(201);
      await refreshMonthEnds(t.db, new Date(), { ensure: false });
      expect(await monthEnd('capOne', plus(C, -2))).toMatchObject({ value: 260, source: 'estimated' });
      expect(await monthEnd('capOne', plus(C, -1))).toMatchObject({
        value: 249,
        source: 'declared',
        late: plus(C, -2),
      });
      // The estimate overshot: the correction is negative (249 − 260).
      const f = await cold(plus(C, -1), 'capOne');
      expect(f.Current.Value).toBe(-11);
      expect(f.LateDeclarations).toEqual([plus(C, -2)]);
    } finally {
      await t.db.query(`UPDATE dq_setting SET value = '3' WHERE key = 'declarations.recalcMonths'`);
    }
  });
});
