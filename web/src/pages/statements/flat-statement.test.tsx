import {
  type FlatStatement,
  GROUP,
  getFlatStatement,
  getOccupancyStatements,
  type OccupancyStatement,
  type StatementBuildingLine,
} from '@rodmenys/contract';
import { cleanup, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { figure, kindFigures, signIn, statementRow } from '../../test/fixtures';
import { render } from '../../test/render';
import { FlatStatementDrawer } from './flat-statement';

const MONTH = '2026-10';

/** Flat 1's statement: allocators sharing E of a building meter, flat 4 with its own heat meter. */
function statement(
  method: 'buildingMeterByQrad' | 'noAllocatorConsumption',
  line: StatementBuildingLine,
): FlatStatement {
  return {
    Month: MONTH,
    Row: statementRow({
      FlatId: 7,
      Flat: '1',
      Kinds: [
        kindFigures({
          Kind: 'heating',
          Unit: 'kWh',
          Current: figure(method === 'noAllocatorConsumption' ? 0 : 854.7),
          LastYear: figure(639.989),
          LastYearCorrected: 552.162,
          Units: 121.803,
          Qrad: 140.073,
          KwhMethod: method,
          BuildingKwh: line.MeterKwh,
          BuildingLine: line,
        }),
      ],
    }),
    History: [],
    DegreeDays: { Current: 302.4, LastYear: 350.5 },
  };
}

const SHARED: StatementBuildingLine = {
  MeterKwh: 13_125.309,
  Subtracted: [{ FlatId: 9, Flat: '4', Kwh: 269.175 }],
  SubtractedKwh: 269.175,
  AllocatorKwh: 12_856.134,
  SharedKwh: 12_856.134,
  UnsharedKwh: 0,
};

async function show(s: FlatStatement, language: 'lt' | 'en', occupancies: OccupancyStatement[] = []) {
  signIn(GROUP.user);
  // Without occupancies recorded the statement has no per-occupant part.
  const api = stubApi([
    route(getFlatStatement, s),
    route(getOccupancyStatements, { Month: MONTH, FlatId: 7, Occupancies: occupancies }),
  ]);
  await render(<FlatStatementDrawer flatId={7} month={MONTH} onClose={() => {}} />, { language });
  await screen.findByText(/^(Pastato šilumos skaitiklis|Building heat meter)/);
  expect(api.unanswered).toEqual([]);
  return document.body.textContent ?? '';
}

describe("a flat's statement", { timeout: 30_000 }, () => {
  it('shows the building line (meter, subtracted flats, E) and the degree-days in Lithuanian numbers', async () => {
    const text = await show(statement('buildingMeterByQrad', SHARED), 'lt');
    expect(text).toMatch(
      /Pastato šilumos skaitiklis 13\s125,309 kWh − butai su savo šilumos skaitikliais 269,175 kWh \(butas 4: 269,175\) = E 12\s856,134 kWh\./,
    );
    expect(text).toMatch(/likusi butams su dalikliais \(E = 12\s856,134 kWh\), padalyta jiems pagal jų Qrad/);
    expect(text).toContain('Dienolaipsniai: šį mėnesį 302,4, pernai 350,5');
  });

  it('shows the same in English', async () => {
    const text = await show(statement('buildingMeterByQrad', SHARED), 'en');
    expect(text).toContain(
      'Building heat meter 13,125.309 kWh − flats with their own heat meter 269.175 kWh (flat 4: 269.175) = E 12,856.134 kWh.',
    );
    expect(text).toContain('(E = 12,856.134 kWh), shared among them by their Qrad.');
    expect(text).toContain('Degree-days: 302.4 this month, 350.5 a year before');
  });

  it('says that the energy was not shared when the allocators counted nothing', async () => {
    const line = { ...SHARED, SharedKwh: 0, UnsharedKwh: 12_856.134 };
    expect(await show(statement('noAllocatorConsumption', line), 'en')).toContain(
      "0 kWh: the building's allocators counted nothing this month (ΣQrad = 0); E = 12,856.134 kWh was not shared.",
    );
    expect(await show(statement('noAllocatorConsumption', line), 'lt')).toMatch(
      /0 kWh: pastato dalikliai šį mėnesį nieko nesuskaičiavo \(ΣQrad = 0\); E = 12\s856,134 kWh nepadalyta\./,
    );
  });

  it('lists the occupants of the month: the one there all month, or each with their days and figures', async () => {
    const occupant = (id: number, name: string, code: string, from: string, till: string, days: number) => ({
      OccupancyId: id,
      ClientCode: code,
      Name: name,
      From: from,
      Till: till,
      Days: days,
      Kinds: [
        {
          Kind: 'heating' as const,
          Unit: 'kWh' as const,
          Current: figure(days * 10),
          Previous: null,
          PreviousMissing: 'otherOccupancy' as const,
          LastYear: null,
          LastYearMissing: 'otherOccupancy' as const,
          BuildingAverage: null,
          Units: null,
          Qrad: null,
          Overdue: [],
          LateDeclarations: [],
          HeatParts: null,
        },
      ],
    });
    const one = [occupant(1, 'Ona Likusioji', 'STAY-1', '2026-10-01', '2026-10-31', 31)];
    await show(statement('buildingMeterByQrad', SHARED), 'en', one);
    expect(await screen.findByText('Occupant: Ona Likusioji (account STAY-1), the whole month (31 days)')).toBeTruthy();
    cleanup();
    const two = [
      occupant(1, 'Petras Senasis', 'OLD-1', '2026-10-01', '2026-10-14', 14),
      occupant(2, 'Aistė Naujoji', 'NEW-1', '2026-10-15', '2026-10-31', 17),
    ];
    await show(statement('buildingMeterByQrad', SHARED), 'lt', two);
    await screen.findByText(/Aistė Naujoji/);
    const text = document.body.textContent ?? '';
    expect(text).toContain('Pagal gyventojus');
    expect(text).toContain('Petras Senasis (OLD-1): 2026-10-01 – 2026-10-14, 14 d.');
    expect(text).toContain('Aistė Naujoji (NEW-1): 2026-10-15 – 2026-10-31, 17 d.');
    expect(text).not.toContain('visą mėnesį');
  });
});
