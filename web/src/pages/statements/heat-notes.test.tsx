import {
  type FlatStatement,
  GROUP,
  getFlatStatement,
  getOccupancyStatements,
  type StatementHeatParameters,
} from '@rodmenys/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { EXAMPLE_PARAMETERS, figure, kindFigures, signIn, statementRow } from '../../test/fixtures';
import { render } from '../../test/render';
import { FlatStatementDrawer } from './flat-statement';

const MONTH = '2026-10';

/** Flat 2 of docs/heat-method.md's worked example: raised to the minimum. */
const STATEMENT: FlatStatement = {
  Month: MONTH,
  Row: statementRow({
    FlatId: 7,
    Flat: '2',
    Kinds: [
      kindFigures({
        Kind: 'heating',
        Unit: 'kWh',
        Current: figure(706.002),
        Units: 35,
        Qrad: 35,
        KwhMethod: 'heatMethod',
        BuildingKwh: 9870.5,
        HeatBalance: {
          Method: 'norm',
          ValidFrom: '2026-10',
          Status: 'split',
          Reason: null,
          InputKwh: 9870.5,
          HotWaterKwh: 938.4,
          CirculationKwh: 1251.682,
          CommonKwh: 384.021,
          NoDeviceKwh: 1185.335,
          HeatMeterKwh: 820,
          BaseKwh: 1587.319,
          ConsumptionKwh: 3703.743,
          HotWaterM3: 18.4,
          HotWaterLossesM3: 1.4,
          Parameters: EXAMPLE_PARAMETERS,
        },
        HeatParts: {
          Consumption: 106.516,
          Base: 450.996,
          Common: 67.238,
          NoDevice: 0,
          HeatMeter: 0,
          Assigned: 81.252,
          Space: 706.002,
          HotWater: 132.48,
          Circulation: 241.562,
          Total: 1080.044,
        },
      }),
    ],
  }),
  History: [],
  DegreeDays: null,
};

/** The statement with its heating balance's parameters replaced (null: a publication made before they were frozen). */
const withParameters = (p: StatementHeatParameters | null): FlatStatement => ({
  ...STATEMENT,
  Row: {
    ...STATEMENT.Row,
    Kinds: STATEMENT.Row.Kinds.map((k) => ({
      ...k,
      HeatBalance: k.HeatBalance && { ...k.HeatBalance, Parameters: p },
    })),
  },
});

async function show(language: 'lt' | 'en', statement = STATEMENT) {
  signIn(GROUP.user);
  stubApi([
    route(getFlatStatement, statement),
    route(getOccupancyStatements, { Month: MONTH, FlatId: 7, Occupancies: [] }),
  ]);
  await render(<FlatStatementDrawer flatId={7} month={MONTH} onClose={() => {}} />, { language });
  await screen.findByText(/^(Pastato balansas|Building balance)/);
  return document.body.textContent ?? '';
}

describe("a flat's statement by its building's heat method", { timeout: 30_000 }, () => {
  it("draws the building's balance and the flat's parts as two bars, every part named with its value, in English", async () => {
    const text = await show('en');
    // The building's input: one bar of seven parts, its legend a list a screen reader reads.
    const building = screen.getByRole('figure', {
      name: 'Building balance (method norm from 2026-10): input 9,870.5 kWh, the whole bar',
    });
    expect(
      within(building)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '1hot water 938.4 kWh (9.5 %)',
      '2circulation 1,251.682 kWh (12.7 %)',
      '3common areas 384.021 kWh (3.9 %)',
      '4flats without a device 1,185.335 kWh (12 %)',
      '5flat heat meters 820 kWh (8.3 %)',
      '6base part 1,587.319 kWh (16.1 %)',
      '7by consumption 3,703.743 kWh (37.5 %)',
    ]);
    // The drawn segments: as wide as their shares, numbered where there is room, hidden from a screen reader.
    const track = building.querySelector('.split-bar-track')!;
    expect(track.getAttribute('aria-hidden')).toBe('true');
    const segments = [...track.querySelectorAll<HTMLElement>('.split-bar-part')];
    expect(segments.map((s) => [s.dataset.part, Number(s.style.flexGrow).toFixed(4)])).toEqual([
      ['hotWater', (938.4 / 9870.5).toFixed(4)],
      ['circulation', (1251.682 / 9870.5).toFixed(4)],
      ['common', (384.021 / 9870.5).toFixed(4)],
      ['noDevice', (1185.335 / 9870.5).toFixed(4)],
      ['heatMeter', (820 / 9870.5).toFixed(4)],
      ['base', (1587.319 / 9870.5).toFixed(4)],
      ['consumption', (3703.743 / 9870.5).toFixed(4)],
    ]);
    expect(segments.map((s) => s.textContent)).toEqual(['1', '2', '', '4', '5', '6', '7']);
    // The flat's own heat beside it: its parts (none of those it has 0 of), the same numbers for the same parts.
    const flat = screen.getByRole('figure', {
      name: "Your flat: 1,080.044 kWh of heat in all, the whole bar (10.9 % of the building's input)",
    });
    expect(
      within(flat)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '1hot-water heat 132.48 kWh (12.3 %)',
      '2circulation 241.562 kWh (22.4 %)',
      '3common areas 67.238 kWh (6.2 %)',
      '6base 450.996 kWh (41.8 %)',
      '7by consumption 106.516 kWh (9.9 %)',
      '8assigned (minimum) 81.252 kWh (7.5 %)',
    ]);
    expect(text).toContain('Each bar is a whole of its own');
    expect(text).toContain('Hot water: 18.4 m³ in the building, losses 1.4 m³.');
    // The parameters that produced the figures (frozen with a publication), the flat's own last.
    expect(text).toContain(
      'Parameters of the version from 2026-10: q 51 kWh/m³ · circulation 80 kWh per flat · season 2026-10-15 – … · ' +
        'common 5 % · base 30 % · k_min 0.5 · this flat: position factor 1, circulation by the norm.',
    );
  });

  it("names a flat's own position factor and circulation class", async () => {
    const text = await show(
      'en',
      withParameters({ ...EXAMPLE_PARAMETERS, PositionFactor: 1.2, CirculationClass: 160 }),
    );
    expect(text).toContain('this flat: position factor 1.2, circulation 160 kWh.');
  });

  it('a publication made before the parameters were frozen shows its figures without them', async () => {
    const text = await show('en', withParameters(null));
    expect(text).toContain('Building balance (method norm from 2026-10)');
    expect(text).not.toContain('Parameters of the version');
  });

  it('names the method in the language, never by its code (lt: a hot-water meter)', async () => {
    const meter: FlatStatement = {
      ...STATEMENT,
      Row: {
        ...STATEMENT.Row,
        Kinds: STATEMENT.Row.Kinds.map((k) => ({
          ...k,
          HeatBalance: k.HeatBalance && { ...k.HeatBalance, Method: 'meter' },
        })),
      },
    };
    const text = await show('lt', meter);
    expect(text).toContain('Pastato balansas (metodas karšto vandens skaitiklis nuo 2026-10)');
    expect(text).not.toMatch(/metodas meter/);
  });

  it('and in Lithuanian', async () => {
    const text = await show('lt');
    const building = screen.getByRole('figure', {
      name: /^Pastato balansas \(metodas norma nuo 2026-10\): įvadas 9\s870,5 kWh – visa juosta$/,
    });
    const items = within(building).getAllByRole('listitem');
    expect(items).toHaveLength(7);
    expect(items[0]!.textContent).toBe('1karštas vanduo 938,4 kWh (9,5 %)');
    expect(items[6]!.textContent).toMatch(/^7pagal suvartojimą 3\s703,743 kWh \(37,5 %\)$/);
    const flat = screen.getByRole('figure', {
      name: /^Jūsų butas: iš viso 1\s080,044 kWh šilumos – visa juosta \(10,9 % pastato įvado\)$/,
    });
    expect(within(flat).getAllByRole('listitem')[3]!.textContent).toBe('6bazinė 450,996 kWh (41,8 %)');
    expect(text).toContain(
      'Versijos nuo 2026-10 parametrai: q 51 kWh/m³ · cirkuliacija 80 kWh butui · sezonas 2026-10-15 – … · ' +
        'bendrosios 5 % · bazinė 30 % · k_min 0,5 · šis butas: padėties koeficientas 1, cirkuliacija pagal normą.',
    );
  });
});
