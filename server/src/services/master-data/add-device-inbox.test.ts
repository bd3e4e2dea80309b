import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import { makeBuilding, makeFlat, makeSignedIn } from '../../test/factories.js';
import { ingestTelegrams } from '../ingest/ingest-telegrams.js';

describe(`POST /api/masterData/devices for a serial waiting in the unmatched inbox (${dbKind()})`, () => {
  const t = useApp();
  let flat: number;
  let token: string;

  beforeAll(async () => {
    flat = (
      await makeFlat(t.db, await makeBuilding(t.db, { city: 'Šiauliai', street: 'Tilžės g.', number: '5' }), {
        name: '2',
        order: 2,
      })
    ).id;
    token = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
  });

  const telegram = (ts: string, m3: number, i: number) => {
    const json = { _: 'telegram', meter: 'iperl', id: 'INBOX-1', total_m3: m3, timestamp: ts };
    return { position: i, json, raw: JSON.stringify(json) };
  };

  it('installs the device when it was first heard, so its held readings count and agree with LastSeen', async () => {
    await ingestTelegrams(t.db, [telegram('2026-02-03T08:00:30Z', 10, 1), telegram('2026-02-05T08:00:00Z', 11, 2)]);
    const added = await inject(t.app, contract.addDevice, {
      token,
      body: { locationId: flat, deviceTypeId: DEVICE_TYPE.coldWaterMeter, deviceCode: 'INBOX-1' },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.InstalledAt).toBe('2026-02-03T10:00:30+02:00');
    // Taken in with the device itself: its answer already shows the last telegram, and the inbox is empty.
    expect(added.body.LastSeen).toBe('2026-02-05T10:00:00+02:00');
    expect(
      (await inject(t.app, contract.listUnmatchedMeters, { query: { meterId: 'INBOX-1' }, token })).body.Total,
    ).toBe(0);
    const rows = await inject(t.app, contract.getDevicesData, {
      query: { dateFrom: '2026-02-01', dateTill: '2026-02-06', deviceTypeId: DEVICE_TYPE.coldWaterMeter },
      token,
    });
    const row = rows.body.find((r: { DeviceCode: string }) => r.DeviceCode === 'INBOX-1');
    expect(row).toMatchObject({ VolumeFrom: 10, VolumeTill: 11, Flags: [], LastSeen: '2026-02-05T10:00:00+02:00' });
    // A time the operator gives wins.
    await ingestTelegrams(t.db, [
      {
        ...telegram('2026-02-04T08:00:00Z', 1, 1),
        json: { id: 'INBOX-2', meter: 'iperl', total_m3: 1, timestamp: '2026-02-04T08:00:00Z' },
      },
    ]);
    const chosen = await inject(t.app, contract.addDevice, {
      token,
      body: {
        locationId: flat,
        deviceTypeId: DEVICE_TYPE.coldWaterMeter,
        deviceCode: 'INBOX-2',
        installedAt: '2026-02-10T09:00',
      },
    });
    expect(chosen.body.InstalledAt).toBe('2026-02-10T09:00:00+02:00');
    // What the add form asks: does this serial wait in the inbox?
    const held = { id: 'INBOX-3', meter: 'iperl', total_m3: 1, timestamp: '2026-02-04T08:00:00Z' };
    await ingestTelegrams(t.db, [{ position: 1, json: held, raw: JSON.stringify(held) }]);
    const waiting = await inject(t.app, contract.listUnmatchedMeters, { query: { meterId: 'INBOX-3' }, token });
    expect(waiting.body.Data.map((m: { MeterId: string }) => m.MeterId)).toEqual(['INBOX-3']);
    expect(
      (await inject(t.app, contract.listUnmatchedMeters, { query: { meterId: 'INBOX-9' }, token })).body.Total,
    ).toBe(0);
  });

  it('replacing a device by a waiting serial takes its telegrams in; listing the inbox writes nothing', async () => {
    const held = { id: 'INBOX-4', meter: 'iperl', total_m3: 7, timestamp: '2026-03-02T08:00:00Z' };
    await ingestTelegrams(t.db, [{ position: 1, json: held, raw: JSON.stringify(held) }]);
    const old = await inject(t.app, contract.addDevice, {
      token,
      body: {
        locationId: flat,
        deviceTypeId: DEVICE_TYPE.coldWaterMeter,
        deviceCode: 'INBOX-OLD',
        installedAt: '2026-01-01T00:00',
      },
    });
    const replaced = await inject(t.app, contract.replaceDevice, {
      token,
      params: { id: old.body.DeviceId },
      body: { replacedAt: '2026-03-01T00:00', finalReading: 5, newDeviceCode: 'INBOX-4', initialReading: 6 },
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(201);
    expect(replaced.body.New.LastSeen).toBe('2026-03-02T10:00:00+02:00');
    // A device with a waiting serial made outside the API: listing the inbox (a GET) does not take it in.
    const other = { id: 'INBOX-5', meter: 'iperl', total_m3: 1, timestamp: '2026-03-02T08:00:00Z' };
    await ingestTelegrams(t.db, [{ position: 1, json: other, raw: JSON.stringify(other) }]);
    await t.db.query(
      `INSERT INTO device (device_type_id, location_id, device_code, installed_at) VALUES (3, $1, 'INBOX-5', '2026-01-01')`,
      [flat],
    );
    for (let i = 0; i < 2; i++) {
      const listed = await inject(t.app, contract.listUnmatchedMeters, { query: { meterId: 'INBOX-5' }, token });
      expect(listed.body.Total).toBe(1);
    }
    // The next collector request is the safety net that takes it in.
    await ingestTelegrams(t.db, []);
    expect(
      (await inject(t.app, contract.listUnmatchedMeters, { query: { meterId: 'INBOX-5' }, token })).body.Total,
    ).toBe(0);
  });
});
