import {
  GROUP,
  getFlatStatement,
  getLocationTree,
  getStatementFigures,
  LOCATION_LEVEL,
  listStatementDeliveries,
  type StatementRow,
} from '@rodmenys/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { figure, kindFigures, signIn, statementRow } from '../../test/fixtures';
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

function server() {
  return stubApi([
    route(getLocationTree, tree),
    route(getStatementFigures, (r) => ({ Month: r.query.get('month') ?? MONTH, Rows: rows })),
    route(listStatementDeliveries, { MailConfigured: true, Deliveries: [] }),
    route(getFlatStatement, { Month: MONTH, Row: rows[0] as StatementRow, History: [], DegreeDays: null }),
  ]);
}

const table = async () => {
  await screen.findByRole('button', { name: '1 ataskaita' });
  return screen.getAllByRole('table').at(-1) as HTMLElement;
};

afterEach(() => vi.unstubAllGlobals());

// antd's first render under jsdom is slow on a busy machine.
describe('the Statements page', { timeout: 30_000 }, () => {
  it("shows a manager the month's flats as the server answers them, figures in the UI language", async () => {
    signIn(GROUP.user);
    const api = server();
    await render(<StatementsPage />, { route: `/statements?month=${MONTH}` });
    const body = await table();
    const first = within(body).getByRole('button', { name: '1 ataskaita' }).closest('tr') as HTMLElement;
    expect(first.textContent).toContain('Vilnius, Architektų g. 3');
    expect(first.textContent).toContain('478');
    expect(first.textContent).toContain('3,25');
    // A missing figure says so; a published flat says its version.
    const second = within(body).getByRole('button', { name: '2 ataskaita' }).closest('tr') as HTMLElement;
    expect(second.textContent).toContain('trūksta');
    expect(second.textContent).toContain('paskelbta (2 versija)');
    const figuresCall = api.sent.find((r) => r.path === '/api/statements/figures');
    expect(figuresCall?.query.get('month')).toBe(MONTH);
    // A manager neither publishes nor sees the e-mails.
    expect(screen.queryByRole('button', { name: 'Paskelbti' })).toBeNull();
    expect(api.sent.some((r) => r.path === '/api/statements/deliveries')).toBe(false);
    expect(api.unanswered).toEqual([]);
  });

  it("shows an operator the publish button and the month's e-mails, in English", async () => {
    signIn(GROUP.operator);
    const api = server();
    await render(<StatementsPage />, { route: `/statements?month=${MONTH}`, language: 'en' });
    await screen.findByRole('button', { name: '1 statement' });
    expect(screen.getByRole('button', { name: 'Publish' })).toBeTruthy();
    expect(await screen.findByText('No e-mails sent for this month')).toBeTruthy();
    expect(screen.getByText('published (version 2)')).toBeTruthy();
    expect(api.unanswered).toEqual([]);
  });

  it("opens a flat's statement from its number", async () => {
    signIn(GROUP.user);
    const api = server();
    await render(<StatementsPage />, { route: `/statements?month=${MONTH}` });
    await userEvent.click(await screen.findByRole('button', { name: '1 ataskaita' }));
    await waitFor(() => expect(api.sent.some((r) => r.path === '/api/statements/flats/7')).toBe(true));
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });
});
