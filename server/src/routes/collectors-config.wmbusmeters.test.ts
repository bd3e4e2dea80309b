import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import {
  type CollectorConfig,
  createCollectorKey,
  DEVICE_TYPE,
  type DeviceTypeId,
  GROUP,
  importMeterKeys,
  setCollectorLocations,
} from '@rodmenys/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_DRIVERS, MODEL_DRIVERS } from '../services/collectors/drivers.js';
import { inject, useApp } from '../test/app.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn } from '../test/factories.js';

/**
 * The opt-in wmbusmeters lane (`npm run test:wmbusmeters -w server`, docs/collectors.md): the
 * configuration a collector downloads, read by the real wmbusmeters (built from source by
 * scripts/wmbusmeters.mjs), which decodes the real telegrams with the keys and drivers we wrote
 * and posts every one through our `shell=` hook (real curl) to this server listening on a port.
 */
const WMBUSMETERS = process.env.WMBUSMETERS ?? '';
const run = promisify(execFile);

interface Sample {
  meter_type: 'hca' | 'heat' | 'water';
  driver: string;
  wmbusmeters_driver_arg: string;
  configured_id: string;
  telegram_hex: string;
  key: string;
  expected_json: Record<string, unknown>;
}
/**
 * An Apator NA-1 water meter, from wmbusmeters' own test vectors (the "cluster 3 recovery" telegram of its
 * apatorna1 tests): no model of ours names its driver, so its meter file must say `driver=auto`; the
 * driver guessed from its manufacturer APA (apator162) decodes this telegram into no value at all.
 */
const APATOR_NA1: Sample = {
  meter_type: 'water',
  driver: 'apatorna1',
  wmbusmeters_driver_arg: 'apatorna1',
  configured_id: '04913581',
  telegram_hex: '1C440106813591041407A0130197DAF2A1C02F9B77B14ACD51CB20C41E',
  key: '00000000000000000000000000000000',
  expected_json: {
    _: 'telegram',
    media: 'water',
    meter: 'apatorna1',
    id: '04913581',
    historic_m3: 662.325,
    historic_datetime: '2024-09-30 21:20',
    historic_age_h: 473,
    meter_datetime: '2024-10-20 14:20',
    total_m3: 696.576,
    current_status: 'OK',
    frame_status: 'SUMMER_TIME',
    historic_status: 'MINIMUM_FLOW',
  },
};
const SAMPLES = [
  ...readFileSync(new URL('../services/ingest/testdata/wmbusmeters-samples.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Sample),
  APATOR_NA1,
];
const TYPE_OF: Record<Sample['meter_type'], DeviceTypeId> = {
  hca: DEVICE_TYPE.allocator,
  heat: DEVICE_TYPE.heatMeter,
  water: DEVICE_TYPE.coldWaterMeter,
};

/** The model whose driver decodes the sample as its test vector says, if our table has one. */
const modelFor = (s: Sample) =>
  Object.entries(MODEL_DRIVERS).find(([, d]) => d === s.wmbusmeters_driver_arg || d === s.driver)?.[0];

/** The manufacturer's three letters from the telegram's M-field (bytes 2 and 3, little-endian). */
function manufacturer(hex: string): string {
  const m = Number.parseInt(hex.slice(4, 6), 16) | (Number.parseInt(hex.slice(6, 8), 16) << 8);
  return [10, 5, 0].map((shift) => String.fromCharCode(((m >> shift) & 31) + 64)).join('');
}

/** What the vector says wmbusmeters prints, without what differs by design: its name and reception time. */
const decoded = (json: Record<string, unknown>) => {
  const { name: _name, timestamp: _timestamp, ...rest } = json;
  return rest;
};

describe('the collector configuration, read by the real wmbusmeters', () => {
  const t = useApp();
  let base: string;
  let collector: { id: number; key: string };
  let files: CollectorConfig['Files'];
  const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-wmbusmeters-'));
  const device = new Map<string, number>();

  beforeAll(async () => {
    expect(WMBUSMETERS, 'WMBUSMETERS names the binary (npm run test:wmbusmeters sets it)').not.toBe('');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    const building = await makeBuilding(t.db, { city: 'Klaipėda', street: 'Tiltų g.', number: '1' });
    const flat = await makeFlat(t.db, building);
    for (const s of SAMPLES) {
      const id = await makeDevice(t.db, flat, { code: s.configured_id, typeId: TYPE_OF[s.meter_type] });
      await t.db.query('UPDATE device SET model = $2 WHERE id = $1', [id, modelFor(s) ?? null]);
      device.set(s.configured_id, id);
    }
    // Old rows whose serials carry a line into the meter file (written straight into the database,
    // as the API and the register refuse them): each is a real sample's id followed by a command.
    for (const [i, brk] of ['\n', '\r', '\r\n', '\u2028', '\u0085'].entries()) {
      const s = SAMPLES[i]!;
      await makeDevice(t.db, flat, {
        code: `${s.configured_id}${brk}shell=touch ${path.join(dir, `INJECTED-${i}`)}`,
        typeId: TYPE_OF[s.meter_type],
      });
    }
    const keyed = SAMPLES.filter((s) => s.key !== 'NOKEY');
    expect(keyed.length).toBeGreaterThan(0);
    const imported = await inject(t.app, importMeterKeys, {
      token: operator.token,
      query: { apply: true },
      payload: keyed.map((s) => `${manufacturer(s.telegram_hex)};${s.configured_id};${s.key}`).join('\n'),
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.body).toMatchObject({ Applied: true, New: keyed.length });
    const created = await inject(t.app, createCollectorKey, { token: operator.token, body: { name: 'Tiltų 1' } });
    collector = { id: created.body.Id, key: created.body.Key };
    const assigned = await inject(t.app, setCollectorLocations, {
      token: operator.token,
      params: { id: collector.id },
      body: { locationIds: [building.id] },
    });
    expect(assigned.status).toBe(200);
    // Downloaded as a collector does: over HTTP with its own key.
    const res = await fetch(`${base}/api/collectors/config`, { headers: { 'X-Collector-Key': collector.key } });
    expect(res.status).toBe(200);
    files = ((await res.json()) as CollectorConfig).Files;
    for (const f of files) {
      mkdirSync(path.dirname(path.join(dir, f.Path)), { recursive: true });
      writeFileSync(path.join(dir, f.Path), f.Content);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('knows every driver name our model table writes', async () => {
    const { stdout } = await run(WMBUSMETERS, ['--listdrivers']);
    const listed = new Set(stdout.split(/\s+/).filter(Boolean));
    expect(listed.size).toBeGreaterThan(100);
    expect([...KNOWN_DRIVERS].filter((d) => !listed.has(d))).toEqual([]);
  });

  it('decodes every real telegram with our meter files and posts it through our shell= hook', async () => {
    expect(files.filter((f) => f.Path.startsWith('wmbusmeters.d/'))).toHaveLength(SAMPLES.length);
    const simulation = path.join(dir, 'simulation_samples.txt');
    writeFileSync(simulation, SAMPLES.map((s) => `telegram=|${s.telegram_hex}|\n`).join(''));
    const { stdout, stderr } = await run(WMBUSMETERS, [`--useconfig=${dir}`, `--overridedevice=${simulation}`], {
      timeout: 120_000,
    });
    // Every meter's telegram stored as wmbusmeters printed it; the hook may still be running at exit.
    const deadline = Date.now() + 60_000;
    let rows: { device_id: number; raw: Record<string, unknown> }[] = [];
    while (Date.now() < deadline) {
      rows = (
        await t.db.query<{ device_id: number; raw: Record<string, unknown> }>('SELECT device_id, raw FROM telegram')
      ).rows;
      if (rows.length >= SAMPLES.length) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const got = new Map(rows.map((r) => [r.device_id, r.raw]));
    const wrong = SAMPLES.filter((s) => {
      const raw = got.get(device.get(s.configured_id)!);
      return !raw || !isDeepStrictEqual(decoded(raw), decoded(s.expected_json));
    }).map((s) => ({ id: s.configured_id, driver: s.driver, got: got.get(device.get(s.configured_id)!) }));
    expect(wrong, `wmbusmeters printed:\n${stdout}\n${stderr}`).toEqual([]);
    // The meter no model names is written with driver=auto, and wmbusmeters found its driver itself.
    const na1 = files.find((f) => f.Content.includes(`id=${APATOR_NA1.configured_id}`))!.Content;
    expect(na1).toMatch(/^driver=auto$/m);
    expect(got.get(device.get(APATOR_NA1.configured_id)!)).toMatchObject({ meter: 'apatorna1', total_m3: 696.576 });
    for (const r of rows) expect(r.raw.name).toBe(`m_${[...device].find(([, id]) => id === r.device_id)![0]}`);
    // The hostile serials wrote no line: wmbusmeters ran no command of theirs on their telegrams.
    expect(files.some((f) => f.Content.includes('INJECTED'))).toBe(false);
    for (let i = 0; i < 5; i++) expect(existsSync(path.join(dir, `INJECTED-${i}`))).toBe(false);
  });

  it('posts an alarm through our alarmshell= line', async () => {
    const conf = files.find((f) => f.Path === 'wmbusmeters.conf')!.Content;
    const line = /^alarmshell=(.*)$/m.exec(conf)![1]!;
    await run('sh', ['-c', line], {
      env: { ...process.env, ALARM_TYPE: 'device_failure', ALARM_MESSAGE: "dongle stalled; can't read /dev/ttyUSB0" },
    });
    const { rows } = await t.db.query<{ collector_id: number; alarm_type: string; message: string }>(
      'SELECT collector_id, alarm_type, message FROM collector_event',
    );
    expect(rows).toEqual([
      { collector_id: collector.id, alarm_type: 'device_failure', message: "dongle stalled; can't read /dev/ttyUSB0" },
    ]);
  });
});
