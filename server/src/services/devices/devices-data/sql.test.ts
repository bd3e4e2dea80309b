import { DEVICE_TYPE, DeviceRow, getDevicesData, type ReadingRow } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeOccupancy, makeReadings } from '../../../test/factories.js';
import { asciiJson } from './device-text-cache.js';
import { DEVICE_ROW_FIELDS, KEPT_FIELDS, READING_ROW_FIELDS, ROWS, type RowField, splitRow } from './fields.js';
import { DevicesDataCaches, devicesDataStatements, getDevicesDataJson, withClientCode } from './index.js';
import { printable } from './sql.js';

describe('the field list of a row', () => {
  const readingRow = getDevicesData.response.items;

  it('is the contract order of ReadingRow, and its start is DeviceRow', () => {
    expect(READING_ROW_FIELDS.map((f) => f.name)).toEqual(Object.keys(readingRow.properties));
    expect(DEVICE_ROW_FIELDS.map((f) => f.name)).toEqual(Object.keys(DeviceRow.properties));
  });

  it('splits each computation into the kept head and the computed tail', () => {
    expect(KEPT_FIELDS.map((f) => f.name).at(-1)).toBe('Replaces');
    // withClientCode (index.ts) finds ClientCode's value up to the next key.
    const names = KEPT_FIELDS.map((f) => f.name);
    expect(names[names.indexOf('ClientCode') + 1]).toBe('DeviceCode');
    for (const [proc, { head, tail }] of Object.entries(ROWS)) {
      expect(head, proc).toEqual(KEPT_FIELDS);
      expect(tail[0]!.name, proc).toBe('LastSeen');
      expect(
        tail.every((f) => f.source === 'computed' && (!f.procs || f.procs.includes(proc as never))),
        proc,
      ).toBe(true);
    }
    expect(ROWS.volume.tail.map((f) => f.name)).toContain('VolumeFrom');
    expect(ROWS.volume.tail.map((f) => f.name)).not.toContain('EnergyFrom');
  });

  it('refuses a kept field after a computed one', () => {
    const late: RowField = { name: 'DeviceCode', sql: 'd.device_code', kind: 'string', source: 'kept' };
    expect(() => splitRow([...READING_ROW_FIELDS, late], 'energy')).toThrow('kept field DeviceCode after');
  });
});

// The statements printed for a request (cli/readings-sql.ts) are the ones the service runs: run as printed,
// they give the same answer, byte for byte.
describe(`the printed statements of GetDevicesData (${dbKind()})`, () => {
  const t = useDb();
  const buildings: number[] = [];
  const input = (parts?: number) => ({
    deviceTypeId: DEVICE_TYPE.allocator,
    range: { from: '2026-02-01', till: '2026-02-28' },
    scope: null,
    parents: buildings,
    timeZone: 'Europe/Vilnius',
    now: new Date('2026-03-15T00:00:00Z'),
    ...(parts ? { parts } : {}),
  });

  beforeAll(async () => {
    for (const number of ['3', '5']) {
      const building = await makeBuilding(t.db, { city: 'Panevėžys', street: "O'Brien g.", number });
      buildings.push(building.id);
      const flat = await makeFlat(t.db, building, { name: '1', order: 1 });
      // An occupant since the 10th, whose account the rows of building 5 carry (the accounts statement).
      if (number === '5') await makeOccupancy(t.db, flat, { clientCode: 'SQL-OCC-5', moveIn: '2026-02-10' });
      for (const code of ['A', 'B']) {
        const id = await makeDevice(t.db, flat, {
          typeId: DEVICE_TYPE.allocator,
          code: `SQL-${number}-${code}`,
          ratingFactor: 1.5,
        });
        await makeReadings(t.db, id, [
          ['2026-01-31T20:00:00+02:00', 10],
          ['2026-02-27T20:00:00+02:00', code === 'A' ? 14.5 : 9],
        ]);
      }
    }
  });

  /** Runs the printed text of each statement and joins the rows as the service does. */
  const runPrinted = async (parts?: number) => {
    const statements = await devicesDataStatements(t.db, input(parts));
    const texts = statements.map(printable);
    for (const text of texts) expect(text).not.toMatch(/\$\d/);
    const results = [];
    for (const text of texts) results.push((await t.db.query<Record<string, unknown>>(text)).rows);
    const accounts = new Map(results.at(-1)!.map((r) => [r.id as number, r.code as string]));
    const heads = new Map(
      results
        .at(-2)!
        .map((r) => [
          r.id as number,
          withClientCode(Buffer.from(asciiJson(r.text as string), 'latin1'), accounts.get(r.id as number)).toString(),
        ]),
    );
    const rows = results.slice(1, -2).flat();
    return {
      names: statements.map((s) => s.name),
      json: `[${rows.map((r) => heads.get(r.id as number)! + (r.tail as string)).join(',')}]`,
    };
  };

  it('are the plan, each part, the kept texts and the accounts, and answer what the service answers', async () => {
    const served = (await getDevicesDataJson(t.db, input(), new DevicesDataCaches())).json.toString();
    expect((JSON.parse(served) as ReadingRow[]).map((r) => r.DeviceCode)).toEqual([
      'SQL-3-A',
      'SQL-3-B',
      'SQL-5-A',
      'SQL-5-B',
    ]);
    expect((JSON.parse(served) as ReadingRow[]).map((r) => r.ClientCode)).toEqual([
      null,
      null,
      'SQL-OCC-5',
      'SQL-OCC-5',
    ]);
    const one = await runPrinted();
    expect(one.names).toEqual(['plan', 'part 1', 'texts', 'accounts']);
    expect(one.json).toBe(served);
    const two = await runPrinted(2);
    expect(two.names).toEqual(['plan', 'part 1', 'part 2', 'texts', 'accounts']);
    expect(two.json).toBe(served);
  });

  it('are only the plan for an empty selection', async () => {
    const statements = await devicesDataStatements(t.db, { ...input(), deviceTypeId: DEVICE_TYPE.coldWaterMeter });
    expect(statements.map((s) => s.name)).toEqual(['plan']);
    expect(printable(statements[0]!)).toContain("'Europe/Vilnius'");
  });
});
