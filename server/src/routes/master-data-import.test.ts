import { DEVICE_TYPE, GROUP, LOCATION_LEVEL, REGISTER_COLUMNS } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildingIdOf } from '../services/sql.js';
import { useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeSignedIn } from '../test/factories.js';
import { registerCsv as csv, type RegisterRow, registerReport, registerXlsx as xlsx } from '../test/register-file.js';

const base = (flat: string, code: string, extra: RegisterRow = {}): RegisterRow => ({
  Country: 'Lietuva',
  County: 'Kauno apskritis',
  Region: 'Kauno m. sav.',
  City: 'Kaunas',
  Street: 'Žalgirio g.',
  Building: '7',
  Flat: flat,
  FlatOrder: flat,
  ObjectCode: 'OBJ-7',
  ObjectName: 'Žalgirio 7 namas',
  ClientCode: `CL-${flat}`,
  ClientName: `Šeimininkas ${flat}`,
  DeviceType: 'HCA',
  DeviceCode: code,
  CounterCode: `R${code}`,
  DeviceDescription: 'Kambarys 1',
  RatingFactor: '1,25',
  InstalledAt: '2025-09-01',
  ...extra,
});

describe(`POST /api/masterData/register/preview and /apply (${dbKind()})`, () => {
  const t = useApp();
  let operator: string;

  beforeAll(async () => {
    operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
  }, 120_000);

  const report = (mode: 'preview' | 'apply', file: Buffer, contentType?: string) =>
    registerReport(t.app, operator, mode, file, contentType);
  const count = async (table: string) =>
    (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;

  const good = [
    base('1', 'HCA-001'),
    base('1', 'HCA-002', { DeviceDescription: 'Kambarys 2', RatingFactor: '0,8' }),
    base('2', 'HCA-003'),
    base('2', 'CW-004', { DeviceType: '3', RatingFactor: '', DeviceDescription: 'Vonia' }),
    base('', 'BHM-005', { DeviceType: 'Pastato šilumos skaitiklis', ClientCode: '', ClientName: '', FlatOrder: '' }),
  ];

  it('previews without writing, then applies the same counts, then changes nothing the second time', async () => {
    const before = await count('device');
    const preview = await report('preview', csv(good));
    expect(preview).toMatchObject({
      Applied: false,
      Rows: 5,
      ErrorCount: 0,
      // Country, county, region, city, street, building + 2 flats.
      Locations: { Created: 8, Changed: 0, Unchanged: 0 },
      Objects: { Created: 1, Changed: 0, Unchanged: 0 },
      Clients: { Created: 2, Changed: 0, Unchanged: 0 },
      Devices: { Created: 5, Changed: 0, Unchanged: 0 },
    });
    expect(await count('device')).toBe(before);
    expect(await count('location')).toBe(0);

    const applied = await report('apply', csv(good));
    expect(applied).toMatchObject({ ...preview, Applied: true });
    expect(await count('device')).toBe(before + 5);

    const again = await report('apply', csv(good));
    expect(again).toMatchObject({
      Applied: true,
      Locations: { Created: 0, Changed: 0, Unchanged: 8 },
      Objects: { Created: 0, Changed: 0, Unchanged: 1 },
      Clients: { Created: 0, Changed: 0, Unchanged: 2 },
      Devices: { Created: 0, Changed: 0, Unchanged: 5 },
    });
  });

  it('stores what the file says: Lithuanian letters, decimal commas, dates in the provider zone, the tree', async () => {
    const { rows } = await t.db.query<Record<string, unknown>>(
      `SELECT d.id, d.device_code, d.device_type_id, d.rating_factor::float8 AS rf, iso(d.installed_at) AS installed,
              l.level, l.street, l.flat, l.flat_order, l.path, c.code AS client, o.code AS object
         FROM device d JOIN location l ON l.id = d.location_id LEFT JOIN client c ON c.id = l.client_id
         LEFT JOIN object o ON o.location_id = ${buildingIdOf('l')}
        ORDER BY d.device_code`,
    );
    const byCode = Object.fromEntries(rows.map((r) => [r.device_code, r]));
    expect(byCode['HCA-002']).toMatchObject({
      device_type_id: DEVICE_TYPE.allocator,
      rf: 0.8,
      installed: '2025-09-01T00:00:00+03:00',
      level: LOCATION_LEVEL.flat,
      street: 'Žalgirio g.',
      flat: '1',
      flat_order: 1,
      client: 'CL-1',
      object: 'OBJ-7',
    });
    expect(byCode['CW-004']).toMatchObject({
      device_type_id: DEVICE_TYPE.coldWaterMeter,
      rf: null,
      flat: '2',
      client: 'CL-2',
    });
    expect(byCode['BHM-005']).toMatchObject({
      device_type_id: DEVICE_TYPE.buildingHeatMeter,
      level: LOCATION_LEVEL.building,
      flat: null,
      object: 'OBJ-7',
    });
    // The path runs from the country down and every ancestor carries the names.
    const path = byCode['HCA-001']!.path as number[];
    expect(path).toHaveLength(7);
    const { rows: chain } = await t.db.query<{ level: number; name: string }>(
      'SELECT level, name FROM location WHERE id = ANY($1::int[]) ORDER BY level',
      [path],
    );
    expect(chain.map((c) => c.name)).toEqual([
      'Lietuva',
      'Kauno apskritis',
      'Kauno m. sav.',
      'Kaunas',
      'Žalgirio g.',
      '7',
      '1',
    ]);
    const { rows: client } = await t.db.query('SELECT name FROM client WHERE code = $1', ['CL-1']);
    expect(client[0]).toEqual({ name: 'Šeimininkas 1' });
    // Every created record is in the audit log, with who imported it.
    const { rows: created } = await t.db.query<{ kind: string; n: number }>(
      `SELECT kind, count(*)::int AS n FROM audit_log WHERE actor_id IS NOT NULL AND kind <> 'user.create' GROUP BY kind ORDER BY kind`,
    );
    expect(created).toEqual([
      { kind: 'client.create', n: 2 },
      { kind: 'device.create', n: 5 },
      { kind: 'location.create', n: 8 },
      { kind: 'object.create', n: 1 },
      // A register without occupancy columns: one open occupancy per flat with a client (docs/occupancies.md).
      { kind: 'occupancy.create', n: 2 },
      { kind: 'register.import', n: 2 },
    ]);
    const { rows: entry } = await t.db.query<{ after: unknown; actor_username: string }>(
      `SELECT after, actor_username FROM audit_log WHERE kind = 'device.create' AND entity_id = $1`,
      [String(byCode['HCA-002']!.id)],
    );
    expect(entry[0]!.after).toEqual({
      DeviceCode: 'HCA-002',
      DeviceTypeId: DEVICE_TYPE.allocator,
      LocationId: (byCode['HCA-002']!.path as number[])[6],
      CounterCode: 'RHCA-002',
      DeviceDescription: 'Kambarys 2',
      Model: null,
      RatingFactor: 0.8,
      // The device shape of every screen's audit entries: times as the API writes them.
      InstalledAt: '2025-09-01T00:00:00+03:00',
      RemovedAt: null,
      ReplacedBy: null,
      // Its lifetime (docs/device-lifetime.md): the file gave none.
      VerifiedOn: null,
      ReadMethod: null,
      Role: null,
      // A LoRaWAN meter's DevEUI and decoder (docs/lorawan.md): none.
      DevEui: null,
      Decoder: null,
    });
  });

  it('reads .xlsx with Lithuanian headers, and counts what changed', async () => {
    const changed = [
      base('1', 'HCA-001', { DeviceDescription: 'Svetainė' }), // description changed
      base('1', 'HCA-002', { DeviceDescription: 'Kambarys 2', RatingFactor: '0,8' }),
      base('2', 'HCA-003', { ClientCode: 'CL-9', ClientName: 'Naujas klientas' }), // flat 2 gets a new client
      base('2', 'CW-004', {
        DeviceType: '3',
        RatingFactor: '',
        DeviceDescription: 'Vonia',
        ClientCode: 'CL-9',
        ClientName: 'Naujas klientas',
      }),
      base('', 'BHM-005', { DeviceType: '11', ClientCode: '', ClientName: '', FlatOrder: '' }),
      base('3', 'HCA-006'), // a new flat with a new device
    ];
    const r = await report('apply', await xlsx(changed, 'lt'), 'application/octet-stream');
    expect(r).toMatchObject({
      Applied: true,
      ErrorCount: 0,
      Locations: { Created: 1, Changed: 1, Unchanged: 7 },
      // CL-9 and CL-3 are new, CL-1 stays.
      Clients: { Created: 2, Changed: 0, Unchanged: 1 },
      Devices: { Created: 1, Changed: 1, Unchanged: 4 },
    });
    const { rows } = await t.db.query('SELECT description FROM device WHERE device_code = $1', ['HCA-001']);
    expect(rows[0]).toEqual({ description: 'Svetainė' });
    // Each change is in the audit log with before and after.
    const { rows: audit } = await t.db.query<{
      before: { DeviceDescription: string };
      after: { DeviceDescription: string };
    }>(`SELECT before, after FROM audit_log WHERE kind = 'device.update' AND after->>'DeviceCode' = 'HCA-001'`);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.before.DeviceDescription).toBe('Kambarys 1');
    expect(audit[0]!.after.DeviceDescription).toBe('Svetainė');
    // The same workbook again: nothing.
    const again = await report('preview', await xlsx(changed, 'lt'), 'application/octet-stream');
    expect(again.Devices).toEqual({ Created: 0, Changed: 0, Unchanged: 6 });
    expect(again.Locations.Changed).toBe(0);
  });

  it('accepts comma-separated CSV without a BOM', async () => {
    const r = await report('preview', csv([base('4', 'HCA-010', { RatingFactor: '1.5' })], { sep: ',', bom: false }));
    expect(r).toMatchObject({ ErrorCount: 0, Devices: { Created: 1, Changed: 0, Unchanged: 0 } });
  });

  it('reports every bad row with its line and reason, and writes nothing (all or nothing)', async () => {
    await t.db.query(
      `INSERT INTO device (device_type_id, location_id, device_code)
       SELECT 1, id, 'ELSEWHERE-1' FROM location WHERE level = ${LOCATION_LEVEL.flat} AND name = '1'`,
    );
    const rows = [
      base('5', 'OK-100'), // line 2: fine
      base('5', 'OK-100'), // 3: duplicate serial in the file
      base('6', 'ELSEWHERE-1'), // 4: serial used by a device in another flat
      base('6', 'X-1', { DeviceType: 'Dujų skaitiklis' }), // 5: unknown type
      base('6', 'X-2', { InstalledAt: '2025-02-30' }), // 6: bad date
      base('6', 'X-3', { RatingFactor: '1,2,3' }), // 7: bad number
      base('6', 'X-4', { DeviceCode: '' }), // 8: required
      base('6', 'X-5', { FlatOrder: 'pirmas' }), // 9: bad integer
      base('', 'X-6'), // 10: a flat device without a flat
      base('6', 'X-7', { DeviceType: '11' }), // 11: building meter with a flat
      base('6', 'HCA-001', { DeviceType: '2' }), // 12: different flat → elsewhere
      base('1', 'HCA-002', { DeviceType: '2' }), // 13: same flat, other type
      base('6', 'X-8', { ObjectCode: 'OBJ-OTHER' }), // 14: the building has OBJ-7
      base('6', 'X-9', { ClientCode: 'CL-X' }), // 15: flat 6 has CL-6 on line 4? no: line 4 is refused; see below
    ];
    const before = {
      devices: await count('device'),
      audit: await count('audit_log'),
      locations: await count('location'),
    };
    const r = await report('apply', csv(rows));
    expect(r.Applied).toBe(false);
    const byLine = r.Errors.map((e) => [e.Line, e.Code]);
    expect(byLine).toEqual([
      [3, 'DUPLICATE_SERIAL'],
      [4, 'SERIAL_USED_ELSEWHERE'],
      [5, 'UNKNOWN_DEVICE_TYPE'],
      [6, 'INVALID_DATE'],
      [7, 'INVALID_NUMBER'],
      [8, 'REQUIRED'],
      [9, 'INVALID_NUMBER'],
      [10, 'REQUIRED'],
      [11, 'FLAT_MISMATCH'],
      [12, 'SERIAL_USED_ELSEWHERE'],
      [13, 'DEVICE_TYPE_CHANGED'],
      [14, 'OBJECT_CONFLICT'],
      [15, 'CLIENT_CONFLICT'],
    ]);
    expect(r.ErrorCount).toBe(13);
    expect(r.Errors[0]).toMatchObject({
      Params: { code: 'OK-100', line: 2 },
      Message: expect.stringContaining('line 2'),
    });
    expect(r.Errors[1]!.Params.address).toContain('Žalgirio g. 7-1');
    expect(r.Errors[5]).toMatchObject({ Params: { column: 'DeviceCode' } });
    // Nothing written, not even the valid first row.
    expect(await count('device')).toBe(before.devices);
    expect(await count('location')).toBe(before.locations);
    expect(await count('audit_log')).toBe(before.audit);
  });

  it('refuses a serial of a removed device, and reports missing columns and unreadable files on line 0', async () => {
    await t.db.query(`UPDATE device SET removed_at = '2026-01-01' WHERE device_code = 'ELSEWHERE-1'`);
    const removed = await report('preview', csv([base('1', 'ELSEWHERE-1')]));
    expect(removed.Errors.map((e) => e.Code)).toEqual(['DEVICE_REMOVED']);

    const noSerial = Buffer.from('Country;City;Building\nLietuva;Kaunas;7\n');
    const missing = await report('preview', noSerial);
    expect(missing.Errors.every((e) => e.Line === 0 && e.Code === 'MISSING_COLUMN')).toBe(true);
    expect(missing.Errors.map((e) => e.Params.column)).toContain('DeviceCode');

    const broken = await report('preview', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(50)]));
    expect(broken.Errors.map((e) => e.Code)).toEqual(['BAD_FILE']);
    const empty = await report('preview', csv([]));
    expect(empty.Errors.map((e) => e.Code)).toEqual(['EMPTY_FILE']);
    const latin1 = await report('preview', Buffer.from('Country;Device code\nLietuva;Café\n', 'latin1'));
    expect(latin1.Errors.map((e) => e.Code)).toEqual(['BAD_FILE']);
  });

  it('sets a flat’s floor area: stored, changed by a later file, kept when the cell is empty; one area per flat', async () => {
    const area = async (flat: string) =>
      (
        await t.db.query<{ a: number | null }>(
          `SELECT area_m2::float8 AS a FROM location WHERE level = ${LOCATION_LEVEL.flat} AND street = 'Žalgirio g.' AND flat = $1`,
          [flat],
        )
      ).rows[0]?.a;
    const withArea = good.map((r) =>
      r.Flat === '1' ? { ...r, FlatArea: '54,3' } : r.Flat === '2' ? { ...r, FlatArea: '' } : r,
    );
    const first = await report('apply', csv(withArea));
    expect(first.ErrorCount).toBe(0);
    expect(await area('1')).toBe(54.3);
    expect(await area('2')).toBeNull();
    const changed = await report('apply', await xlsx(good.map((r) => (r.Flat === '2' ? { ...r, FlatArea: '61' } : r))));
    expect(changed.Locations).toMatchObject({ Changed: 1 });
    expect(await area('1')).toBe(54.3); // empty cells keep it
    expect(await area('2')).toBe(61);
    const log = await t.db.query<{ after: { AreaM2: number } }>(
      "SELECT after FROM audit_log WHERE kind = 'location.update' AND after->>'AreaM2' = '61'",
    );
    expect(log.rowCount).toBe(1);
    const bad = await report(
      'preview',
      csv([
        { ...good[0]!, FlatArea: '50' },
        { ...good[1]!, FlatArea: '51' }, // the same flat 1 with another area
        { ...good[2]!, FlatArea: '-3' },
      ]),
    );
    expect(bad.Errors.map((e) => [e.Line, e.Code, e.Params.column ?? ''])).toEqual([
      [3, 'DETAILS_CONFLICT', ''],
      [4, 'INVALID_NUMBER', 'FlatArea'],
    ]);
  });

  it('sets device models from the Model column: counted as changes, audited; empty cells and files without it keep them', async () => {
    const model = async (code: string) =>
      (await t.db.query<{ model: string | null }>('SELECT model FROM device WHERE device_code = $1', [code])).rows[0]
        ?.model;
    const withModels = good.map((r) =>
      r.DeviceCode === 'HCA-001'
        ? { ...r, Model: ' Q caloric 5.5 ' }
        : r.DeviceCode === 'CW-004'
          ? { ...r, Model: 'Hydrus' }
          : { ...r, Model: '' },
    );
    const preview = await report('preview', csv(withModels));
    expect(preview.Devices).toEqual({ Created: 0, Changed: 2, Unchanged: 3 });
    expect(await model('HCA-001')).toBeNull();
    const applied = await report('apply', await xlsx(withModels, 'lt'));
    expect(applied).toMatchObject({ Applied: true, Devices: { Created: 0, Changed: 2, Unchanged: 3 } });
    expect(await model('HCA-001')).toBe('Q caloric 5.5');
    expect(await model('CW-004')).toBe('Hydrus');
    const log = await t.db.query<{ before: { Model: string | null }; after: { Model: string } }>(
      "SELECT before, after FROM audit_log WHERE kind = 'device.update' AND entity_id = (SELECT id::text FROM device WHERE device_code = 'HCA-001') ORDER BY id DESC LIMIT 1",
    );
    expect(log.rows[0]).toMatchObject({ before: { Model: null }, after: { Model: 'Q caloric 5.5' } });

    // A file without the column (as written before it existed) leaves the models alone.
    const columns = REGISTER_COLUMNS.filter((c) => c.key !== 'Model');
    const withoutColumn = Buffer.from(
      [columns.map((c) => c.en), ...good.map((r) => columns.map((c) => r[c.key] ?? ''))]
        .map((cells) => cells.join(';'))
        .join('\n'),
      'utf8',
    );
    const without = await report('apply', withoutColumn);
    expect(without).toMatchObject({ Applied: true, Devices: { Created: 0, Changed: 0, Unchanged: 5 } });
    expect(await model('HCA-001')).toBe('Q caloric 5.5');
    // An empty cell keeps the model too; another model changes it; a new device gets its model.
    const next = await report(
      'apply',
      csv([
        ...withModels.map((r) => (r.DeviceCode === 'CW-004' ? { ...r, Model: 'iPERL' } : { ...r, Model: '' })),
        base('2', 'HCA-M01', { Model: 'Sontex 868' }),
      ]),
    );
    expect(next.Devices).toEqual({ Created: 1, Changed: 1, Unchanged: 4 });
    expect([await model('HCA-001'), await model('CW-004'), await model('HCA-M01')]).toEqual([
      'Q caloric 5.5',
      'iPERL',
      'Sontex 868',
    ]);
    const created = await t.db.query<{ after: { Model: string } }>(
      "SELECT after FROM audit_log WHERE kind = 'device.create' AND after->>'DeviceCode' = 'HCA-M01'",
    );
    expect(created.rows[0]?.after.Model).toBe('Sontex 868');
    // Longer than the API allows: the line and the column named, nothing written.
    const tooLong = await report('apply', csv([{ ...withModels[0]!, Model: 'M'.repeat(101) }]));
    expect(tooLong.Applied).toBe(false);
    expect(tooLong.Errors.map((e) => [e.Line, e.Code, e.Params.column, e.Params.max])).toEqual([
      [2, 'TOO_LONG', 'Model', 100],
    ]);
    expect(await model('HCA-001')).toBe('Q caloric 5.5');
  });
});
