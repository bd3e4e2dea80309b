import {
  DEVICE_TYPE,
  type FlatOccupancyStatement,
  GROUP,
  getBuildingHeatMethods,
  getFlatStatement,
  getLocationTree,
  getStatementFigures,
  getStatementsPdf,
  LOCATION_LEVEL,
  listOccupantDeliveries,
  listStatementDeliveries,
  type OccupancyKindFigures,
  type StatementRow,
} from '@rodmenys/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { EXAMPLE_PARAMETERS, figure, kindFigures, signIn, statementRow } from '../../test/fixtures';
import { render } from '../../test/render';
import StatementsPage from './statements-page';

const MONTH = '2026-10';
const tree = [
  { Id: 1, ParentId: null, Level: LOCATION_LEVEL.country, Name: 'Lietuva', FlatOrder: null },
  { Id: 100, ParentId: 1, Level: LOCATION_LEVEL.building, Name: '3', FlatOrder: null },
];
const rows: StatementRow[] = [
  statementRow({
    FlatId: 7,
    Flat: '1',
    AreaM2: 52.4,
    Kinds: [
      kindFigures({
        Kind: 'heating',
        Unit: 'kWh',
        Current: figure(478),
        Previous: figure(512.25),
        BuildingAverage: 450,
      }),
      kindFigures({ Kind: 'coldWater', Unit: 'm3', Current: figure(3.25, true), Markers: ['estimated'] }),
    ],
  }),
  statementRow({
    FlatId: 8,
    Flat: '2',
    Kinds: [kindFigures({ Kind: 'heating', Unit: 'kWh', Current: figure(null), Markers: ['incomplete'] })],
    Published: { BuildingId: 100, Version: 2, PublishedAt: '2026-11-05T10:00:00+02:00', PublishedBy: 'operator' },
  }),
];

function server(occupancies: FlatOccupancyStatement[] = [], shown: StatementRow[] = rows) {
  return stubApi([
    route(getLocationTree, tree),
    route(getStatementFigures, (r) => ({
      Month: r.query.get('month') ?? MONTH,
      Rows: shown,
      Occupancies: occupancies,
    })),
    route(listStatementDeliveries, { MailConfigured: true, Deliveries: [] }),
    route(listOccupantDeliveries, { Month: MONTH, MailConfigured: true, Buildings: [] }),
    route(getFlatStatement, { Month: MONTH, Row: rows[0] as StatementRow, History: [], DegreeDays: null }),
    route(getStatementsPdf, '%PDF-1.7', 'application/pdf'),
    route(getBuildingHeatMethods, { BuildingId: 100, Path: 'Vilnius, Architektų g. 3', Flats: [], Versions: [] }),
  ]);
}

/** The names of the files the page saves (downloadBlob's link), with jsdom given object URLs. */
function savedFiles(): string[] {
  const names: string[] = [];
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:test', revokeObjectURL: () => {} }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return names;
}

const FLAT_1 = /^Architektų g\. 3, butas 1: ataskaita$/;

const table = async () => {
  await screen.findByRole('button', { name: FLAT_1 });
  return screen.getAllByRole('table').at(-1) as HTMLElement;
};

afterEach(() => vi.unstubAllGlobals());

// antd's first render under jsdom is slow on a busy machine.
describe('the Statements page', { timeout: 90_000 }, () => {
  it("shows a manager the month's flats as the server answers them, figures in the UI language", async () => {
    signIn(GROUP.user);
    const api = server();
    await render(<StatementsPage />, { route: `/statements?month=${MONTH}` });
    const body = await table();
    const first = within(body).getByRole('button', { name: FLAT_1 }).closest('tr') as HTMLElement;
    // Whole kWh, m³ to two decimals, the area where the flat has one; units in the headings.
    expect(first.textContent).toContain('478');
    expect(first.textContent).not.toContain('478,000');
    expect(first.textContent).toContain('3,25*');
    expect(first.textContent).toContain('52,40');
    expect(screen.getAllByRole('columnheader', { name: /^Šildymas, kWh/ }).length).toBeGreaterThan(0);
    // One building: its address and average are said once, not on every row.
    expect(body.textContent).not.toContain('Vilnius, Architektų g. 3');
    expect(screen.getByText('Pastato vidurkis (butui)').closest('tr')?.textContent).toContain('450');
    // A missing figure says so; a published flat says its version.
    const second = within(body)
      .getByRole('button', { name: /butas 2: ataskaita/ })
      .closest('tr') as HTMLElement;
    expect(second.textContent).toContain('trūksta');
    expect(second.textContent).toContain('paskelbta (2 versija)');
    const figuresCall = api.sent.find((r) => r.path === '/api/statements/figures');
    expect(figuresCall?.query.get('month')).toBe(MONTH);
    // A manager neither publishes nor sees the e-mails.
    expect(screen.queryByRole('button', { name: 'Paskelbti' })).toBeNull();
    expect(api.sent.some((r) => r.path === '/api/statements/deliveries')).toBe(false);
    expect(api.unanswered).toEqual([]);
  });

  it('marks a figure fed by a device past its due date, naming the device; a flat without one is not marked', async () => {
    signIn(GROUP.user);
    const device = {
      DeviceId: 9,
      DeviceCode: 'HW-0042',
      DeviceTypeId: DEVICE_TYPE.hotWaterMeter,
      DueDate: '2026-10-03',
      Reason: 'verification',
    };
    const marked = [
      {
        ...rows[0]!,
        Kinds: rows[0]!.Kinds.map((k) =>
          k.Kind === 'coldWater'
            ? {
                ...k,
                Markers: [...k.Markers, 'overdue' as const],
                Overdue: [device as StatementRow['Kinds'][number]['Overdue'][number]],
              }
            : k,
        ),
      },
      rows[1]!,
    ];
    server([], marked);
    await render(<StatementsPage />, { route: `/statements?month=${MONTH}` });
    const body = await table();
    const first = within(body).getByRole('button', { name: FLAT_1 }).closest('tr') as HTMLElement;
    expect(within(first).getByText(/Šaltas vanduo: prietaisas po termino \(HW-0042\)/)).toBeTruthy();
    const second = within(body)
      .getByRole('button', { name: /butas 2: ataskaita/ })
      .closest('tr') as HTMLElement;
    expect(second.textContent).not.toContain('prietaisas po termino');
  });

  it('marks a figure carrying a late declaration with the months it corrects (docs/declared-readings.md)', async () => {
    signIn(GROUP.user);
    const marked = [
      {
        ...rows[0]!,
        Kinds: rows[0]!.Kinds.map((k) =>
          k.Kind === 'coldWater'
            ? { ...k, Markers: [...k.Markers, 'lateDeclaration' as const], LateDeclarations: ['2026-06'] }
            : k,
        ),
      },
      rows[1]!,
    ];
    server([], marked);
    await render(<StatementsPage />, { route: `/statements?month=${MONTH}` });
    const body = await table();
    const first = within(body).getByRole('button', { name: FLAT_1 }).closest('tr') as HTMLElement;
    expect(within(first).getByText(/Šaltas vanduo: pavėluota deklaracija \(2026-06\)/)).toBeTruthy();
    const second = within(body)
      .getByRole('button', { name: /butas 2: ataskaita/ })
      .closest('tr') as HTMLElement;
    expect(second.textContent).not.toContain('pavėluota deklaracija');
  });

  it("shows a building's heat split by its method: hot-water heat, circulation and total beside the heating", async () => {
    signIn(GROUP.user);
    const parts = { Consumption: 1463.502, Base: 483.542, Common: 72.091, NoDevice: 0, HeatMeter: 0, Assigned: 0 };
    const heat = { ...parts, Space: 2019.135, HotWater: 171.12, Circulation: 241.563, Total: 2431.818 };
    const heated = [
      { ...rows[0]!, Kinds: rows[0]!.Kinds.map((k) => (k.Kind === 'heating' ? { ...k, HeatParts: heat } : k)) },
    ];
    server([], heated);
    await render(<StatementsPage />, { route: `/statements?month=${MONTH}` });
    const body = await table();
    expect(screen.getAllByRole('columnheader', { name: 'Šiluma pagal metodą, kWh' }).length).toBeGreaterThan(0);
    expect(screen.getAllByRole('columnheader', { name: 'Cirkuliacija' }).length).toBeGreaterThan(0);
    const first = within(body).getByRole('button', { name: FLAT_1 }).closest('tr') as HTMLElement;
    expect(first.textContent).toContain('171,12');
    expect(first.textContent).toContain('241,563');
    expect(first.textContent).toMatch(/2\s431,818/);
  });

  it("shows the building's balance above the flats and a manager its method to read", async () => {
    signIn(GROUP.admin);
    const balance = {
      Method: 'norm' as const,
      ValidFrom: '2026-10',
      Status: 'split' as const,
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
    };
    const heated = rows.map((r) => ({
      ...r,
      Street: 'Architektų g.',
      Building: '3',
      Kinds: r.Kinds.map((k) => (k.Kind === 'heating' ? { ...k, HeatBalance: balance } : k)),
    }));
    const api = server([], heated);
    await render(<StatementsPage />, { route: `/statements?month=${MONTH}`, language: 'en' });
    const balances = await screen.findByTestId('building-balances');
    // One bar per building, however many of its flats are shown: its seven parts named with their values.
    expect(balances.children.length).toBe(1);
    const bar = within(balances).getByRole('figure', {
      name: 'Architektų g. 3: Building balance (method norm from 2026-10): input 9,870.5 kWh, the whole bar',
    });
    expect(
      within(bar)
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
    // The parameters that produced it: the building's (each flat's own are on its statement).
    expect(balances.textContent).toContain(
      'Parameters of the version from 2026-10: q 51 kWh/m³ · circulation 80 kWh per flat · ' +
        'season 2026-10-15 – … · common 5 % · base 30 % · k_min 0.5.',
    );
    // The manager's one building is chosen: its method, to read (no editing).
    expect(await screen.findByText(/No heat method: .*\(plainQrad\)/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Set the method from a month' })).toBeNull();
    expect(api.unanswered).toEqual([]);
  });

  it("shows an operator the publish button and the month's e-mails, in English", async () => {
    signIn(GROUP.operator);
    const api = server();
    await render(<StatementsPage />, { route: `/statements?month=${MONTH}`, language: 'en' });
    await screen.findByRole('button', { name: 'Architektų g. 3, flat 1: statement' });
    expect(screen.getByRole('button', { name: 'Publish' })).toBeTruthy();
    expect(await screen.findByText('No e-mails sent for this month')).toBeTruthy();
    expect(screen.getByText('published (version 2)')).toBeTruthy();
    expect(api.unanswered).toEqual([]);
  });

  it("opens a flat's statement from its number", async () => {
    signIn(GROUP.user);
    const api = server();
    await render(<StatementsPage />, { route: `/statements?month=${MONTH}` });
    await userEvent.click(await screen.findByRole('button', { name: FLAT_1 }));
    await waitFor(() => expect(api.sent.some((r) => r.path === '/api/statements/flats/7')).toBe(true));
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });

  it('downloads the PDF of what the table shows, named for it: only the marked flats when a marker is chosen', async () => {
    signIn(GROUP.user);
    const api = server();
    const saved = savedFiles();
    await render(<StatementsPage />, { route: `/statements?month=${MONTH}` });
    await screen.findByRole('button', { name: FLAT_1 });
    await userEvent.click(screen.getByRole('button', { name: /PDF/ }));
    await waitFor(() => expect(saved).toEqual(['Ataskaitos 2026-10, Architektų g. 3.pdf']));
    // The manager's one building is chosen from the start.
    expect(api.sent.find((r) => r.path === '/api/statements/pdf')?.query.get('locationParentId')).toBe('100');

    await userEvent.click(screen.getByRole('combobox', { name: 'Tik pažymėti butai' }));
    await userEvent.click(await screen.findByTitle('trūksta duomenų'));
    await waitFor(() => expect(screen.queryByRole('button', { name: FLAT_1 })).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: /PDF/ }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]).toBe('Ataskaitos 2026-10, Architektų g. 3, pažymėti butai (1).pdf');
    const marked = api.sent.filter((r) => r.path === '/api/statements/pdf').at(-1);
    expect(marked?.query.get('locationParentId')).toBe('8');
    expect(marked?.query.get('lang')).toBe('lt');
  });

  it('shows a flat with a move one row per occupant: name, account, days, their own figures only', async () => {
    signIn(GROUP.user);
    const part = (Current: number, own: boolean): OccupancyKindFigures => ({
      Kind: 'heating',
      Unit: 'kWh',
      Current: figure(Current),
      Previous: own ? figure(512.25) : null,
      PreviousMissing: own ? null : 'otherOccupancy',
      LastYear: null,
      LastYearMissing: 'otherOccupancy',
      BuildingAverage: 450,
      Units: null,
      Qrad: null,
      Overdue: [],
      LateDeclarations: [],
      HeatParts: null,
    });
    const occupant = (
      id: number,
      name: string,
      code: string,
      from: string,
      till: string,
      days: number,
      k: OccupancyKindFigures,
    ) => ({
      FlatId: 7,
      OccupancyId: id,
      ClientCode: code,
      Name: name,
      From: from,
      Till: till,
      Days: days,
      Kinds: [k],
    });
    const api = server([
      occupant(1, 'Petras Senasis', 'OLD-1', '2026-10-01', '2026-10-14', 14, part(200, true)),
      occupant(2, 'Aistė Naujoji', 'NEW-1', '2026-10-15', '2026-10-31', 17, part(278, false)),
    ]);
    await render(<StatementsPage />, { route: `/statements?month=${MONTH}`, language: 'en' });
    const before = (
      await screen.findByRole('button', { name: 'Architektų g. 3, flat 1 (Petras Senasis): statement' })
    ).closest('tr') as HTMLElement;
    const after = screen
      .getByRole('button', { name: 'Architektų g. 3, flat 1 (Aistė Naujoji): statement' })
      .closest('tr') as HTMLElement;
    expect(before.textContent).toContain('OLD-1, 2026-10-01 – 2026-10-14 (14 days)');
    expect(before.textContent).toContain('200');
    expect(before.textContent).toContain('512');
    // The new occupant's row: their days and figure, the month before was someone else's.
    expect(after.textContent).toContain('NEW-1, 2026-10-15 – 2026-10-31 (17 days)');
    expect(after.textContent).toContain('278');
    expect(after.textContent).toContain('other occupant');
    expect(after.textContent).not.toContain('512');
    expect(after.textContent).not.toContain('478');
    // The flat without a move keeps its one row; the card counts flats, not rows.
    expect(screen.getByRole('button', { name: 'Architektų g. 3, flat 2: statement' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Architektų g. 3, flat 1: statement' })).toBeNull();
    expect(screen.getByText('Flats: 2')).toBeTruthy();
    expect(api.unanswered).toEqual([]);
  });
});
