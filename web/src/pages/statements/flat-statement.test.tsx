import {
  type FlatStatement,
  GROUP,
  getFlatStatement,
  getOccupancyStatements,
  type StatementBuildingLine,
} from '@rodmenys/contract';
import { screen } from '@testing-library/react';
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

async function show(s: FlatStatement, language: 'lt' | 'en') {
  signIn(GROUP.user);
  // A flat without occupancies recorded: the statement has no per-occupant part.
  const api = stubApi([
    route(getFlatStatement, s),
    route(getOccupancyStatements, { Month: MONTH, FlatId: 7, Occupancies: [] }),
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
});
