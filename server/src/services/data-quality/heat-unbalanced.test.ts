import { DEVICE_TYPE, GROUP, updateDigestSubscription } from '@rodmenys/contract';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn } from '../../test/factories.js';
import { heatMethod, OCTOBER_2026 } from '../../test/heat-method.js';
import { decodeMail, startSmtp } from '../../test/smtp.js';
import type { Caller } from '../auth/caller.js';
import { setBuildingHeatMethod } from '../heat-methods/heat-methods.js';
import { Mailer } from '../mail/index.js';
import { sendDigests } from './digest.js';
import { checkHeatBalance } from './heat-unbalanced.js';
import { refreshMonthEnds } from './refresh-month-ends.js';

/*
 * HEAT_UNBALANCED (docs/data-quality.md): a building whose month does not balance by its heat method
 * opens one anomaly per building and month saying why, which the digest carries; a month that
 * balances again resolves it.
 */

const t = useApp({ smtpUrl: 'smtp://127.0.0.1:1' });

const { MONTH, SEP, OCT, NOV, INSTALLED } = OCTOBER_2026;
const METHOD = heatMethod();

/** A building whose input meter measured `input` kWh in October; two allocator flats with 10 m³ of hot water each. */
async function building(number: string, input: number) {
  const b = await makeBuilding(t.db, { city: 'Alytus', street: 'Pulko g.', number });
  const meter = await makeDevice(t.db, b, { typeId: DEVICE_TYPE.buildingHeatMeter, installedAt: INSTALLED });
  await makeReadings(t.db, meter, [
    [SEP, 1_000],
    [OCT, 2_000],
    [NOV, 2_000 + input],
  ]);
  for (const name of ['1', '2']) {
    const flat = await makeFlat(t.db, b, { name, order: Number(name) });
    await t.db.query('UPDATE location SET area_m2 = 40 WHERE id = $1', [flat.id]);
    const alloc = await makeDevice(t.db, flat, {
      typeId: DEVICE_TYPE.allocator,
      ratingFactor: 1,
      installedAt: INSTALLED,
    });
    await makeReadings(t.db, alloc, [
      [SEP, 0],
      [OCT, 10],
      [NOV, 110],
    ]);
    const hot = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.hotWaterMeter, installedAt: INSTALLED });
    await makeReadings(t.db, hot, [
      [SEP, 0],
      [OCT, 5],
      [NOV, 15],
    ]);
  }
  return b.id;
}

describe(`HEAT_UNBALANCED: a month that does not balance by the building's method (${dbKind()})`, () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let caller: Caller;
  let unbalanced: number;
  let balanced: number;
  let token: string;
  const open = () =>
    t.db.query<{ building_id: number; month: string; state: string; evidence: Record<string, unknown> }>(
      `SELECT building_id, to_char(month, 'YYYY-MM') AS month, state, evidence FROM anomaly
        WHERE rule = 'HEAT_UNBALANCED' ORDER BY id`,
    );

  beforeAll(async () => {
    smtp = await startSmtp();
    const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    token = operator.token;
    await t.db.query("UPDATE app_user SET email = 'operator@example.lt' WHERE id = $1", [operator.id]);
    caller = { id: operator.id, username: operator.username, groupId: GROUP.operator, scope: null } as Caller;
    // 20 m³ of hot water need 51 × 20 = 1,020 kWh: 500 kWh cannot hold them; 10,000 can.
    unbalanced = await building('3', 500);
    balanced = await building('5', 10_000);
    await refreshMonthEnds(t.db, new Date('2026-11-20T10:00:00Z'));
    await setBuildingHeatMethod(t.db, caller, unbalanced, MONTH, METHOD);
    await setBuildingHeatMethod(t.db, caller, balanced, MONTH, METHOD);
  }, 120_000);
  afterAll(async () => {
    await smtp.close();
  });

  it('opens one anomaly per building and month saying why, idempotently, and the digest carries it', async () => {
    const on = await inject(t.app, updateDigestSubscription, { token, body: { optIn: true, language: 'en' } });
    expect(on.status, on.text).toBe(200);
    const now = new Date();
    expect(await checkHeatBalance(t.db, now, MONTH)).toEqual({ found: 1, opened: 1, resolved: 0 });
    expect(await checkHeatBalance(t.db, now, MONTH)).toEqual({ found: 1, opened: 0, resolved: 0 });
    expect((await open()).rows).toEqual([
      {
        building_id: unbalanced,
        month: MONTH,
        state: 'open',
        evidence: { unbalancedReason: 'hotWaterAboveInput', method: 'norm', methodFrom: MONTH },
      },
    ]);
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
    });
    const mailer = new Mailer(transport, 'rodmenys@example.lt', 'https://rodmenys.example.lt');
    expect(await sendDigests(t.db, mailer, new Date(now.getTime() + 1000))).toEqual({ sent: 1, subscribers: 1 });
    const text = decodeMail(smtp.delivered[0]!.raw);
    expect(text, text).toContain('- Heat split does not balance: Alytus m. sav., Alytus, Pulko g. 3');
  });

  it('resolves it when the month balances again', async () => {
    await setBuildingHeatMethod(t.db, caller, unbalanced, MONTH, { ...METHOD, KwhPerM3: 10 });
    expect(await checkHeatBalance(t.db, new Date(), MONTH)).toEqual({ found: 0, opened: 0, resolved: 1 });
    expect((await open()).rows.map((r) => r.state)).toEqual(['resolved']);
    void balanced;
  });
});
