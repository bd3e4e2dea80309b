import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP, REGISTER_COLUMNS, type RegisterColumn } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn } from '../../test/factories.js';
import { refreshMonthEnds } from './refresh-month-ends.js';

// No month end outside a device's service period (docs/data-quality.md, "Service period"): a change of
// installation or removal time deletes the month ends it puts outside the service and computes again
// the months it touches. Known answers on hand-built devices; "now" is mid-May 2026.
const NOW = new Date('2026-05-15T12:00:00Z');

describe(`Month ends follow the service period (${dbKind()})`, () => {
  const t = useApp();
  let operator: string;
  let flat: number;
  let n = 0;

  beforeAll(async () => {
    operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
    flat = (await makeFlat(t.db, await makeBuilding(t.db, { street: 'Tarnybos g.' }), { name: '1' })).id;
  });

  /** A cold-water meter read at 20:00 on each month's last day: 10, 20, 30, 40 (January to April). */
  const meter = async () => {
    const id = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: `SP-${++n}` });
    await makeReadings(t.db, id, [
      ['2026-01-31T20:00:00+02:00', 10],
      ['2026-02-28T20:00:00+02:00', 20],
      ['2026-03-31T20:00:00+03:00', 30],
      ['2026-04-30T20:00:00+03:00', 40],
    ]);
    return id;
  };
  const monthEnds = async (id: number) =>
    (
      await t.db.query<{ month: string; value: number; source: string }>(
        `SELECT to_char(month, 'YYYY-MM') AS month, value::float8 AS value, source
           FROM month_end WHERE device_id = $1 AND month >= '2026-01-01' ORDER BY month`,
        [id],
      )
    ).rows.map((r) => `${r.month} ${r.value} ${r.source}`);
  const remove = async (id: number, removedAt: string, finalReading: number) => {
    const res = await inject(t.app, contract.removeDevice, {
      token: operator,
      params: { id },
      body: { removedAt, finalReading },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('a backdated removal deletes the month ends after it, and the month before it keeps its value', async () => {
    const id = await meter();
    await refreshMonthEnds(t.db, NOW);
    expect(await monthEnds(id)).toEqual([
      '2026-01 10 measured',
      '2026-02 20 measured',
      '2026-03 30 measured',
      '2026-04 40 measured',
    ]);
    // Removed on 15 February, recorded in May.
    await remove(id, '2026-02-15T12:00:00+02:00', 15);
    expect(await monthEnds(id)).toEqual(['2026-01 10 measured']);
    await refreshMonthEnds(t.db, NOW);
    expect(await monthEnds(id)).toEqual(['2026-01 10 measured']);
    // Nothing listed as missing after the removal either.
    const res = await inject(t.app, contract.getMonthEnds, {
      token: operator,
      params: { deviceId: id },
      query: { from: '2026-01', till: '2026-04' },
    });
    expect((res.body as Array<{ Month: string }>).map((r) => r.Month)).toEqual(['2026-01']);
  });

  it('a removal exactly at 00:00 on the 1st ends the month before, with its final reading as the month end', async () => {
    const id = await meter();
    await refreshMonthEnds(t.db, NOW);
    await remove(id, '2026-03-01T00:00:00+02:00', 25);
    await refreshMonthEnds(t.db, NOW, { ensure: false });
    // February ends at the removal: the final reading, stamped at that boundary, is its measured value.
    expect(await monthEnds(id)).toEqual(['2026-01 10 measured', '2026-02 25 measured']);
  });

  it('an installation moved later (a correction) deletes the month ends before it', async () => {
    const id = await meter();
    await refreshMonthEnds(t.db, NOW);
    await t.db.query(`UPDATE device SET installed_at = '2026-03-10T09:00:00+02:00' WHERE id = $1`, [id]);
    expect(await monthEnds(id)).toEqual(['2026-03 30 measured', '2026-04 40 measured']);
  });

  it('an installation moved earlier queues the months it adds to the service', async () => {
    const id = await makeDevice(t.db, flat, {
      typeId: DEVICE_TYPE.coldWaterMeter,
      code: `SP-${++n}`,
      installedAt: '2026-03-10T09:00:00+02:00',
    });
    await makeReadings(t.db, id, [
      ['2026-01-31T20:00:00+02:00', 10],
      ['2026-02-28T20:00:00+02:00', 20],
      ['2026-03-31T20:00:00+03:00', 30],
    ]);
    await refreshMonthEnds(t.db, NOW);
    expect((await monthEnds(id))[0]).toBe('2026-03 30 measured');
    await t.db.query(`UPDATE device SET installed_at = '2026-01-05T09:00:00+02:00' WHERE id = $1`, [id]);
    // The queue alone (no hourly catch-up): January and February are now in service.
    await refreshMonthEnds(t.db, NOW, { ensure: false });
    expect((await monthEnds(id)).slice(0, 3)).toEqual([
      '2026-01 10 measured',
      '2026-02 20 measured',
      '2026-03 30 measured',
    ]);
  });

  it('the register import moving an installation later deletes the month ends before it', async () => {
    const row: Partial<Record<RegisterColumn, string>> = {
      Country: 'Lietuva',
      County: 'Vilniaus apskritis',
      Region: 'Vilniaus m. sav.',
      City: 'Vilnius',
      Street: 'Registro g.',
      Building: '3',
      Flat: '1',
      ObjectCode: 'OBJ-SP',
      ClientCode: 'CL-SP',
      DeviceType: '3',
      DeviceCode: 'SP-IMPORT',
      InstalledAt: '2025-12-01',
    };
    const apply = async (installedAt: string) => {
      const lines = [REGISTER_COLUMNS.map((c) => c.en).join(';')];
      lines.push(REGISTER_COLUMNS.map((c) => (c.key === 'InstalledAt' ? installedAt : (row[c.key] ?? ''))).join(';'));
      const res = await inject(t.app, contract.applyRegisterImport, {
        token: operator,
        payload: Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8'),
        headers: { 'content-type': 'text/csv' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((res.body as { ErrorCount: number }).ErrorCount).toBe(0);
    };
    await apply('2025-12-01');
    const { rows } = await t.db.query<{ id: number }>(`SELECT id FROM device WHERE device_code = 'SP-IMPORT'`);
    const id = rows[0]!.id;
    await makeReadings(t.db, id, [
      ['2026-01-31T20:00:00+02:00', 10],
      ['2026-02-28T20:00:00+02:00', 20],
      ['2026-03-31T20:00:00+03:00', 30],
    ]);
    await refreshMonthEnds(t.db, NOW);
    expect((await monthEnds(id)).slice(0, 3)).toEqual([
      '2026-01 10 measured',
      '2026-02 20 measured',
      '2026-03 30 measured',
    ]);
    // The register says it was installed on 1 March (00:00 in the provider's zone).
    await apply('2026-03-01');
    expect((await monthEnds(id)).slice(0, 1)).toEqual(['2026-03 30 measured']);
    await refreshMonthEnds(t.db, NOW);
    expect((await monthEnds(id)).slice(0, 1)).toEqual(['2026-03 30 measured']);
  });
});
