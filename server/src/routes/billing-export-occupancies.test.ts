import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { refreshMonthEnds } from '../services/data-quality/refresh-month-ends.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn, type SignedIn } from '../test/factories.js';

type Row = contract.BillingRow;
const MONTH = '2026-03';
const NOW = new Date('2026-11-26T12:00:00Z');
const t = useApp();

/** Thousandths, so sums are compared exactly. */
const milli = (v: number | null | undefined) => Math.round((v ?? Number.NaN) * 1000);
const sumMilli = (rows: Row[], pick: (r: Row) => number | null) => rows.reduce((a, r) => a + milli(pick(r)), 0);

// A move on 15 March 2026 in two flats (docs/integration.md, "Which rows to book"): the export gives each
// occupant's rows beside the flat's. Europe/Vilnius: UTC+2 until 29 March, then UTC+3.
describe(`GET /billing/export: one row per occupancy of a flat with a move (${dbKind()})`, () => {
  let operator: SignedIn;
  let meterFlat: number;
  let allocatorFlat: number;
  let quietFlat: number;
  let quietWater: number;
  const exportJson = async (query: Record<string, string | number | boolean> = {}) => {
    const res = await inject(t.app, contract.getBillingExport, {
      token: operator.token,
      query: { month: MONTH, ...query },
    });
    return res;
  };

  beforeAll(async () => {
    const place = await makeBuilding(t.db, { city: 'Vilnius', street: 'Totorių g.', number: '14' });
    meterFlat = (await makeFlat(t.db, place, { name: '1', order: 1 })).id;
    allocatorFlat = (await makeFlat(t.db, place, { name: '2', order: 2 })).id;
    quietFlat = (await makeFlat(t.db, place, { name: '3', order: 3 })).id;
    // Each flat's client is named otherwise than its occupant: the export names the occupant.
    for (const [flat, code, occupant] of [
      [meterFlat, 'OLD-1', 'Petras Senasis'],
      [allocatorFlat, 'OLD-2', 'Rūta Senoji'],
      [quietFlat, 'STAY-3', 'Ona Likusioji'],
    ] as const) {
      const { rows } = await t.db.query<{ id: number }>(
        "INSERT INTO client (code, name) VALUES ($1, 'UAB Klientas') RETURNING id",
        [code],
      );
      await t.db.query('UPDATE location SET client_id = $2 WHERE id = $1', [flat, rows[0]!.id]);
      await t.db.query('INSERT INTO occupancy (location_id, client_id, name) VALUES ($1, $2, $3)', [
        flat,
        rows[0]!.id,
        occupant,
      ]);
    }
    const feb = '2026-02-28T23:00:00+02:00';
    const mar = '2026-03-31T23:00:00+03:00';
    const atMove = '2026-03-15T00:00:00+02:00';
    const cold = await makeDevice(t.db, meterFlat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'BX-CW' });
    await makeReadings(t.db, cold, [
      [feb, 100],
      [atMove, 110.25],
      [mar, 125.5],
    ]);
    const hot = await makeDevice(t.db, meterFlat, { typeId: DEVICE_TYPE.hotWaterMeter, code: 'BX-HW' });
    await makeReadings(t.db, hot, [
      [feb, 10],
      [atMove, 14],
      [mar, 30],
    ]);
    const bhm = await makeDevice(t.db, place, { typeId: DEVICE_TYPE.buildingHeatMeter, code: 'BX-BHM' });
    await makeReadings(t.db, bhm, [
      [feb, 5000],
      [mar, 5777],
    ]);
    for (const [code, moved, end] of [
      ['BX-A1', 5, 15],
      ['BX-A2', 7, 26],
    ] as const) {
      const a = await makeDevice(t.db, allocatorFlat, { typeId: DEVICE_TYPE.allocator, code, ratingFactor: 1.5 });
      await makeReadings(t.db, a, [
        [feb, 0],
        [atMove, moved],
        [mar, end],
      ]);
    }
    quietWater = await makeDevice(t.db, quietFlat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'BX-Q' });
    await makeReadings(t.db, quietWater, [
      [feb, 50],
      [mar, 57],
    ]);
    await refreshMonthEnds(t.db, NOW);
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    for (const flat of [meterFlat, allocatorFlat]) {
      const res = await inject(t.app, contract.recordMove, {
        params: { id: flat },
        body: { day: '2026-03-15', clientCode: `NEW-${flat}`, name: 'Aistė Naujoji' },
        token: operator.token,
      });
      expect(res.status, res.text).toBe(201);
    }
  }, 180_000);

  /** The export's rows checked against the rule: occupants' rows add up to their flat's, which they replace in booking. */
  function checkOccupancyRows(rows: Row[]) {
    for (const flat of [meterFlat, allocatorFlat]) {
      const flatRows = rows.filter((r) => r.FlatId === flat && r.Line === 'flat');
      const parts = rows.filter((r) => r.FlatId === flat && r.Line === 'occupancy');
      expect(flatRows.length).toBeGreaterThan(0);
      expect(flatRows.every((r) => !r.Books)).toBe(true);
      expect(parts).toHaveLength(flatRows.length * 2);
      expect(parts.every((r) => r.Books)).toBe(true);
      const [before, after] = [parts[0]!, parts.at(-1)!];
      expect(before).toMatchObject({
        AccountCode: flat === meterFlat ? 'OLD-1' : 'OLD-2',
        AccountName: flat === meterFlat ? 'Petras Senasis' : 'Rūta Senoji',
        OccupancyFrom: '2026-03-01',
        OccupancyTill: '2026-03-14',
        Days: 14,
      });
      expect(after).toMatchObject({
        AccountCode: `NEW-${flat}`,
        AccountName: 'Aistė Naujoji',
        OccupancyFrom: '2026-03-15',
        OccupancyTill: '2026-03-31',
        Days: 17,
      });
      expect(before.OccupancyId).not.toBe(after.OccupancyId);
      for (const f of flatRows) {
        const own = parts.filter((p) => p.Kind === f.Kind && p.Unit === f.Unit);
        expect(own, `${flat} ${f.Kind}`).toHaveLength(2);
        expect(own.every((p) => p.Consumption !== null)).toBe(true);
        expect(sumMilli(own, (r) => r.Consumption)).toBe(milli(f.Consumption));
        if (f.KwhShare !== null) expect(sumMilli(own, (r) => r.KwhShare)).toBe(milli(f.KwhShare));
        if (f.Units !== null) expect(sumMilli(own, (r) => r.Units)).toBe(milli(f.Units));
        if (f.Qrad !== null) expect(sumMilli(own, (r) => r.Qrad)).toBe(milli(f.Qrad));
      }
    }
    // The cold water of flat 1: 10.25 m³ before the move, 15.25 after.
    const cold = rows.filter((r) => r.FlatId === meterFlat && r.Line === 'occupancy' && r.Kind === 'coldWater');
    expect(cold.map((r) => r.Consumption)).toEqual([10.25, 15.25]);
    // The allocator flat's units: 12 before (5 + 7), 29 after (10 + 19); kWh shared by them.
    const heat = rows.filter((r) => r.FlatId === allocatorFlat && r.Line === 'occupancy' && r.Kind === 'heating');
    expect(heat.map((r) => r.Units)).toEqual([12, 29]);
    expect(heat.every((r) => r.KwhMethod === 'buildingMeterByQrad' && r.KwhShare !== null)).toBe(true);
    // A flat without a move books its own rows, under its occupant's name.
    const quiet = rows.filter((r) => r.FlatId === quietFlat);
    expect(quiet.some((r) => r.Line === 'occupancy')).toBe(false);
    expect(quiet.find((r) => r.Line === 'flat')).toMatchObject({
      Books: true,
      AccountCode: 'STAY-3',
      AccountName: 'Ona Likusioji',
      Consumption: 7,
    });
    // Devices and the building line are for reference.
    expect(rows.filter((r) => r.Line === 'device' || r.Line === 'building').every((r) => !r.Books)).toBe(true);
    expect(rows.filter((r) => r.Books).every((r) => r.AccountName !== 'UAB Klientas')).toBe(true);
  }

  /** The cells of the CSV file, a header line first. */
  const csvCells = (text: string) =>
    text
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean)
      .map((line) => line.split(';'));
  const cellText = (v: unknown) => (v === null ? '' : String(v));

  it('gives each occupant their rows, adding up to the flat’s, in JSON, CSV and XLSX (live)', async () => {
    const res = await exportJson();
    expect(res.status, res.text).toBe(200);
    const rows: Row[] = res.body.Rows;
    expect(rows.every((r) => r.Status === 'live')).toBe(true);
    checkOccupancyRows(rows);
    // The occupants' rows follow their flat's, in the flat's order.
    const lines = rows.filter((r) => r.FlatId === allocatorFlat).map((r) => r.Line);
    expect(lines.indexOf('occupancy')).toBeGreaterThan(lines.lastIndexOf('flat'));

    const csv = await inject(t.app, contract.getBillingExportFile, {
      token: operator.token,
      query: { month: MONTH, format: 'csv' },
    });
    const [header, ...lines2] = csvCells(csv.text);
    expect(header).toEqual([...contract.BILLING_COLUMNS]);
    expect(lines2).toEqual(rows.map((r) => contract.BILLING_COLUMNS.map((c) => cellText(r[c]))));

    const xlsx = await inject(t.app, contract.getBillingExportFile, {
      token: operator.token,
      query: { month: MONTH, format: 'xlsx' },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.raw as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.rowCount).toBe(rows.length + 1);
    const at = (name: keyof Row) => contract.BILLING_COLUMNS.indexOf(name) + 1;
    rows.forEach((r, i) => {
      const cells = sheet.getRow(i + 2);
      for (const c of [
        'Line',
        'AccountCode',
        'AccountName',
        'Kind',
        'Consumption',
        'KwhShare',
        'Days',
        'Books',
      ] as const)
        expect(cells.getCell(at(c)).value ?? null, `${i} ${c}`).toEqual(r[c]);
    });
  });

  it('freezes the occupants’ rows with the publication, as their statements were published', async () => {
    const pub = await inject(t.app, contract.publishStatements, { token: operator.token, body: { month: MONTH } });
    expect(pub.status, pub.text).toBe(200);
    const res = await exportJson();
    const rows: Row[] = res.body.Rows;
    expect(rows.every((r) => r.Status === 'published' && r.Version === 1)).toBe(true);
    checkOccupancyRows(rows);
    const statements = await inject(t.app, contract.getOccupancyStatements, {
      token: operator.token,
      params: { flatId: allocatorFlat },
      query: { month: MONTH },
    });
    const published = statements.body.Occupancies.flatMap((o) => o.Kinds.map((k) => k.Current.Value));
    expect(rows.filter((r) => r.FlatId === allocatorFlat && r.Line === 'occupancy').map((r) => r.Consumption)).toEqual(
      published,
    );
  });

  it('refuses a `since` that is no earlier existing version (400 naming since), answers one that is', async () => {
    const refused = async (query: Record<string, number>) => {
      const res = await exportJson(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.error.code).toBe('billingSinceNotEarlier');
      expect(res.error.errors?.[0]?.field).toBe('since');
      const file = await inject(t.app, contract.getBillingExportFile, {
        token: operator.token,
        query: { month: MONTH, format: 'csv', ...query },
      });
      expect(file.status).toBe(400);
    };
    // Only version 1 exists.
    await refused({ since: 1 });
    await refused({ since: 5 });
    await refused({ version: 1, since: 1 });
    // A late reading changes the quiet flat's water: publishing again makes version 2.
    await makeReadings(t.db, quietWater, [['2026-03-31T23:30:00+03:00', 58]]);
    await t.db.query("INSERT INTO dq_pending (device_id, month) VALUES ($1, '2026-03-01') ON CONFLICT DO NOTHING", [
      quietWater,
    ]);
    await refreshMonthEnds(t.db, NOW);
    const pub = await inject(t.app, contract.publishStatements, { token: operator.token, body: { month: MONTH } });
    expect(pub.status, pub.text).toBe(200);
    const diff = await exportJson({ since: 1 });
    expect(diff.status).toBe(200);
    const changed: Row[] = diff.body.Rows;
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((r) => r.Change === 'changed' && r.FlatId === quietFlat)).toBe(true);
    expect((await exportJson({ version: 2, since: 1 })).status).toBe(200);
    await refused({ since: 2 });
    await refused({ since: 3 });
    await refused({ version: 2, since: 2 });
    await refused({ version: 1, since: 2 });
    // A version that does not exist stays a 404.
    expect((await exportJson({ version: 3 })).status).toBe(404);
  });
});
