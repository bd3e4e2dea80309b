import { readFileSync } from 'node:fs';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import {
  lastSeenMismatches,
  makeBuilding,
  makeDevice,
  makeFlat,
  makeSignedIn,
  type SignedIn,
} from '../test/factories.js';

interface Sample {
  driver: string;
  meter_type: 'hca' | 'heat' | 'water';
  expected_json: Record<string, unknown>;
}
const SAMPLES: Sample[] = readFileSync(
  new URL('../services/ingest/testdata/wmbusmeters-samples.jsonl', import.meta.url),
  'utf8',
)
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));

const TYPE_OF = { hca: 1, heat: 2, water: 3 } as const;

/**
 * What each sample's decoded JSON says, written out by hand: value (exact text),
 * meter clock (provider zone), status flags, set-day date and value. null = none.
 */
const EXPECTED: Record<string, [string | null, string | null, string[], string | null, string | null]> = {
  '78563412': ['127', '2019-02-20 11:32:00', [], '2018-12-31', '145'],
  '91835132': ['304', '2021-01-25 22:20:00', [], '2020-09-30', '366'],
  '60366655': [null, '2020-12-22 17:19:00', ['POWER_LOW'], null, null],
  '27282728': ['119', '2020-10-31 10:04:00', [], null, null],
  '11776622': ['131', '2020-02-08 00:00:00', [], '2019-12-31', '1026'],
  '14542076': ['2', null, [], '2020-12-31', '25'],
  '00707788': ['904', '2021-02-28 00:00:00', [], null, null],
  '37373731': ['1', '2022-09-18 00:00:00', ['SEAL_BROKEN'], null, null],
  '60900126': ['166', null, [], null, null],
  '54423117': [
    '0',
    '2026-05-05 20:36:00',
    ['ALARM', 'OPEN_C', 'PERMANENT_ERROR', 'SENSOR_BREAK', 'UNEXPECTED_RST'],
    '2026-04-30',
    '0',
  ],
  '93000952': ['596', null, [], '2025-12-31', '2265'],
  '23800604': ['0', '2026-02-09 04:01:00', ['TAMPERING'], null, null],
  '04998541': [null, '2003-02-15 14:26:00', ['UNKNOWN_80'], '2003-01-31', '321'],
  '67676767': ['44', null, [], '2019-10-31', '0'],
  '78780102': ['723.611111', '2020-08-18 00:00:00', [], '2020-08-01', '239.722222'],
  '80808081': [
    '444.444444',
    '2020-11-09 00:00:00',
    ['SENSOR_T1_BELOW_MEASURING_RANGE', 'SENSOR_T2_BELOW_MEASURING_RANGE', 'V1_COMMUNICATION_ERROR'],
    '2020-11-01',
    '0',
  ],
  '78787878': ['1111.6', '2023-01-20 00:00:00', [], '2023-01-01', '4.7'],
  '68926025': ['2651', null, [], null, null],
  '58496405': ['6884', null, [], '2021-05-31', '6347'],
  '70444600': ['8974.444444', '2022-01-10 10:49:00', [], null, null],
  '44503169': ['4981.4', null, [], '2024-01-31', '4165.8'],
  '32002044': ['3792', null, [], '2022-01-01', '0'],
  '62626262': ['495', null, [], null, null],
  '01885619': ['3112.49977', '2021-02-09 00:00:00', ['ERROR_FLAGS_2000000'], null, null],
  '71727374': ['4460.833333', '2021-09-25 22:29:00', ['SABOTAGE_ENCLOSURE'], null, null],
  '94430412': ['18377', null, [], '2020-12-31', '17960'],
  '89508019': ['296', '2023-03-04 18:54:00', [], null, null],
  '76348799': ['6.408', null, ['DRY'], null, null],
  '21242472': ['3.488', null, ['METER_BLOCKED', 'UNDERFLOW'], '2019-09-30', '3.486'],
  '00148686': ['21.93', null, [], null, null],
  '64646464': ['1.174', null, [], '2019-10-31', '0.2'],
  '12345699': ['7.704', null, [], null, null],
  '12353648': ['1.991', '2022-01-30 02:30:00', [], '2021-12-31', '1.791'],
  '22705729': ['326.069', null, [], '2024-09-30', '326.062'],
  '18000056': ['521.277', '2022-10-08 21:16:14', [], '2022-10-01', '520.461'],
  '34333231': ['13.8', '2019-04-27 00:00:00', [], '2018-12-31', '8.9'],
  '80291792': ['0.416', null, ['DRY', 'HIGH_TEMPERATURE', 'NO_FLOW_PREV_MONTH'], null, null],
  '23746391': ['99999.999', '2025-04-16 10:09:00', [], null, null],
  '22996221': ['0.106', '2020-07-30 10:40:00', ['LEAKAGE_OR_NO_USAGE', 'POWER_LOW'], null, null],
  '24360570': ['29.458', '2025-09-17 07:10:33', ['TAMPER'], null, null],
};

/** A sample as a collector would send it: a real reception time instead of the placeholder. */
const telegram = (sample: Sample, timestamp: string) => ({ ...sample.expected_json, timestamp });
const ndjson = (items: unknown[]) => `${items.map((i) => JSON.stringify(i)).join('\n')}\n`;

describe(`readings ingest (${dbKind()})`, () => {
  const t = useApp();
  let operator: SignedIn;
  let admin: SignedIn;
  let key: string;
  let flat: number;
  const deviceOf: Record<string, number> = {};

  const post = (body: string, contentType = 'application/x-ndjson', headers: Record<string, string> = {}) =>
    inject(t.app, contract.ingestWmbusmeters, {
      body,
      headers: { 'content-type': contentType, authorization: `Bearer ${key}`, ...headers },
    });
  const count = async (table: string) =>
    (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;

  beforeAll(async () => {
    const place = await makeBuilding(t.db, { city: 'Vilnius', street: 'Gedimino pr.', number: '12' });
    const building = place.id;
    flat = (await makeFlat(t.db, place, { name: '1', order: 1 })).id;
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    admin = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [building] });
    for (const s of SAMPLES) {
      const id = s.expected_json.id as string;
      deviceOf[id] = await makeDevice(t.db, flat, { typeId: TYPE_OF[s.meter_type], code: id });
    }
    const created = await inject(t.app, contract.createCollectorKey, {
      token: operator.token,
      body: { name: 'Katilinė' },
    });
    expect(created.status).toBe(201);
    key = created.body.Key;
  });

  describe('POST /api/ingest/wmbusmeters', () => {
    it('stores every real sample with the value, time point, flags and set-day value its JSON says', async () => {
      expect(SAMPLES).toHaveLength(40);
      expect(Object.keys(EXPECTED).sort()).toEqual(SAMPLES.map((s) => s.expected_json.id).sort());
      const body = ndjson(SAMPLES.map((s, i) => telegram(s, `2026-01-10T08:${String(i).padStart(2, '0')}:00Z`)));
      const res = await post(body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ Received: 40, Stored: 40, Readings: 38, Duplicates: 0, Unmatched: 0, Rejected: [] });

      const { rows } = await t.db.query<{
        code: string;
        ts: string;
        value: string | null;
        meter_ts: string | null;
        flags: string[];
        set_date: string | null;
        set_value: string | null;
        raw_id: string;
      }>(
        `SELECT d.device_code AS code, to_char(g.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS ts,
                r.value::text AS value, to_char(r.meter_ts, 'YYYY-MM-DD HH24:MI:SS') AS meter_ts,
                g.flags, g.set_date::text AS set_date, g.set_value::text AS set_value, g.raw->>'id' AS raw_id
           FROM telegram g JOIN device d ON d.id = g.device_id
           LEFT JOIN reading r ON r.device_id = g.device_id AND r.ts = g.ts`,
      );
      expect(rows).toHaveLength(40);
      for (const row of rows) {
        const [value, meterTs, flags, setDate, setValue] = EXPECTED[row.code]!;
        const i = SAMPLES.findIndex((s) => s.expected_json.id === row.code);
        expect({ code: row.code, ts: row.ts, value: row.value, meterTs: row.meter_ts, raw: row.raw_id }).toEqual({
          code: row.code,
          ts: `2026-01-10 08:${String(i).padStart(2, '0')}`,
          value,
          meterTs: value === null ? null : meterTs,
          raw: row.code,
        });
        expect({ code: row.code, flags: row.flags, setDate: row.set_date, setValue: row.set_value }).toEqual({
          code: row.code,
          flags,
          setDate,
          setValue,
        });
      }
      const status = await t.db.query<{ code: string; flags: string[]; set_value: string | null }>(
        `SELECT d.device_code AS code, s.flags, s.set_value::text AS set_value
           FROM device_status s JOIN device d ON d.id = s.device_id`,
      );
      expect(status.rows).toHaveLength(40);
      for (const s of status.rows)
        expect([s.code, s.flags, s.set_value]).toEqual([s.code, EXPECTED[s.code]![2], EXPECTED[s.code]![4]]);
    });

    it('changes nothing when the same telegrams come again, in any form', async () => {
      const before = [await count('reading'), await count('telegram')];
      const items = SAMPLES.map((s, i) => telegram(s, `2026-01-10T08:${String(i).padStart(2, '0')}:00Z`));
      const again = await post(JSON.stringify(items), 'application/json');
      expect(again.body).toMatchObject({ Received: 40, Stored: 0, Readings: 0, Duplicates: 40, Rejected: [] });
      // The same instant written in the provider zone is the same reception time.
      const local = await post(JSON.stringify({ ...items[0], timestamp: '2026-01-10 10:00:00' }), 'application/json');
      expect(local.body).toMatchObject({ Stored: 0, Duplicates: 1 });
      expect([await count('reading'), await count('telegram')]).toEqual(before);
    });

    it('counts a telegram repeated inside one request once', async () => {
      const t = telegram(SAMPLES[30]!, '2026-01-11T09:00:00Z');
      const res = await post(ndjson([t, t, t]));
      expect(res.body).toMatchObject({ Received: 3, Stored: 1, Readings: 1, Duplicates: 2 });
    });

    it('treats sentinels as no value: no reading is invented or overwritten', async () => {
      const water = SAMPLES.find((s) => s.expected_json.id === '12345699')!; // iperl, 7.704 m3
      const device = deviceOf['12345699']!;
      const base = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM reading WHERE device_id = $1', [
        device,
      ]);
      const sentinels = [null, '', -2147483648, '-2147483648'].map((v, i) =>
        telegram({ ...water, expected_json: { ...water.expected_json, total_m3: v } }, `2026-01-12T0${i}:00:00Z`),
      );
      const noDate = telegram(
        {
          ...water,
          expected_json: {
            ...water.expected_json,
            target_date: '2127-01-01',
            target_m3: 5,
            meter_datetime: '2000-00-00 00:00',
          },
        },
        '2026-01-12T05:00:00Z',
      );
      const res = await post(ndjson([...sentinels, noDate]));
      expect(res.body).toMatchObject({ Received: 5, Stored: 5, Readings: 1, Rejected: [] });
      const { rows } = await t.db.query<{ ts: string; value: string; meter_ts: string | null }>(
        `SELECT to_char(ts AT TIME ZONE 'UTC', 'HH24') AS ts, value::text AS value, meter_ts::text AS meter_ts
           FROM reading WHERE device_id = $1 AND ts >= '2026-01-12T00:00:00Z'`,
        [device],
      );
      expect(rows).toEqual([{ ts: '05', value: '7.704', meter_ts: null }]);
      expect((await t.db.query('SELECT 1 FROM reading WHERE device_id = $1', [device])).rowCount).toBe(
        base.rows[0]!.n + 1,
      );
      const stored = await t.db.query<{ set_date: string | null }>(
        "SELECT set_date::text AS set_date FROM telegram WHERE device_id = $1 AND ts = '2026-01-12T05:00:00Z'",
        [device],
      );
      expect(stored.rows).toEqual([{ set_date: null }]);
    });

    it('lists telegrams it cannot use with position and reason, and stores the others', async () => {
      const water = SAMPLES.find((s) => s.expected_json.id === '00148686')!;
      const ok = (h: number) => telegram(water, `2026-01-13T${String(h).padStart(2, '0')}:00:00Z`);
      const items = [
        ok(1),
        { ...ok(2), total_m3: 'a lot' },
        { ...ok(3), id: undefined },
        { ...ok(4), id: 148686 },
        { ...ok(5), timestamp: '1111-11-11T11:11:11Z' },
        { ...ok(6), timestamp: undefined },
        { ...ok(7), timestamp: '2026-13-01T00:00:00Z' },
        ok(8),
        { ...ok(9), id: '55555555', name: 'a\u0000b' },
        { ...ok(10), id: '55555555', name: '\ud800' },
      ];
      const res = await post(JSON.stringify(items), 'application/json');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ Received: 10, Stored: 2, Duplicates: 0, Unmatched: 0 });
      expect(res.body.Rejected.map((r: { Position: number }) => r.Position)).toEqual([2, 3, 4, 5, 6, 7, 9, 10]);
      expect(res.body.Rejected[6]!.Reason).toMatch(/lone surrogate/);
      expect(res.body.Rejected[0]).toEqual({ Position: 2, MeterId: '00148686', Reason: 'total_m3 must be a number' });
      expect(res.body.Rejected[1]!.Reason).toBe('id is missing');
      expect(res.body.Rejected[2]).toMatchObject({
        MeterId: null,
        Reason: expect.stringMatching(/^id must be a string/),
      });
      expect(res.body.Rejected[3]!.Reason).toMatch(/timestamp is not a plausible reception time/);
      expect(res.body.Rejected[4]!.Reason).toBe('timestamp is missing');
      expect(res.body.Rejected[5]!.Reason).toMatch(/timestamp is not an ISO 8601 time/);
      const { rows } = await t.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM telegram WHERE device_id = $1 AND ts::date = '2026-01-13'",
        [deviceOf['00148686']],
      );
      expect(rows[0]!.n).toBe(2);
    });

    it('answers 400 with the position for malformed JSON or non-objects, and stores nothing', async () => {
      const before = [await count('reading'), await count('telegram'), await count('unmatched_telegram')];
      const water = SAMPLES.find((s) => s.expected_json.id === '00148686')!;
      const good = JSON.stringify(telegram(water, '2026-01-14T01:00:00Z'));
      const bad = [
        { body: `[${good},\n{"id": "1", "total_m3": tru}]`, type: 'application/json', message: /line 2, column 28/ },
        { body: `[${good},\n{"id" "1"}]`, type: 'application/json', message: /line 2, column 7/ },
        {
          body: `${good}\n${good.replace('01:00', '02:00')}\n{"id": "1",`,
          type: 'application/x-ndjson',
          message: /line 3/,
        },
        { body: `[${good}, 42]`, type: 'application/json', message: /Telegram 2 is not a JSON object/ },
        { body: `${good}\n[1]\n`, type: 'text/plain', message: /Line 2 is not a JSON object/ },
        { body: '"just a string"', type: 'application/json', message: /Telegram 1 is not a JSON object/ },
        { body: '', type: 'application/json', message: /empty/ },
      ];
      for (const b of bad) {
        const res = await post(b.body, b.type);
        expect([b.body, res.status]).toEqual([b.body, 400]);
        expect(res.error.message).toMatch(b.message);
      }
      expect([await count('reading'), await count('telegram'), await count('unmatched_telegram')]).toEqual(before);
    });

    it('keeps telegrams of unknown meters in the inbox and takes them in once the device exists', async () => {
      const unknown = (ts: string, total: number) => ({
        ...SAMPLES[29]!.expected_json,
        id: '99887766',
        total_m3: total,
        timestamp: ts,
      });
      const res = await post(
        ndjson([
          unknown('2026-01-15T10:00:00Z', 1.5),
          unknown('2026-01-15T11:00:00Z', 1.75),
          unknown('2026-01-15T10:00:00Z', 1.5),
        ]),
      );
      expect(res.body).toMatchObject({ Received: 3, Stored: 0, Unmatched: 3 });
      const inbox = await inject(t.app, contract.listUnmatchedMeters, { token: operator.token });
      expect(inbox.status).toBe(200);
      expect(inbox.body.Total).toBe(1);
      expect(inbox.body.Data[0]).toMatchObject({
        MeterId: '99887766',
        Driver: 'apator162',
        FirstSeen: '2026-01-15T12:00:00+02:00',
        LastSeen: '2026-01-15T13:00:00+02:00',
        Count: 2,
        LastJson: { id: '99887766', total_m3: 1.75 },
      });
      expect((await inject(t.app, contract.listUnmatchedMeters, { token: admin.token })).status).toBe(403);

      const device = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: '99887766' });
      // The next request of any collector takes the kept telegrams in.
      const next = await post(ndjson([unknown('2026-01-15T12:00:00Z', 2)]));
      expect(next.body).toMatchObject({ Received: 1, Stored: 1, Readings: 1, Unmatched: 0 });
      const { rows } = await t.db.query<{ value: string }>(
        'SELECT value::text AS value FROM reading WHERE device_id = $1 ORDER BY ts',
        [device],
      );
      expect(rows.map((r) => r.value)).toEqual(['1.5', '1.75', '2']);
      const empty = await inject(t.app, contract.listUnmatchedMeters, { token: operator.token });
      expect(empty.body).toMatchObject({ Total: 0, Data: [] });
      expect(await count('unmatched_telegram')).toBe(0);
    });

    it('refuses a missing, wrong or revoked key, and a user token, with 401', async () => {
      const body = ndjson([telegram(SAMPLES[30]!, '2026-01-16T00:00:00Z')]);
      const send = (headers: Record<string, string>) =>
        t.app.inject({
          method: 'POST',
          url: '/api/ingest/wmbusmeters',
          payload: body,
          headers: { 'content-type': 'application/x-ndjson', ...headers },
        });
      expect((await send({})).statusCode).toBe(401);
      expect((await send({ authorization: `Bearer ${key}x` })).statusCode).toBe(401);
      expect((await send({ authorization: `Bearer ${operator.token}` })).statusCode).toBe(401);
      expect((await send({ 'x-collector-key': key })).statusCode).toBe(200);

      const second = await inject(t.app, contract.createCollectorKey, {
        token: operator.token,
        body: { name: 'Antras' },
      });
      expect((await send({ authorization: `Bearer ${second.body.Key}` })).statusCode).toBe(200);
      const revoked = await inject(t.app, contract.revokeCollectorKey, {
        params: { id: second.body.Id },
        token: operator.token,
      });
      expect(revoked.status).toBe(200);
      expect(revoked.body.RevokedAt).toEqual(expect.any(String));
      const refused = await send({ authorization: `Bearer ${second.body.Key}` });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toMatch(/revoked/);
      expect((await send({ authorization: `Bearer ${key}` })).statusCode).toBe(200);
    });
  });

  describe('POST /api/ingest/csv', () => {
    const importCsv = (text: string, token = operator.token) =>
      inject(t.app, contract.importCsv, { token, body: text, headers: { 'content-type': 'text/csv' } });
    const values = async (code: string) =>
      (
        await t.db.query<{ ts: string; value: string }>(
          `SELECT iso(r.ts) AS ts, r.value::text AS value FROM reading r JOIN device d ON d.id = r.device_id
            WHERE d.device_code = $1 ORDER BY r.ts`,
          [code],
        )
      ).rows.map((r) => `${r.ts} ${r.value}`);

    it('imports semicolon files with a header, decimal commas, times with and without a zone', async () => {
      await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'CSV-1' });
      const text =
        'serial;time;value\r\n' +
        'CSV-1;2026-01-15 10:00;12,5\r\n' +
        'CSV-1;2026-01-16T10:00:00Z;13.25\r\n' +
        'CSV-1;2026-07-01T00:00:00+03:00;14,000125\r\n' +
        '\r\n';
      const res = await importCsv(text);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ Lines: 3, Stored: 3, Duplicates: 0, RejectedCount: 0, Rejected: [] });
      expect(await values('CSV-1')).toEqual([
        '2026-01-15T10:00:00+02:00 12.5',
        '2026-01-16T12:00:00+02:00 13.25',
        '2026-07-01T00:00:00+03:00 14.000125',
      ]);
      const again = await importCsv(text);
      expect(again.body).toMatchObject({ Lines: 3, Stored: 0, Duplicates: 3 });
      const devices = await inject(t.app, contract.getDeviceDataByUserId, { token: operator.token });
      expect(devices.body.find((d: { DeviceCode: string }) => d.DeviceCode === 'CSV-1')!.LastSeen).toBe(
        '2026-07-01T00:00:00+03:00',
      );
    });

    it('imports comma files without a header, quoted decimal commas included', async () => {
      await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'CSV-2' });
      await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'CSV,"6"' });
      const res = await importCsv(
        'CSV-2,2026-02-01 00:00,1.5\nCSV-2,2026-02-02,"2,75"\n"CSV-2",2026-02-03 00:00:00,3\n' +
          '"CSV,""6""",2026-02-04 00:00,4\n',
      );
      expect(res.body).toEqual({ Lines: 4, Stored: 4, Duplicates: 0, RejectedCount: 0, Rejected: [] });
      expect(await values('CSV,"6"')).toEqual(['2026-02-04T00:00:00+02:00 4']);
      expect(await values('CSV-2')).toEqual([
        '2026-02-01T00:00:00+02:00 1.5',
        '2026-02-02T00:00:00+02:00 2.75',
        '2026-02-03T00:00:00+02:00 3',
      ]);
    });

    it('reports each bad line with its number and reason and imports the good ones', async () => {
      await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'CSV-3' });
      const text = [
        'Serial;Time;Value',
        'CSV-3;2026-03-01 00:00;1',
        'CSV-3;2026-02-30 00:00;2',
        'CSV-3;yesterday;3',
        'CSV-3;2026-03-02 00:00;many',
        'CSV-3;2026-03-03 00:00',
        'CSV-3;2026-03-03 00:00;4;extra',
        'NOPE-1;2026-03-04 00:00;5',
        ';2026-03-04 00:00;5',
        'CSV-3;2026-03-05 25:00;6',
        'CSV-3;1999-12-31 00:00;7',
        'CSV-3;2026-03-06 00:00;8',
      ].join('\n');
      const res = await importCsv(text);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ Lines: 11, Stored: 2, Duplicates: 0, RejectedCount: 9 });
      expect(res.body.Rejected.map((r: { Position: number; Reason: string }) => [r.Position, r.Reason])).toEqual([
        [3, 'time is not an ISO 8601 time: "2026-02-30 00:00"'],
        [4, 'time is not an ISO 8601 time: "yesterday"'],
        [5, 'value is not a number: "many"'],
        [6, 'expected 3 fields (serial;time;value), found 2'],
        [7, 'expected 3 fields (serial;time;value), found 4'],
        [8, 'no device has the serial number NOPE-1'],
        [9, 'serial number must be 1 to 64 characters'],
        [10, 'time is not an ISO 8601 time: "2026-03-05 25:00"'],
        [11, 'time is not a plausible reception time: "1999-12-31 00:00"'],
      ]);
      expect(await values('CSV-3')).toEqual(['2026-03-01T00:00:00+02:00 1', '2026-03-06T00:00:00+02:00 8']);
    });

    it('stores a reading given twice in one file once, whatever the line order and time notation', async () => {
      await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'CSV-4' });
      await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'CSV-5' });
      const text = [
        'CSV-5\t2024-02-29 12:00\t7',
        'CSV-4\t2026-03-02 00:00\t2',
        'CSV-4\t2026-03-01T00:00:00+02:00\t1',
        'CSV-4\t2026-03-01 00:00\t1',
        'CSV-4\t2026-02-28T22:00:00Z\t9',
        'CSV-5\t2026-02-29 12:00\t8',
      ].join('\n');
      const res = await importCsv(text);
      expect(res.body).toEqual({
        Lines: 6,
        Stored: 3,
        Duplicates: 2,
        RejectedCount: 1,
        Rejected: [{ Position: 6, MeterId: 'CSV-5', Reason: 'time is not an ISO 8601 time: "2026-02-29 12:00"' }],
      });
      // The first of the three lines for 1 March 00:00 (Vilnius) wins.
      expect(await values('CSV-4')).toEqual(['2026-03-01T00:00:00+02:00 1', '2026-03-02T00:00:00+02:00 2']);
      expect(await values('CSV-5')).toEqual(['2024-02-29T12:00:00+02:00 7']);
    });

    it('is for group 1 only, and an empty file imports nothing', async () => {
      expect((await importCsv('CSV-1;2026-01-20 00:00;1\n', admin.token)).status).toBe(403);
      expect((await importCsv('')).body).toEqual({
        Lines: 0,
        Stored: 0,
        Duplicates: 0,
        RejectedCount: 0,
        Rejected: [],
      });
    });
  });

  describe('/api/collector-keys', () => {
    it('shows a key once, stores only its hash, and is for group 1 only', async () => {
      const created = await inject(t.app, contract.createCollectorKey, {
        token: operator.token,
        body: { name: 'Trečias' },
      });
      expect(created.body.Key).toMatch(/^rmc_[A-Za-z0-9_-]{43}$/);
      expect(created.body.Key.startsWith(created.body.Prefix)).toBe(true);
      expect(created.body.CreatedBy).toBe(operator.username);
      const listed = await inject(t.app, contract.listCollectorKeys, { token: operator.token });
      expect(listed.status).toBe(200);
      expect(listed.body.map((k: { Name: string }) => k.Name)).toContain('Trečias');
      expect(JSON.stringify(listed.body)).not.toContain(created.body.Key);
      const stored = await t.db.query<{ key_hash: Buffer }>('SELECT key_hash FROM collector_key WHERE id = $1', [
        created.body.Id,
      ]);
      expect(Buffer.from(stored.rows[0]!.key_hash).toString('utf8')).not.toContain(created.body.Key.slice(4));
      expect(Buffer.from(stored.rows[0]!.key_hash)).toHaveLength(32);

      expect((await inject(t.app, contract.listCollectorKeys, { token: admin.token })).status).toBe(403);
      expect(
        (await inject(t.app, contract.createCollectorKey, { token: admin.token, body: { name: 'x' } })).status,
      ).toBe(403);
      expect(
        (await inject(t.app, contract.revokeCollectorKey, { params: { id: created.body.Id }, token: admin.token }))
          .status,
      ).toBe(403);
      expect(
        (await inject(t.app, contract.revokeCollectorKey, { params: { id: 999999 }, token: operator.token })).status,
      ).toBe(404);
      expect(
        (await inject(t.app, contract.createCollectorKey, { token: operator.token, body: { name: '' } })).status,
      ).toBe(400);
    });

    it('refuses a second key of the same name, ignoring case and blanks (409 with a code)', async () => {
      const first = await inject(t.app, contract.createCollectorKey, {
        token: operator.token,
        body: { name: 'Kiemas' },
      });
      expect(first.status).toBe(201);
      const again = await inject(t.app, contract.createCollectorKey, {
        token: operator.token,
        body: { name: ' KIEMAS ' },
      });
      expect(again.status).toBe(409);
      expect(again.error).toMatchObject({
        code: 'collectorKeyNameTaken',
        params: { name: 'KIEMAS' },
        message: 'There is already a collector key named "KIEMAS"',
      });
      const listed = await inject(t.app, contract.listCollectorKeys, { token: operator.token });
      expect(listed.body.filter((k: { Name: string }) => k.Name.toLowerCase() === 'kiemas')).toHaveLength(1);
    });

    it('is declared in the OpenAPI document with its authentication', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
      const ingest = doc.paths['/api/ingest/wmbusmeters'].post;
      expect(ingest.security).toEqual([{ collectorKey: [] }]);
      expect(Object.keys(ingest.requestBody.content)).toEqual(
        expect.arrayContaining(['application/json', 'application/x-ndjson', 'text/plain']),
      );
      expect(doc.paths['/api/collector-keys'].post).toBeDefined();
      expect(doc.paths['/api/ingest/unmatched'].get).toBeDefined();
    });
  });

  describe('after a meter replacement', () => {
    it("stores the new serial's telegrams on the new device and late ones of the old serial on the old one", async () => {
      const old = await makeDevice(t.db, flat, {
        typeId: DEVICE_TYPE.coldWaterMeter,
        code: 'REPL-OLD',
        installedAt: '2025-01-01T00:00:00+02:00',
      });
      const replaced = await inject(t.app, contract.replaceDevice, {
        params: { id: old },
        token: operator.token,
        body: {
          replacedAt: '2026-03-10T12:00:00+02:00',
          finalReading: 40,
          newDeviceCode: 'REPL-NEW',
          initialReading: 0,
        },
      });
      expect(replaced.status, JSON.stringify(replaced.body)).toBe(201);
      const successor = replaced.body.New.DeviceId as number;
      const res = await post(
        ndjson([
          { _: 'telegram', meter: 'multical21', id: 'REPL-NEW', total_m3: 1.25, timestamp: '2026-03-20T08:00:00Z' },
          // A telegram the old meter sent before it was taken out, delivered late.
          { _: 'telegram', meter: 'multical21', id: 'REPL-OLD', total_m3: 39.5, timestamp: '2026-03-09T08:00:00Z' },
        ]),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ Stored: 2, Unmatched: 0, Rejected: [] });
      const values = async (device: number) =>
        (
          await t.db.query<{ ts: string; value: string }>(
            'SELECT iso(ts) AS ts, value::text FROM reading WHERE device_id = $1 ORDER BY ts',
            [device],
          )
        ).rows.map((r) => [r.ts, Number(r.value)]);
      expect(await values(old)).toEqual([
        ['2026-03-09T10:00:00+02:00', 39.5],
        ['2026-03-10T12:00:00+02:00', 40],
      ]);
      expect(await values(successor)).toEqual([
        ['2026-03-10T12:00:00+02:00', 0],
        ['2026-03-20T10:00:00+02:00', 1.25],
      ]);
    });
  });

  describe('readings screen and device list', () => {
    it('show the latest status flags, set-day value and when the device last reported', async () => {
      const res = await inject(t.app, contract.getDevicesData, {
        query: { dateFrom: '2026-01-01', dateTill: '2026-01-31', deviceTypeId: DEVICE_TYPE.allocator },
        token: operator.token,
      });
      expect(res.status).toBe(200);
      const hcae2 = res.body.find((r: { DeviceCode: string }) => r.DeviceCode === '54423117');
      expect(hcae2).toMatchObject({
        StatusFlags: ['ALARM', 'OPEN_C', 'PERMANENT_ERROR', 'SENSOR_BREAK', 'UNEXPECTED_RST'],
        SetDate: '2026-04-30',
        SetValue: 0,
        UnitsForHCATill: 0,
      });
      const qcaloric = res.body.find((r: { DeviceCode: string }) => r.DeviceCode === '78563412');
      expect(qcaloric).toMatchObject({ StatusFlags: [], SetDate: '2018-12-31', SetValue: 145 });
      const devices = await inject(t.app, contract.getDeviceDataByUserId, { token: operator.token });
      const row = devices.body.find((d: { DeviceCode: string }) => d.DeviceCode === '78563412');
      expect(row!.LastSeen).toBe('2026-01-10T10:00:00+02:00');
      const silent = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'SILENT-1' });
      const again = await inject(t.app, contract.getDeviceDataByUserId, { token: operator.token });
      expect(again.body.find((d: { DeviceId: number }) => d.DeviceId === silent)!.LastSeen).toBeNull();
    });
  });

  it('kept device_status.last_seen on every insert path: LastSeen is the latest reading or telegram', async () => {
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_status');
    expect(rows[0]!.n).toBeGreaterThan(0);
    expect(await lastSeenMismatches(t.db)).toEqual([]);
  });
});
