import {
  addDevice,
  applyRegisterImport,
  createCollectorKey,
  DEVICE_TYPE,
  GROUP,
  getCollectorConfig,
  type ImportReport,
  listCollectorHealth,
  REGISTER_COLUMNS,
  type RegisterColumn,
  replaceDevice,
  setCollectorLocations,
  updateDevice,
} from '@rodmenys/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { commentLine, configLine, UnsafeConfigValue } from '../services/collectors/wmbusmeters-format.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn, type Place } from '../test/factories.js';

// A real meter id, and hostile serials derived from it: each would end or split wmbusmeters'
// `key=value` line, or make a meter wmbusmeters skips (docs/collectors.md, "The configuration's format").
const GOOD = '99887766';
const INJECTED = 'shell=touch INJECTED';
const HOSTILE: Record<string, string> = {
  newline: `${GOOD}\n${INJECTED}`,
  carriageReturn: `${GOOD}\r${INJECTED}`,
  crlf: `${GOOD}\r\n${INJECTED}`,
  lineSeparator: `${GOOD}\u2028${INJECTED}`,
  paragraphSeparator: `${GOOD}\u2029${INJECTED}`,
  nextLine: `${GOOD}\u0085${INJECTED}`,
  verticalTab: `${GOOD}\u000b${INJECTED}`,
  formFeed: `${GOOD}\u000c${INJECTED}`,
  nul: `${GOOD}\u0000`,
  tab: `${GOOD}\tx`,
  space: `${GOOD.slice(0, 4)} ${GOOD.slice(4)}`,
  semicolon: `${GOOD};x`,
  equals: `${GOOD}=x`,
  hash: `${GOOD}#x`,
  quote: `'${GOOD}'`,
  fullWidthDigits: [...GOOD].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join(''),
};
/** Line breaks of any reader (and NUL): what a generated file must never hold inside a line. */
const BREAK_CODES = new Set([0x0d, 0x0b, 0x0c, 0x85, 0x2028, 0x2029, 0x00]);
const hasBreak = (s: string) => Array.from(s).some((c) => BREAK_CODES.has(c.charCodeAt(0)));
/** Any C0 control (tab and line feed included), NEL or a Unicode line separator. */
const isControl = (s: string) => Array.from(s).some((c) => c.charCodeAt(0) < 0x20 || BREAK_CODES.has(c.charCodeAt(0)));

describe('the wmbusmeters writer refuses what could break a line (unit)', () => {
  it('refuses every hostile value after key=, writes plain ones, strips breaks from comments', () => {
    for (const [name, value] of Object.entries(HOSTILE)) {
      if (isControl(value)) expect(() => configLine('id', value), name).toThrow(UnsafeConfigValue);
    }
    expect(configLine('id', GOOD)).toBe(`id=${GOOD}`);
    expect(() => configLine('id\nshell', GOOD)).toThrow(UnsafeConfigValue);
    for (const value of Object.values(HOSTILE)) {
      const line = commentLine(`collector "${value}"`);
      expect(line.split('\n')).toHaveLength(1);
      expect(hasBreak(line)).toBe(false);
      expect(line.startsWith('# ')).toBe(true);
    }
  });
});

describe(`hostile serials and counter codes never reach a collector's files (${dbKind()})`, () => {
  const t = useApp();
  let operator: string;
  let building: Place;
  let flat: Place;
  let collector: { id: number; key: string };

  beforeAll(async () => {
    operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
    building = await makeBuilding(t.db, { city: 'Klaipėda', street: 'Žvejų g.', number: '3' });
    flat = await makeFlat(t.db, building);
    const created = await inject(t.app, createCollectorKey, { token: operator, body: { name: 'Žvejų 3' } });
    collector = { id: created.body.Id, key: created.body.Key };
    const assigned = await inject(t.app, setCollectorLocations, {
      token: operator,
      params: { id: collector.id },
      body: { locationIds: [building.id] },
    });
    expect(assigned.status).toBe(200);
  });

  it('POST /api/masterData/devices: 400 naming deviceCode or counterCode for each hostile value', async () => {
    const body = { locationId: flat.id, deviceTypeId: DEVICE_TYPE.coldWaterMeter };
    for (const [name, value] of Object.entries(HOSTILE)) {
      const serial = await inject(t.app, addDevice, { token: operator, body: { ...body, deviceCode: value } });
      expect(serial.status, name).toBe(400);
      expect(serial.error.errors?.[0]?.field, name).toBe('deviceCode');
      const counter = await inject(t.app, addDevice, {
        token: operator,
        body: {
          ...body,
          deviceCode: `${GOOD.slice(0, 6)}${Object.keys(HOSTILE).indexOf(name) + 10}`,
          counterCode: value,
        },
      });
      expect(counter.status, name).toBe(400);
      expect(counter.error.errors?.[0]?.field, name).toBe('counterCode');
    }
    const { rows } = await t.db.query('SELECT device_code FROM device');
    expect(rows).toEqual([]);
    // The real meter id and the serials of hand-read devices go in.
    for (const deviceCode of [GOOD, 'W-12/3', 'HCA.7_b']) {
      const ok = await inject(t.app, addDevice, {
        token: operator,
        body: { ...body, deviceCode, counterCode: 'QDS1A2B' },
      });
      expect(ok.status, deviceCode).toBe(201);
    }
  });

  it('PUT and replace: 400 naming counterCode and newDeviceCode', async () => {
    const { rows } = await t.db.query<{ id: number }>('SELECT id FROM device WHERE device_code = $1', [GOOD]);
    const id = rows[0]!.id;
    for (const [name, value] of Object.entries(HOSTILE)) {
      const put = await inject(t.app, updateDevice, { token: operator, params: { id }, body: { counterCode: value } });
      expect(put.status, name).toBe(400);
      expect(put.error.errors?.[0]?.field, name).toBe('counterCode');
      const replaced = await inject(t.app, replaceDevice, {
        token: operator,
        params: { id },
        body: { replacedAt: '2026-01-01T00:00', finalReading: 1, initialReading: 0, newDeviceCode: value },
      });
      expect(replaced.status, name).toBe(400);
      expect(replaced.error.errors?.[0]?.field, name).toBe('newDeviceCode');
    }
  });

  it('the register import names the line and the column of every hostile cell, and stores nothing', async () => {
    const row = (code: string, counter = 'R1'): Partial<Record<RegisterColumn, string>> => ({
      Country: 'Lietuva',
      County: 'Klaipėda apskritis',
      Region: 'Klaipėda m. sav.',
      City: 'Klaipėda',
      Street: 'Žvejų g.',
      Building: '5',
      Flat: '1',
      ObjectCode: 'OBJ-Z5',
      DeviceType: 'CWM',
      DeviceCode: code,
      CounterCode: counter,
    });
    const names = Object.keys(HOSTILE);
    const rows = [
      ...names.map((n, i) => row(HOSTILE[n]!.trim() === HOSTILE[n] ? HOSTILE[n]! : `${HOSTILE[n]}x`, `R${i}`)),
      ...names.map((n, i) => row(`1122${String(3300 + i)}`, HOSTILE[n]!)),
    ];
    // A CSV with quoted cells (a line break inside quotes is the cell's), and an .xlsx with Alt+Enter.
    const cell = (s: string) => `"${s.replace(/"/g, '""')}"`;
    const csv = Buffer.from(
      [
        REGISTER_COLUMNS.map((c) => c.en).join(';'),
        ...rows.map((r) => REGISTER_COLUMNS.map((c) => cell(r[c.key] ?? '')).join(';')),
      ].join('\r\n'),
    );
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Registras');
    ws.addRow(REGISTER_COLUMNS.map((c) => c.en));
    // XML holds no NUL: the .xlsx carries the others.
    const xlsxRows = rows.filter((r) => !`${r.DeviceCode}${r.CounterCode}`.includes('\u0000'));
    for (const r of xlsxRows) ws.addRow(REGISTER_COLUMNS.map((c) => r[c.key] ?? null));
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());

    // The line each row starts on: the CSV's rows with a line break in a cell take two or more lines.
    const csvLines: number[] = [];
    let next = 2;
    for (const r of rows) {
      csvLines.push(next);
      // As csv-parse counts them: CR and LF inside a quoted cell each end a line.
      next += (`${r.DeviceCode}${r.CounterCode}`.match(/[\r\n]/g) ?? []).length + 1;
    }
    for (const [file, lines, type] of [
      [csv, csvLines, 'text/csv'],
      [xlsx, xlsxRows.map((_, i) => i + 2), 'application/octet-stream'],
    ] as const) {
      const count = lines.length;
      const res = await inject(t.app, applyRegisterImport, {
        token: operator,
        payload: file,
        headers: { 'content-type': type },
      });
      expect(res.status, res.text).toBe(200);
      const report: ImportReport = res.body;
      expect(report.Applied).toBe(false);
      const invalid = report.Errors.filter((e) => e.Code === 'INVALID_CODE');
      // Every data line (the header is line 1) is named once, with its column.
      expect(invalid.map((e) => e.Line)).toEqual(lines);
      const half = count / 2;
      expect(invalid.slice(0, half).every((e) => e.Params.column === 'DeviceCode')).toBe(true);
      expect(invalid.slice(half).every((e) => e.Params.column === 'CounterCode')).toBe(true);
    }
    const { rows: stored } = await t.db.query("SELECT 1 FROM location WHERE street = 'Žvejų g.' AND building = '5'");
    expect(stored).toEqual([]);
  });

  it('an old row with a hostile serial: left out of the files, named in the health table', async () => {
    // PostgreSQL's text holds no NUL: an old row can hold every other one.
    const old = Object.values(HOSTILE).filter((v) => !v.includes('\u0000'));
    for (const code of old) await makeDevice(t.db, flat, { code, typeId: DEVICE_TYPE.coldWaterMeter });
    await t.db.query('UPDATE collector_key SET name = $2 WHERE id = $1', [collector.id, `Žvejų 3\n${INJECTED}\u2028x`]);
    const res = await inject(t.app, getCollectorConfig, { token: collector.key });
    expect(res.status).toBe(200);
    expect(res.body.Files.map((f) => f.Path)).toEqual(['wmbusmeters.conf', `wmbusmeters.d/m_${GOOD}`]);
    expect(res.body.Files[1]!.Content).toBe(`name=m_${GOOD}\nid=${GOOD}\ndriver=auto\n`);
    for (const f of res.body.Files) {
      expect(hasBreak(f.Content)).toBe(false);
      for (const line of f.Content.slice(0, -1).split('\n')) {
        expect(line, f.Path).toMatch(/^(# .*|[a-z_]+=.*)$/);
        expect(line, f.Path).not.toMatch(/^shell=touch/);
      }
    }
    const health = await inject(t.app, listCollectorHealth, { token: operator });
    const row = health.body.find((c) => c.Id === collector.id)!;
    // Every serial that is no wM-Bus id: the hostile rows and the hand-read devices added above.
    expect([...row.LeftOut].sort()).toEqual([...old, 'W-12/3', 'HCA.7_b'].sort());
    expect(row.Expected).toBe(old.length + 3);
  });
});
