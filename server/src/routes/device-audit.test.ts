import {
  type AuditEntry,
  addDevice,
  applyRegisterImport,
  DEVICE_TYPE,
  GROUP,
  getAuditLog,
  getLocation,
  REGISTER_COLUMNS,
  type RegisterColumn,
  updateDevice,
} from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeFlat, makeSignedIn, type SignedIn } from '../test/factories.js';

/** Every key a device's audit entry has, whichever screen made the change (docs/master-data.md, "The audit log"). */
const DEVICE_AUDIT_KEYS = [
  'CounterCode',
  'Decoder',
  'DevEui',
  'DeviceCode',
  'DeviceDescription',
  'DeviceTypeId',
  'InstalledAt',
  'LocationId',
  'Model',
  'RatingFactor',
  'ReadMethod',
  'RemovedAt',
  'ReplacedBy',
  'Role',
  'VerifiedOn',
];
/** ISO 8601 with the provider zone's offset, as every time in the API. */
const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;

const register = (rows: Partial<Record<RegisterColumn, string>>[]) =>
  Buffer.from(
    [
      REGISTER_COLUMNS.map((c) => c.en).join(';'),
      ...rows.map((r) => REGISTER_COLUMNS.map((c) => r[c.key] ?? '').join(';')),
    ]
      .join('\r\n')
      .concat('\r\n'),
  );

const row = (code: string, extra: Partial<Record<RegisterColumn, string>> = {}) => ({
  Country: 'Lietuva',
  County: 'Klaipėdos apskritis',
  Region: 'Klaipėdos m. sav.',
  City: 'Klaipėda',
  Street: 'Taikos pr.',
  Building: '3',
  Flat: '1',
  ObjectCode: 'OBJ-TAIKOS-3',
  DeviceType: 'HCA',
  DeviceCode: code,
  InstalledAt: '2025-09-01',
  ...extra,
});

describe(`GET /api/audit: one device shape from every screen (${dbKind()})`, () => {
  const t = useApp();
  let operator: SignedIn;
  let formDevice: number;

  beforeAll(async () => {
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    const flat = await makeFlat(t.db, await makeBuilding(t.db));
    // The device form: add, then edit.
    const added = await inject(t.app, addDevice, {
      token: operator.token,
      body: {
        locationId: flat.id,
        deviceTypeId: DEVICE_TYPE.allocator,
        deviceCode: 'FORM-1',
        installedAt: '2025-09-01T00:00',
      },
    });
    expect(added.status, added.text).toBe(201);
    formDevice = added.body.DeviceId;
    const edited = await inject(t.app, updateDevice, {
      token: operator.token,
      params: { id: formDevice },
      body: { description: 'Svetainė' },
    });
    expect(edited.status, edited.text).toBe(200);
    // The register import: create, then change.
    for (const description of ['Kambarys 1', 'Kambarys 2']) {
      const imported = await inject(t.app, applyRegisterImport, {
        token: operator.token,
        payload: register([row('IMPORT-1', { DeviceDescription: description })]),
        headers: { 'content-type': 'text/csv' },
      });
      expect(imported.status, imported.text).toBe(200);
      expect(imported.body.Applied, imported.text).toBe(true);
    }
  });

  it('logs InstalledAt as the API shows it (ISO with the offset), from the device form and the register import', async () => {
    const log = await inject(t.app, getAuditLog, {
      token: operator.token,
      query: { kind: 'device.create,device.update', pageSize: 100 },
    });
    expect(log.status, log.text).toBe(200);
    const entries = log.body.Data as AuditEntry[];
    const states = entries.flatMap((e) => [e.Before, e.After]).filter((s) => s !== null) as Record<string, unknown>[];
    // Two creations (after only) and two changes (before and after).
    expect(entries.map((e) => e.Kind).sort()).toEqual([
      'device.create',
      'device.create',
      'device.update',
      'device.update',
    ]);
    expect(states).toHaveLength(6);
    for (const state of states) {
      expect(state.InstalledAt).toMatch(ISO_WITH_OFFSET);
      expect(
        Object.keys(state)
          .filter((k) => k !== 'InitialReading')
          .sort(),
      ).toEqual(DEVICE_AUDIT_KEYS);
    }
    const created = Object.fromEntries(
      entries
        .filter((e) => e.Kind === 'device.create')
        .map((e) => [(e.After as { DeviceCode: string }).DeviceCode, e.After]),
    ) as Record<string, { InstalledAt: string; LocationId: number }>;
    // The same day from both screens reads the same, and as the device's own row shows it.
    expect(created['FORM-1']!.InstalledAt).toBe('2025-09-01T00:00:00+03:00');
    expect(created['IMPORT-1']!.InstalledAt).toBe('2025-09-01T00:00:00+03:00');
    const place = await inject(t.app, getLocation, {
      token: operator.token,
      params: { id: created['IMPORT-1']!.LocationId },
    });
    expect(place.body.Devices.find((d) => d.DeviceCode === 'IMPORT-1')!.InstalledAt).toBe(
      created['IMPORT-1']!.InstalledAt,
    );
  });
});
