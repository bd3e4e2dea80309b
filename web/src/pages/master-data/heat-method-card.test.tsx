import { type BuildingHeatMethods, GROUP, getBuildingHeatMethods, setBuildingHeatMethod } from '@rodmenys/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { signIn } from '../../test/fixtures';
import { render } from '../../test/render';
import { HeatMethodCard } from './heat-method-card';

const building = (versions: BuildingHeatMethods['Versions']): BuildingHeatMethods => ({
  BuildingId: 10,
  Path: 'Vilnius, Architektų g. 3',
  Flats: [
    { FlatId: 21, Flat: '1', AreaM2: 52 },
    { FlatId: 22, Flat: '2', AreaM2: 48.5 },
  ],
  Versions: versions,
});

const october = {
  ValidFrom: '2026-10',
  HotWaterHeat: 'norm' as const,
  KwhPerM3: 51,
  CirculationNorm: 80,
  HotWaterTemperature: 60,
  DistrictHeat: true,
  Seasons: [{ From: '2026-10-15', To: null }],
  CommonShare: 0.05,
  BaseShare: 0.3,
  MinimumShare: 0.5,
  Flats: [{ FlatId: 21, PositionFactor: 1.2, CirculationClass: null }],
  ChangedBy: 'admin',
  ChangedAt: '2026-10-02T10:00:00+03:00',
};

afterEach(() => vi.unstubAllGlobals());

// antd's first render under jsdom is slow on a busy machine.
describe('the heat method card', { timeout: 90_000 }, () => {
  it('says a building without a method keeps the plain rule (lt)', async () => {
    signIn(GROUP.operator);
    const api = stubApi([route(getBuildingHeatMethods, building([]))]);
    await render(<HeatMethodCard buildingId={10} canEdit />);
    expect(await screen.findByText(/Metodas nenustatytas: .*\(plainQrad\)/)).toBeTruthy();
    expect(api.unanswered).toEqual([]);
  });

  it("lists a version's parameters and saves an edit as the API takes it (en)", async () => {
    signIn(GROUP.operator);
    const api = stubApi([
      route(getBuildingHeatMethods, building([october])),
      route(setBuildingHeatMethod, building([october])),
    ]);
    await render(<HeatMethodCard buildingId={10} canEdit />, { language: 'en' });
    expect(
      await screen.findByText(
        'Norm: q × m³, circulation by norm · q 51 kWh/m³ · circulation 80 kWh per flat · season 2026-10-15 – … · ' +
          'common 5 % · base 30 % · k_min 0.5 · 1 flat with its own parameters',
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Edit the version from 2026-10' }));
    const common = await screen.findByLabelText('Common-areas share, %');
    expect((common as HTMLInputElement).value).toBe('5');
    expect((screen.getByLabelText('Position factor, flat 1') as HTMLInputElement).value).toBe('1.2');
    fireEvent.change(common, { target: { value: '10' } });
    fireEvent.change(screen.getByLabelText('Circulation class, flat 2'), { target: { value: '160' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.sent.some((r) => r.method === 'PUT')).toBe(true));
    const put = api.sent.find((r) => r.method === 'PUT')!;
    expect(put.path).toBe('/api/heat-methods/buildings/10/2026-10');
    expect(put.body).toEqual({
      HotWaterHeat: 'norm',
      KwhPerM3: 51,
      CirculationNorm: 80,
      HotWaterTemperature: 60,
      DistrictHeat: true,
      Seasons: [{ From: '2026-10-15', To: null }],
      CommonShare: 0.1,
      BaseShare: 0.3,
      MinimumShare: 0.5,
      Flats: [
        { FlatId: 21, PositionFactor: 1.2, CirculationClass: null },
        { FlatId: 22, PositionFactor: 1, CirculationClass: 160 },
      ],
    });
    expect(api.unanswered).toEqual([]);
  });

  it('offers no editing to a reader', async () => {
    signIn(GROUP.admin);
    stubApi([route(getBuildingHeatMethods, building([october]))]);
    await render(<HeatMethodCard buildingId={10} canEdit={false} />, { language: 'en' });
    expect(await screen.findByText(/q 51 kWh\/m³/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Set the method from a month' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Edit the version/ })).toBeNull();
  });
});
