import { createLnsConnection, GROUP, ingestChirpstack, listLorawanUnmatched } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { chirpstackUplinkJson } from '../services/lorawan/envelope-writers.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeSignedIn } from '../test/factories.js';
import { type RegisterRow, registerCsv, registerReport, registerXlsx } from '../test/register-file.js';

const row = (flat: string, code: string, devEui: string): RegisterRow => ({
  Country: 'Lietuva',
  County: 'Kauno apskritis',
  Region: 'Kauno m. sav.',
  City: 'Kaunas',
  Street: 'Pramonės pr.',
  Building: '7',
  Flat: flat,
  ObjectCode: 'OBJ-LORA-7',
  ClientCode: `CL-${flat}`,
  DeviceType: '3',
  DeviceCode: code,
  Model: 'Qalcosonic W1',
  DevEui: devEui,
});

describe(`LoRaWAN: the register's DevEui column (${dbKind()})`, () => {
  const t = useApp();
  let operator: string;
  beforeAll(async () => {
    operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
  });

  it('refuses a DevEUI that is not 16 hex digits, or one used twice, naming the line and column', async () => {
    const report = await registerReport(
      t.app,
      operator,
      'preview',
      // An .xlsx cell may hold a line break (Alt+Enter).
      await registerXlsx([
        row('1', 'W1-0001', '70B3D5E75E00B01'),
        row('2', 'W1-0002', '70B3D5E75E00B0\n02'),
        row('3', 'W1-0003', '70b3d5e75e00b003'),
        row('4', 'W1-0004', '70B3D5E75E00B003'),
      ]),
    );
    expect(report.Errors.map((e) => [e.Line, e.Code, e.Params.column])).toEqual([
      [2, 'INVALID_DEV_EUI', 'DevEui'],
      [3, 'INVALID_DEV_EUI', 'DevEui'],
      [5, 'DEV_EUI_USED', 'DevEui'],
    ]);
    expect(report.Applied).toBe(false);
  });

  it('previews and applies DevEUIs (upper case), an empty cell keeping the stored one, and takes in waiting uplinks', async () => {
    const rows = [row('1', 'W1-0001', '70b3d5e75e00b001'), row('2', 'W1-0002', '70B3D5E75E00B002')];
    const preview = await registerReport(t.app, operator, 'preview', await registerXlsx(rows));
    expect([preview.Errors, preview.Devices.Created, preview.Applied]).toEqual([[], 2, false]);
    expect((await t.db.query('SELECT 1 FROM device WHERE dev_eui IS NOT NULL')).rowCount).toBe(0);
    const applied = await registerReport(t.app, operator, 'apply', registerCsv(rows));
    expect([applied.Errors, applied.Devices.Created, applied.Applied]).toEqual([[], 2, true]);
    const stored = await t.db.query<{ device_code: string; dev_eui: string }>(
      'SELECT device_code, dev_eui FROM device WHERE dev_eui IS NOT NULL ORDER BY 1',
    );
    expect(stored.rows).toEqual([
      { device_code: 'W1-0001', dev_eui: '70B3D5E75E00B001' },
      { device_code: 'W1-0002', dev_eui: '70B3D5E75E00B002' },
    ]);
    // Once more with the first DevEUI left empty and the second changed: kept, and changed.
    const again = await registerReport(
      t.app,
      operator,
      'apply',
      registerCsv([row('1', 'W1-0001', ''), row('2', 'W1-0002', '70B3D5E75E00B022')]),
    );
    expect([again.Devices.Unchanged, again.Devices.Changed]).toEqual([1, 1]);
    const now = await t.db.query<{ dev_eui: string }>(
      'SELECT dev_eui FROM device WHERE dev_eui IS NOT NULL ORDER BY 1',
    );
    expect(now.rows.map((r) => r.dev_eui)).toEqual(['70B3D5E75E00B001', '70B3D5E75E00B022']);
    // A DevEUI stored on another device is refused.
    const taken = await registerReport(
      t.app,
      operator,
      'preview',
      registerCsv([row('3', 'W1-0003', '70B3D5E75E00B001')]),
    );
    expect(taken.Errors.map((e) => [e.Code, e.Params.code, e.Params.line])).toEqual([['DEV_EUI_USED', 'W1-0001', 0]]);
  });

  it('gives a waiting DevEUI to a device at import: its uplinks are taken in', async () => {
    const street = await t.db.query<{ id: number }>("SELECT id FROM location WHERE name = 'Pramonės pr.'");
    const conn = await inject(t.app, createLnsConnection, {
      token: operator,
      body: { kind: 'chirpstack', name: 'Kaunas LNS', locationIds: [street.rows[0]!.id] },
    });
    const up = await inject(t.app, ingestChirpstack, {
      query: { event: 'up' },
      headers: { 'x-rodmenys-key': conn.body.Key },
      body: chirpstackUplinkJson({
        devEui: '70B3D5E75E00B005',
        fCnt: 3,
        fPort: 100,
        payload: Buffer.from('01', 'hex'),
        time: '2026-11-20T10:00:00Z',
      }) as never,
    });
    expect(up.body.Outcome).toBe('unmatched');
    await registerReport(t.app, operator, 'apply', registerCsv([row('5', 'W1-0005', '70B3D5E75E00B005')]));
    const inbox = await inject(t.app, listLorawanUnmatched, { token: operator });
    expect(inbox.body.Total).toBe(0);
    const own = await t.db.query(
      "SELECT 1 FROM lorawan_uplink u JOIN device d ON d.id = u.device_id WHERE d.device_code = 'W1-0005'",
    );
    expect(own.rowCount).toBe(1);
  });
});
