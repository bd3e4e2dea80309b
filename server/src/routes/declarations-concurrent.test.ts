import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { refreshMonthEnds } from '../services/data-quality/refresh-month-ends.js';
import { issueLink } from '../services/occupant-access/secrets.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeOccupancy, makeReadings } from '../test/factories.js';

/*
 * Twenty declarations of one meter at once, over real HTTP to the listening app
 * (docs/declared-readings.md, "Several declarations"): each is checked against the previous value
 * (the latest reading that is not one of this month's declarations), so every valid one is stored,
 * none fails, and exactly the documented one counts (the latest day's; on that day the largest, then
 * the latest), its value the meter's only declared reading and the month end.
 */

/** Mid-month readings of the 13 months before this one, 5 a month from 500: the previous value is 560. */
function history(): [string, number][] {
  const now = new Date();
  return Array.from({ length: 13 }, (_, i) => [
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 13 + i, 15, 10)).toISOString(),
    500 + i * 5,
  ]);
}

describe(`twenty declarations of one meter at once (${dbKind()})`, () => {
  const t = useApp();

  it('stores every valid one, none fails, and the documented one counts', async () => {
    await t.db.query(
      `UPDATE dq_setting SET value = CASE key WHEN 'declarations.windowStartDay' THEN '1'::jsonb ELSE '31'::jsonb END
        WHERE key IN ('declarations.windowStartDay', 'declarations.windowEndDay')`,
    );
    const building = await makeBuilding(t.db, { city: 'Vilnius', street: 'Konstitucijos pr.', number: '20' });
    const flat = await makeFlat(t.db, building, { name: '20', order: 20 });
    const device = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'DC-TWENTY' });
    await makeReadings(t.db, device, history());
    await refreshMonthEnds(t.db, new Date());
    const occupancy = await makeOccupancy(t.db, flat, { name: 'Dvidešimt Vienu Metu' });
    const signedIn = await inject(t.app, contract.signInOccupantByLink, {
      body: { token: await issueLink(t.db, occupancy) },
    });
    expect(signedIn.status, signedIn.text).toBe(201);
    const token = signedIn.body.Token;
    const page = await inject(t.app, contract.getOccupantDeclarations, { token });
    expect(page.body.Devices.map((d) => [d.DeviceCode, d.PreviousValue])).toEqual([['DC-TWENTY', 560]]);
    expect(page.body.Devices[0]!.PlausibleMax).toBeGreaterThan(572);

    // 20 values above 560 in a scrambled order, the largest twice (then the later one counts).
    const values = [...Array.from({ length: 19 }, (_, i) => 560 + ((i * 7) % 19) * 0.625 + 0.125), 571.375];
    expect(values.filter((v) => v === Math.max(...values))).toHaveLength(2);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const answers = await Promise.all(
      values.map(async (value) => {
        const res = await fetch(`http://127.0.0.1:${port}/api/occupant/declarations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ deviceId: device, value }),
        });
        return { status: res.status, body: (await res.json()) as contract.DeclarationReceipt };
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(values.map(() => 201));
    // Each was checked against 560, not against the ones before it.
    expect(answers.map((a) => a.body.Declaration.PreviousValue)).toEqual(values.map(() => 560));

    const after = await inject(t.app, contract.getOccupantDeclarations, { token });
    const stored = after.body.Devices[0]!.Declarations;
    expect(stored.map((d) => d.Value).sort()).toEqual([...values].sort());
    // The documented winner: the latest day's; on that day the largest; then the latest.
    const winner = [...stored].sort(
      (a, b) =>
        b.DeclaredAt.slice(0, 10).localeCompare(a.DeclaredAt.slice(0, 10)) ||
        b.Value - a.Value ||
        b.DeclaredAt.localeCompare(a.DeclaredAt) ||
        b.Id - a.Id,
    )[0]!;
    expect(stored.filter((d) => d.Counts).map((d) => d.Id)).toEqual([winner.Id]);
    expect(winner.Value).toBe(571.375);
    // It alone is a reading of this month, and the month end.
    const month = `${after.body.Window.Month}-01`;
    const { rows: readings } = await t.db.query<{ value: string }>(
      `SELECT value::text FROM reading WHERE device_id = $1 AND ts >= $2::date::timestamptz`,
      [device, month],
    );
    expect(readings.map((r) => r.value)).toEqual(['571.375']);
    const { rows: ends } = await t.db.query<{ value: string; source: string }>(
      `SELECT value::text, source FROM month_end WHERE device_id = $1 AND month = $2::date`,
      [device, month],
    );
    expect(ends).toEqual([{ value: '571.375', source: 'declared' }]);
  });
});
