import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DEVICE_TYPE,
  type FlatStatement,
  GROUP,
  type StatementKind,
  type StatementKindFigures,
} from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../test/db.js';
import {
  makeBuilding,
  makeDevice,
  makeFlat,
  makeOccupancy,
  makeReadings,
  makeUser,
  type Place,
} from '../../test/factories.js';
import type { Caller } from '../auth/caller.js';
import { liveBuildingRows } from '../billing/rows.js';
import { refreshMonthEnds } from '../data-quality/refresh-month-ends.js';
import { occupantStatement, occupantStatementPdf } from '../occupant-access/pages.js';
import { computeStatements } from './figures.js';
import { splitMoves } from './occupancy-figures.js';
import { renderBuildingPdf, renderOccupantPdf } from './pdf.js';
import { publishStatements } from './publish.js';
import { statementFiguresJson } from './rows-json.js';
import { storedStatement } from './snapshots.js';

/*
 * Figures fed by a device past its due date (docs/device-lifetime.md, "Overdue figures"): a device
 * overdue in month M marks M's figures it feeds — not M − 1's, before its due date — on the
 * statement, the billing export, the PDF and the occupant's statement.
 */

const t = useDb();
const NOW = new Date('2026-12-10T10:00:00Z');
const INSTALLED = '2020-01-01T00:00:00+02:00';
const BOUNDS = ['2026-08-01T00:00:00+03:00', '2026-09-01T00:00:00+03:00', '2026-10-01T00:00:00+03:00'];
const LATER = ['2026-11-01T00:00:00+02:00', '2026-12-01T00:00:00+02:00'];
const STEP = { heat: 400, units: 60, m3: 3 };

/** A device with readings at every month bound from August to December, `step` a month, verified on `verifiedOn`. */
async function device(
  at: Place | number,
  typeId: (typeof DEVICE_TYPE)[keyof typeof DEVICE_TYPE],
  code: string,
  step: number,
  dates: { verifiedOn?: string; installedAt?: string } = {},
) {
  const id = await makeDevice(t.db, at, {
    typeId,
    code,
    installedAt: dates.installedAt ?? INSTALLED,
    ratingFactor: typeId === DEVICE_TYPE.allocator ? 1 : null,
  });
  if (dates.verifiedOn) await t.db.query('UPDATE device SET verified_on = $2 WHERE id = $1', [id, dates.verifiedOn]);
  await makeReadings(
    t.db,
    id,
    [...BOUNDS, ...LATER].map((ts, i) => [ts, 1000 + i * step] as const),
  );
  return id;
}

const kindOf = (s: FlatStatement, kind: StatementKind): StatementKindFigures =>
  s.Row.Kinds.find((k) => k.Kind === kind)!;
const codes = (k: StatementKindFigures) => k.Overdue.map((d) => d.DeviceCode);

async function pdfText(stream: Readable, name: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'overdue-pdf-'));
  try {
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
    const file = path.join(dir, name);
    writeFileSync(file, Buffer.concat(chunks));
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe(`figures fed by an overdue device carry the marker (${dbKind()})`, () => {
  let buildingId: number;
  let flat2: number;
  let jonas: number;
  const load = (month: string) => computeStatements(t.db, month, { scope: null, parents: [buildingId] });

  beforeAll(async () => {
    const b = await makeBuilding(t.db, { city: 'Šiauliai', street: 'Tilžės g.', number: '7' });
    buildingId = b.id;
    // The building heat meter: 5 years from 2021-10-05, due 2026-10-05 (overdue in October, not September).
    await device(b, DEVICE_TYPE.buildingHeatMeter, 'OVD-BHM', STEP.heat * 3, { verifiedOn: '2021-10-05' });
    const f1 = await makeFlat(t.db, b, { name: '1', order: 1 });
    await device(f1, DEVICE_TYPE.allocator, 'OVD-A1', STEP.units);
    // Due on October's last day: past it only from November.
    await device(f1, DEVICE_TYPE.hotWaterMeter, 'OVD-HW1', STEP.m3, { verifiedOn: '2020-10-31' });
    // Due 2026-09-20: overdue in September and October.
    await device(f1, DEVICE_TYPE.coldWaterMeter, 'OVD-CW1', STEP.m3, { verifiedOn: '2020-09-20' });
    const f2 = await makeFlat(t.db, b, { name: '2', order: 2 });
    flat2 = f2.id;
    // An allocator's battery: 10 years from its installation, ends 2026-10-10.
    await device(f2, DEVICE_TYPE.allocator, 'OVD-A2', STEP.units * 2, { installedAt: '2016-10-10T00:00:00+03:00' });
    const f3 = await makeFlat(t.db, b, { name: '3', order: 3 });
    // A flat heat meter due in 2028: its kWh are its own, the building meter does not feed them.
    await device(f3, DEVICE_TYPE.heatMeter, 'OVD-HM3', STEP.heat, { verifiedOn: '2023-01-01' });
    await makeOccupancy(t.db, f2, { name: 'Ona Pirmoji', clientCode: 'OVD-OCC-1', moveOut: '2026-10-15' });
    jonas = await makeOccupancy(t.db, f2, { name: 'Jonas Antrasis', clientCode: 'OVD-OCC-2', moveIn: '2026-10-15' });
    await refreshMonthEnds(t.db, NOW);
  });

  it("marks October's figures a device overdue in October feeds, and not September's, before its due date", async () => {
    const [s1, s2, s3] = await load('2026-10');
    expect(codes(kindOf(s1!, 'heating'))).toEqual(['OVD-BHM']);
    expect(kindOf(s1!, 'heating').KwhMethod).toBe('buildingMeterByQrad');
    expect(codes(kindOf(s1!, 'hotWater'))).toEqual([]);
    expect(codes(kindOf(s1!, 'coldWater'))).toEqual(['OVD-CW1']);
    expect(kindOf(s2!, 'heating').Overdue).toEqual([
      expect.objectContaining({ DeviceCode: 'OVD-A2', DueDate: '2026-10-10', Reason: 'battery' }),
      expect.objectContaining({
        DeviceCode: 'OVD-BHM',
        DeviceTypeId: DEVICE_TYPE.buildingHeatMeter,
        DueDate: '2026-10-05',
        Reason: 'verification',
      }),
    ]);
    expect(codes(kindOf(s3!, 'heating'))).toEqual([]);
    expect(kindOf(s1!, 'heating').Markers).toContain('overdue');
    expect(kindOf(s1!, 'hotWater').Markers).not.toContain('overdue');
    expect(kindOf(s3!, 'heating').Markers).not.toContain('overdue');
    // September, before the building meter's and the battery's due dates: only the cold-water meter.
    const [p1, p2] = await load('2026-09');
    expect(p1!.Row.Kinds.map((k) => [k.Kind, codes(k)])).toEqual([
      ['heating', []],
      ['hotWater', []],
      ['coldWater', ['OVD-CW1']],
    ]);
    expect(p2!.Row.Kinds.flatMap((k) => k.Markers)).not.toContain('overdue');
    // November: the hot-water meter due on October's last day.
    const [n1] = await load('2026-11');
    expect(codes(kindOf(n1!, 'hotWater'))).toEqual(['OVD-HW1']);
  });

  it('the figures as JSON text carry the devices; a snapshot published before them shows none', async () => {
    const st = await load('2026-10');
    const rows = st.map((s) => s.Row);
    expect(statementFiguresJson('2026-10', rows, []).json).toBe(
      JSON.stringify({ Month: '2026-10', Rows: rows, Occupancies: [] }),
    );
    const old = JSON.parse(JSON.stringify(st[0])) as FlatStatement;
    for (const k of old.Row.Kinds) delete (k as Partial<StatementKindFigures>).Overdue;
    expect(storedStatement(old).Row.Kinds.map((k) => k.Overdue)).toEqual([[], [], []]);
  });

  it('the billing export names them on the flat, device, occupant and building rows', async () => {
    const rows = await liveBuildingRows(t.db, '2026-10', buildingId);
    const flat = (name: string, kind: StatementKind) =>
      rows.find((r) => r.Line === 'flat' && r.Flat === name && r.Kind === kind)!.OverdueDevices;
    expect(flat('1', 'heating')).toBe('OVD-BHM (2026-10-05, verification)');
    expect(flat('1', 'hotWater')).toBeNull();
    expect(flat('1', 'coldWater')).toBe('OVD-CW1 (2026-09-20, verification)');
    expect(flat('2', 'heating')).toBe('OVD-A2 (2026-10-10, battery); OVD-BHM (2026-10-05, verification)');
    expect(flat('3', 'heating')).toBeNull();
    const device = (code: string) => rows.find((r) => r.Line === 'device' && r.DeviceCode === code)!.OverdueDevices;
    expect(device('OVD-A2')).toBe('OVD-A2 (2026-10-10, battery)');
    expect(device('OVD-HW1')).toBeNull();
    expect(device('OVD-BHM')).toBe('OVD-BHM (2026-10-05, verification)');
    expect(rows.find((r) => r.Line === 'building')!.OverdueDevices).toBe('OVD-BHM (2026-10-05, verification)');
    const occupants = rows.filter((r) => r.Line === 'occupancy' && r.Kind === 'heating');
    expect(occupants.map((r) => [r.AccountCode, r.OverdueDevices])).toEqual([
      ['OVD-OCC-1', flat('2', 'heating')],
      ['OVD-OCC-2', flat('2', 'heating')],
    ]);
    // September's export: only the cold-water meter.
    const september = await liveBuildingRows(t.db, '2026-09', buildingId);
    expect(september.filter((r) => r.OverdueDevices !== null).map((r) => [r.Line, r.DeviceCode ?? r.Kind])).toEqual([
      ['device', 'OVD-CW1'],
      ['flat', 'coldWater'],
    ]);
  });

  it("the PDF and the occupant's statement and PDF name them, in both languages", async () => {
    const st = await load('2026-10');
    const en = await pdfText(renderBuildingPdf(st, 'en'), 'en.pdf');
    expect(en).toContain(
      'Figures fed by devices past their verification or battery due date: Heating – no. OVD-BHM (verification due 2026-10-05); Cold water – no. OVD-CW1 (verification due 2026-09-20).',
    );
    expect(en).toContain('Heating – no. OVD-A2 (battery due 2026-10-10), no. OVD-BHM (verification due 2026-10-05).');
    expect(en.match(/past their verification or battery due date/g)).toHaveLength(2);
    const lt = await pdfText(renderBuildingPdf(st, 'lt'), 'lt.pdf');
    expect(lt).toContain('Šildymas – nr. OVD-A2 (baterija iki 2026-10-10), nr. OVD-BHM (patikra iki 2026-10-05).');
    const s2 = st.find((s) => s.Row.FlatId === flat2)!;
    const occupants = (await splitMoves(t.db, '2026-10', [s2.Row])).get(flat2)!;
    expect(occupants.map((o) => o.Kinds.map((k) => k.Overdue))).toEqual([
      [kindOf(s2, 'heating').Overdue],
      [kindOf(s2, 'heating').Overdue],
    ]);
    const page = await pdfText(renderOccupantPdf(s2, occupants[1]!, 'en'), 'occupant.pdf');
    expect(page).toContain('Jonas Antrasis');
    expect(page).toContain('Heating – no. OVD-A2 (battery due 2026-10-10), no. OVD-BHM (verification due 2026-10-05).');
  });

  it("names on the occupant's own pages their flat's and the building's devices, never another flat's", async () => {
    // docs/occupant-access.md, "What the occupant sees": flat 2's occupant after October is published.
    // A cold-water meter of its own (not overdue), so its statement has the kind flat 1's overdue one feeds.
    await device(flat2, DEVICE_TYPE.coldWaterMeter, 'OVD-CW2', STEP.m3, { verifiedOn: '2025-01-01' });
    await refreshMonthEnds(t.db, NOW);
    const operator = await makeUser(t.db, { groupId: GROUP.operator });
    const caller: Caller = {
      id: operator.id,
      groupId: GROUP.operator,
      username: operator.username,
      scope: null,
      token: {} as Caller['token'],
    };
    await publishStatements(t.db, caller, '2026-10', [buildingId], false, []);
    const occupant = { sessionId: 0, occupancyId: jonas, flatId: flat2 };
    const page = JSON.stringify(await occupantStatement(t.db, occupant, '2026-10'));
    const { stream } = await occupantStatementPdf(t.db, occupant, '2026-10', 'en');
    const pdf = await pdfText(stream, 'occupant-page.pdf');
    for (const text of [page, pdf]) {
      expect(text).toContain('OVD-A2');
      expect(text).toContain('OVD-BHM');
      // Flats 1 and 3's devices, overdue or not.
      for (const other of ['OVD-A1', 'OVD-HW1', 'OVD-CW1', 'OVD-HM3']) expect(text).not.toContain(other);
    }
  });
});
