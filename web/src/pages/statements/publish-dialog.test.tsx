import { getStatementDifference } from '@rodmenys/contract';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { statementRow } from '../../test/fixtures';
import { render } from '../../test/render';
import { PublishDialog } from './publish-dialog';

const change = { FlatId: 7, BuildingId: 100, Address: 'Vilnius, Architektų g. 3, 1', Kind: 'coldWater' as const };

describe('PublishDialog', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists an occupant’s changed figure with their account and days, beside the flat’s', async () => {
    stubApi([
      route(getStatementDifference, {
        Published: 1,
        Changes: [
          { ...change, Field: 'Current', Published: 25.5, Live: 27 },
          {
            ...change,
            Field: 'Current',
            Published: 15.25,
            Live: 16.75,
            Occupancy: { OccupancyId: 3, ClientCode: 'NEW-7', From: '2026-03-15', Till: '2026-03-31' },
          },
        ],
        ParameterChanges: [],
      }),
    ]);
    await render(
      <PublishDialog
        month="2026-03"
        locations={[]}
        rows={[statementRow({ FlatId: 7, Flat: '1' })]}
        onClose={() => {}}
      />,
      {
        language: 'en',
      },
    );
    expect(
      await screen.findByText('Vilnius, Architektų g. 3, 1 · occupant NEW-7, 2026-03-15 – 2026-03-31'),
    ).toBeTruthy();
    expect(screen.getByText('Vilnius, Architektų g. 3, 1')).toBeTruthy();
  });

  it("names the part of a flat's heat that changed, in Lithuanian", async () => {
    stubApi([
      route(getStatementDifference, {
        Published: 1,
        Changes: [
          { ...change, Kind: 'heating', Field: 'Current', Published: 706.002, Live: 650.5 },
          { ...change, Kind: 'heating', Field: 'Current', Part: 'Base', Published: 450.996, Live: 0 },
          { ...change, Kind: 'heating', Field: 'Current', Part: 'Circulation', Published: 285.433, Live: 241.563 },
        ],
        ParameterChanges: [],
      }),
    ]);
    await render(
      <PublishDialog
        month="2026-10"
        locations={[]}
        rows={[statementRow({ FlatId: 7, Flat: '1' })]}
        onClose={() => {}}
      />,
    );
    expect(await screen.findByText('Šis mėnuo: bazinė, kWh')).toBeTruthy();
    expect(screen.getByText('Šis mėnuo: cirkuliacija, kWh')).toBeTruthy();
    // The figure itself keeps its plain name.
    expect(screen.getByText('Šis mėnuo')).toBeTruthy();
  });

  const parameter = { BuildingId: 100, FlatId: null, Address: 'Vilnius, Architektų g. 3' };

  it.each([
    [
      'en',
      [
        'Vilnius, Architektų g. 3: common-areas share 20 % → 25 %',
        'Vilnius, Architektų g. 3: heating season 2026-10-15 – … → 2026-10-01 – 2027-04-30',
        'Vilnius, Architektų g. 3, 1: circulation class 160 kWh → by the norm',
        'Vilnius, Architektų g. 3: method Norm: q × m³, circulation by norm → Hot-water heat meter',
      ],
    ],
    [
      'lt',
      [
        'Vilnius, Architektų g. 3: bendrųjų patalpų dalis 20 % → 25 %',
        'Vilnius, Architektų g. 3: šildymo sezonas 2026-10-15 – … → 2026-10-01 – 2027-04-30',
        'Vilnius, Architektų g. 3, 1: cirkuliacijos klasė 160 kWh → pagal normą',
        'Vilnius, Architektų g. 3: metodas Norma: q × m³, cirkuliacija pagal normą → Karšto vandens šilumos skaitiklis',
      ],
    ],
  ] as const)(
    'names each parameter of the heat method that changed since the publication (%s)',
    async (language, lines) => {
      stubApi([
        route(getStatementDifference, {
          Published: 1,
          Changes: [],
          ParameterChanges: [
            { ...parameter, Parameter: 'CommonShare', Published: 0.2, Live: 0.25 },
            {
              ...parameter,
              Parameter: 'Seasons',
              Published: [{ From: '2026-10-15', To: null }],
              Live: [{ From: '2026-10-01', To: '2027-04-30' }],
            },
            {
              ...parameter,
              FlatId: 7,
              Address: 'Vilnius, Architektų g. 3, 1',
              Parameter: 'CirculationClass',
              Published: 160,
              Live: null,
            },
            { ...parameter, Parameter: 'Method', Published: 'norm', Live: 'meter' },
          ],
        }),
      ]);
      await render(
        <PublishDialog
          month="2026-10"
          locations={[]}
          rows={[statementRow({ FlatId: 7, Flat: '1' })]}
          onClose={() => {}}
        />,
        { language },
      );
      const list = await screen.findByTestId('parameter-changes');
      expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(lines);
      // A changed parameter alone is a change: no offer to republish the same figures.
      expect(screen.queryByRole('checkbox')).toBeNull();
    },
  );
});
