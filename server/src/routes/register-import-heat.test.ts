import type * as contract from '@rodmenys/contract';
import { GROUP, getBuildingHeatMethods, LOCATION_LEVEL } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeSignedIn } from '../test/factories.js';
import { type RegisterRow, registerCsv, registerReport } from '../test/register-file.js';

/* The register's heat-method columns (docs/master-data.md, "Heat method columns"). */

const row = (flat: string, code: string, extra: RegisterRow = {}): RegisterRow => ({
  Country: 'Lietuva',
  County: 'Šiaulių apskritis',
  Region: 'Šiaulių m. sav.',
  City: 'Šiauliai',
  Street: 'Vilniaus g.',
  Building: '12',
  Flat: flat,
  FlatOrder: flat,
  ObjectCode: 'OBJ-HEAT-12',
  ClientCode: `CLH-${flat}`,
  DeviceType: 'HCA',
  DeviceCode: code,
  RatingFactor: '1',
  InstalledAt: '2025-09-01',
  ...extra,
});

const csv = (rows: RegisterRow[], lang: 'lt' | 'en') => registerCsv(rows, { lang });

const METHOD: RegisterRow = {
  HeatMethodFrom: '2026-10',
  HeatMethod: 'norm',
  HeatKwhPerM3: '51',
  HeatCirculationNorm: '80',
  HeatingSeason: '2025-10-10..2026-04-30, 2026-10-15..',
  HeatCommonShare: '5',
  HeatBaseShare: '30',
  HeatMinimumShare: '0,4',
};

describe(`register import: heat-method columns (${dbKind()})`, () => {
  const t = useApp();
  let operator: string;

  beforeAll(async () => {
    operator = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
  }, 120_000);

  const send = (mode: 'preview' | 'apply', file: Buffer) => registerReport(t.app, operator, mode, file);

  it('refuses bad heat cells by line and column, as the API would, and writes nothing', async () => {
    const report = await send(
      'apply',
      csv(
        [
          row('1', 'HH-001', { ...METHOD, HeatCommonShare: '60' }),
          row('2', 'HH-002', { ...METHOD, HeatMethod: 'guess' }),
          row('3', 'HH-003', { ...METHOD, HeatingSeason: '2026-10-15..2026-11-30, 2026-11-01..' }),
          row('4', 'HH-004', { ...METHOD, HeatCirculationNorm: '' }),
          row('5', 'HH-005', { PositionFactor: '12' }),
          row('6', 'HH-006', { ...METHOD, HeatBaseShare: '20', HeatCommonShare: '5' }),
        ],
        'lt',
      ),
    );
    expect(report.Applied).toBe(false);
    expect(report.Errors.map((e) => [e.Line, e.Code, e.Params.column])).toEqual([
      [2, 'INVALID_NUMBER', 'HeatCommonShare'],
      [3, 'INVALID_CHOICE', 'HeatMethod'],
      [4, 'INVALID_SEASON', 'HeatingSeason'],
      [5, 'REQUIRED', 'HeatCirculationNorm'],
      [6, 'INVALID_NUMBER', 'PositionFactor'],
      // Line 7's method is the building's first good one: set, and line 6's factor belongs to it.
    ]);
    const methods = await t.db.query('SELECT 1 FROM building_heat_method');
    expect(methods.rows).toEqual([]);
  });

  it("writes the building's method from its month with its flats' parameters, audited; rows must agree", async () => {
    const conflict = await send(
      'preview',
      csv(
        [
          row('1', 'HH-101', { ...METHOD, PositionFactor: '1,2' }),
          row('1', 'HH-102', { PositionFactor: '1,3' }),
          row('2', 'HH-103', { ...METHOD, HeatBaseShare: '20' }),
        ],
        'en',
      ),
    );
    expect(conflict.Errors.map((e) => [e.Line, e.Code, e.Params.column, e.Params.line])).toEqual([
      [3, 'HEAT_METHOD_CONFLICT', 'PositionFactor', 2],
      [4, 'HEAT_METHOD_CONFLICT', 'HeatMethod', 2],
    ]);

    const good = [
      row('1', 'HH-101', { ...METHOD, PositionFactor: '1,2' }),
      row('1', 'HH-102', { PositionFactor: '1,2' }),
      row('2', 'HH-103', { CirculationClass: '160' }),
      row('3', 'HH-104'),
    ];
    const preview = await send('preview', csv(good, 'en'));
    expect(preview.Errors).toEqual([]);
    expect((await t.db.query('SELECT 1 FROM building_heat_method')).rows).toEqual([]);
    expect((await send('apply', csv(good, 'lt'))).Applied).toBe(true);

    const { rows: b } = await t.db.query<{ id: number }>(
      `SELECT id FROM location WHERE level = ${LOCATION_LEVEL.building} AND name = '12' ORDER BY id DESC LIMIT 1`,
    );
    const res = await inject(t.app, getBuildingHeatMethods, { token: operator, params: { id: b[0]!.id } });
    const { Flats, Versions } = res.body as contract.BuildingHeatMethods;
    const flatId = (name: string) => Flats.find((f) => f.Flat === name)!.FlatId;
    expect(Versions).toHaveLength(1);
    expect(Versions[0]).toMatchObject({
      ValidFrom: '2026-10',
      HotWaterHeat: 'norm',
      KwhPerM3: 51,
      CirculationNorm: 80,
      Seasons: [
        { From: '2025-10-10', To: '2026-04-30' },
        { From: '2026-10-15', To: null },
      ],
      CommonShare: 0.05,
      BaseShare: 0.3,
      MinimumShare: 0.4,
    });
    expect(Versions[0]!.Flats).toEqual(
      [
        { FlatId: flatId('1'), PositionFactor: 1.2, CirculationClass: null },
        { FlatId: flatId('2'), PositionFactor: 1, CirculationClass: 160 },
      ].sort((x, y) => x.FlatId - y.FlatId),
    );
    const audit = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_log WHERE kind = 'heatMethod.set' AND entity_id = $1",
      [`${b[0]!.id}|2026-10`],
    );
    expect(audit.rows[0]!.n).toBe(1);
  });

  it("a flat's parameters without its building's method are refused", async () => {
    const report = await send('preview', csv([row('1', 'HH-201', { CirculationClass: '80' })], 'en'));
    expect(report.Errors.map((e) => [e.Line, e.Code, e.Params.column])).toEqual([[2, 'REQUIRED', 'HeatMethodFrom']]);
  });
});
