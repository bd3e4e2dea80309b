import {
  DEVICE_TYPE,
  getOccupantDeclarations,
  getOccupantProfile,
  getOccupantStatement,
  listOccupantMonths,
  type OccupancyKindFigures,
  type OccupantProfile,
  type OccupantStatement,
  updateOccupantConsent,
} from '@rodmenys/contract';
import { act, cleanup, render as renderDom, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/query';
import { changeLanguage } from '../../i18n';
import en from '../../i18n/en.json';
import lt from '../../i18n/lt.json';
import { getOccupantSession, setOccupantSession } from '../../occupant-session';
import { AppProviders } from '../../providers';
import { routes } from '../../routes';
import { route, stubApi } from '../../test/api-stub';
import { figure, signIn } from '../../test/fixtures';
import { tokenOf } from './link-page';

const MONTH = '2026-10';
const SESSION = { Token: 'rmo_test', ExpiresAt: '2999-01-01T00:00:00+02:00', Language: 'en' as const };

const PROFILE: OccupantProfile = {
  OccupancyId: 5,
  Name: 'Ona Onaitė',
  ClientCode: 'K-1001',
  City: 'Vilnius',
  Street: 'Architektų g.',
  Building: '3',
  Flat: '12',
  Language: 'en',
  MoveIn: '2026-10-11',
  MoveOut: null,
  AccessUntil: null,
  Email: 'ona@example.com',
  Electronic: true,
  ConsentAt: '2026-10-11',
  ConsentChannel: 'email',
};

const heating: OccupancyKindFigures = {
  Kind: 'heating',
  Unit: 'kWh',
  Current: { ...figure(412.4, true), Sources: ['measured', 'interpolated'] },
  Previous: null,
  PreviousMissing: 'otherOccupancy',
  LastYear: null,
  LastYearMissing: 'otherOccupancy',
  BuildingAverage: 650,
  Units: 120,
  Qrad: 96.5,
  Overdue: [],
  LateDeclarations: [],
  HeatParts: null,
};

const STATEMENT: OccupantStatement = {
  Month: MONTH,
  PublishedAt: '2026-11-03T10:00:00+02:00',
  Statement: {
    OccupancyId: 5,
    ClientCode: 'K-1001',
    Name: 'Ona Onaitė',
    From: '2026-10-11',
    Till: '2026-10-31',
    Days: 21,
    Kinds: [heating],
  },
  History: [
    { Month: '2026-09', Kinds: [{ Kind: 'heating', Value: 120 }] },
    { Month: MONTH, Kinds: [{ Kind: 'heating', Value: 412.4 }] },
  ],
};

/** The app's own route table at `path`, in `language` (null: no choice made in this browser), inside the app's providers. */
async function open(path: string, language: 'lt' | 'en' | null = 'en') {
  if (language) await changeLanguage(language);
  else localStorage.removeItem('rodmenys.language');
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  renderDom(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

/** An answer with a status the contract's success schema does not cover (refusals). */
const refusal = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ code, message: code }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

// The first render loads the pages' lazy chunks: slow under jsdom on a busy machine.
afterEach(() => {
  vi.unstubAllGlobals();
  setOccupantSession(null);
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('the code page', { timeout: 30_000 }, () => {
  it('says a wrong code in plain words, and sends no back-office token', async () => {
    signIn(); // a back-office user signed in in the same browser: their token must not go out
    const sent: Array<{ body: unknown; auth: string | null }> = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent.push({ body: JSON.parse(String(init.body)), auth: new Headers(init.headers).get('Authorization') });
      return refusal(401, 'occupantSignInFailed');
    });
    await open('/occupant');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(en.occupant.code.flat), '12');
    await user.type(screen.getByLabelText(en.occupant.code.code), ' abcde-fghjk ');
    await user.click(screen.getByRole('button', { name: en.occupant.code.submit }));
    expect((await screen.findByRole('alert')).textContent).toContain(en.occupant.code.refused);
    expect(sent).toEqual([{ body: { flat: 12, code: 'abcde-fghjk' }, auth: null }]);
    expect(getOccupantSession()).toBeNull();
  });

  it('says how long to wait after too many attempts (429, Retry-After), in Lithuanian', async () => {
    vi.stubGlobal('fetch', async () => refusal(429, 'occupantTooManyAttempts', { 'Retry-After': '900' }));
    await open('/occupant', 'lt');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(lt.occupant.code.flat), '12');
    await user.type(screen.getByLabelText(lt.occupant.code.code), 'ABCDEFGHJK');
    await user.click(screen.getByRole('button', { name: lt.occupant.code.submit }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      lt.occupant.code.tooManyMinutes.replace('{{minutes}}', '15'),
    );
  });

  it('asks for digits only in the flat number, before sending anything', async () => {
    const api = stubApi([]);
    await open('/occupant');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(en.occupant.code.flat), '12a');
    await user.type(screen.getByLabelText(en.occupant.code.code), 'ABCDEFGHJK');
    await user.click(screen.getByRole('button', { name: en.occupant.code.submit }));
    expect(await screen.findByText(en.occupant.code.flatInvalid)).toBeTruthy();
    expect(api.sent).toEqual([]);
  });
});

describe('the code page’s language', { timeout: 30_000 }, () => {
  it('opens in the language of the address (?lang=, as the letter prints it), over an earlier choice', async () => {
    stubApi([]);
    await open('/occupant?lang=en', 'lt');
    expect(await screen.findByRole('heading', { level: 1, name: en.occupant.code.title })).toBeTruthy();
    await waitFor(() => expect(document.documentElement.lang).toBe('en'));
  });

  it('opens in the browser’s language when none was chosen here, and keeps a choice made here', async () => {
    stubApi([]);
    vi.stubGlobal('navigator', { ...navigator, languages: ['en-US', 'lt'], language: 'en-US' });
    await changeLanguage('lt');
    await open('/occupant', null);
    expect(await screen.findByRole('heading', { level: 1, name: en.occupant.code.title })).toBeTruthy();
    cleanup();
    await open('/occupant', 'lt');
    expect(await screen.findByRole('heading', { level: 1, name: lt.occupant.code.title })).toBeTruthy();
  });
});

describe('the link page', { timeout: 30_000 }, () => {
  it('reads the token from the fragment, also when a mail client mangled an escape', () => {
    expect(tokenOf('#abc_DEF-123')).toBe('abc_DEF-123');
    expect(tokenOf('#abc%2D1')).toBe('abc-1');
    expect(tokenOf('#abc%E0%A4%A')).toBe('abc%E0%A4%A');
    expect(tokenOf('')).toBe('');
  });

  it('exchanges the fragment’s token in a POST, takes it out of the address, opens the months in the occupancy’s language', async () => {
    window.history.replaceState(null, '', '/occupant/open#tok-123');
    const posted: unknown[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname;
      if (path === '/api/occupant/sessions/link') {
        posted.push(JSON.parse(String(init?.body)));
        return new Response(JSON.stringify(SESSION), { status: 201 });
      }
      if (path === '/api/occupant/profile') return new Response(JSON.stringify(PROFILE));
      if (path === '/api/occupant/months') return new Response(JSON.stringify([]));
      return refusal(404, 'notFound');
    });
    const router = await open('/occupant/open', 'lt');
    expect(await screen.findByRole('heading', { level: 1, name: en.occupant.months.title })).toBeTruthy();
    expect(posted).toEqual([{ token: 'tok-123' }]);
    expect(window.location.hash).toBe('');
    expect(router.state.location.pathname).toBe('/occupant/months');
    expect(getOccupantSession()?.Token).toBe('rmo_test');
  });

  it('says a refused link in plain words and offers the code page', async () => {
    window.history.replaceState(null, '', '/occupant/open#old');
    vi.stubGlobal('fetch', async () => refusal(401, 'occupantSignInFailed'));
    await open('/occupant/open');
    expect((await screen.findByRole('alert')).textContent).toContain(en.occupant.link.refused);
    await userEvent.setup().click(screen.getByRole('button', { name: en.occupant.link.toCode }));
    expect(await screen.findByLabelText(en.occupant.code.flat)).toBeTruthy();
  });
});

describe('the pages behind the session', { timeout: 30_000 }, () => {
  it('send to the code page without a session, saying why', async () => {
    const api = stubApi([]);
    await open(`/occupant/months/${MONTH}`);
    expect(await screen.findByText(en.serverErrors.occupantSignInFirst)).toBeTruthy();
    expect(screen.getByLabelText(en.occupant.code.code)).toBeTruthy();
    expect(api.sent).toEqual([]);
  });

  it('the statement: figures, why comparisons are missing, the allocators’ sharing and “estimated” in plain words', async () => {
    setOccupantSession(SESSION);
    const auth: Array<string | null> = [];
    const api = stubApi([route(getOccupantProfile, PROFILE), route(getOccupantStatement, STATEMENT)]);
    const stubbed = globalThis.fetch;
    vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
      auth.push(new Headers(init?.headers).get('Authorization'));
      return stubbed(input, init);
    });
    await open(`/occupant/months/${MONTH}`);
    const card = (await screen.findByRole('heading', { level: 2, name: 'Heating, kWh' })).closest('.ant-card')!;
    const inCard = within(card as HTMLElement);
    expect(inCard.getByText('412*')).toBeTruthy();
    expect(inCard.getAllByText(en.occupant.statement.noComparison.otherOccupancy)).toHaveLength(2);
    expect(inCard.getByText(/Your share: 96\.5 Qrad, that is 412 kWh\./)).toBeTruthy();
    expect(screen.getByText(en.occupant.explain.estimated)).toBeTruthy();
    expect(screen.getByText(en.occupant.explain.source.interpolated)).toBeTruthy();
    expect(screen.queryByText(en.occupant.explain.source.manual)).toBeNull();
    expect(screen.getByText(/11 October 2026 – 31 October 2026 \(21 days\)/)).toBeTruthy();
    // No device behind it was overdue: nothing said about it.
    expect(screen.queryByText(/past its verification or battery due date/)).toBeNull();
    expect(api.unanswered).toEqual([]);
    expect(new Set(auth)).toEqual(new Set(['Bearer rmo_test']));
  });

  it('the statement names readings the occupant declared (docs/declared-readings.md)', async () => {
    setOccupantSession(SESSION);
    const declared = { ...heating, Current: { ...figure(412.4, false), Sources: ['declared' as const] } };
    const api = stubApi([
      route(getOccupantProfile, PROFILE),
      route(getOccupantStatement, { ...STATEMENT, Statement: { ...STATEMENT.Statement, Kinds: [declared] } }),
    ]);
    await open(`/occupant/months/${MONTH}`);
    expect(await screen.findByText(en.occupant.explain.declared)).toBeTruthy();
    expect(screen.queryByText(en.occupant.explain.estimated)).toBeNull();
    expect(api.unanswered).toEqual([]);
  });

  it('the statement shows the occupant’s own heat parts by the building’s method', async () => {
    setOccupantSession(SESSION);
    const parts = {
      Consumption: 75,
      Base: 45.162,
      Common: 9.032,
      NoDevice: 0,
      HeatMeter: 0,
      Assigned: 2.5,
      Space: 131.694,
      HotWater: 34,
      Circulation: 36.129,
      Total: 201.823,
    };
    const statement = {
      ...STATEMENT,
      Statement: { ...STATEMENT.Statement, Kinds: [{ ...heating, HeatParts: parts }] },
    };
    stubApi([route(getOccupantProfile, PROFILE), route(getOccupantStatement, statement)]);
    await open(`/occupant/months/${MONTH}`);
    const card = (await screen.findByRole('heading', { level: 2, name: 'Heating, kWh' })).closest('.ant-card')!;
    // One bar of the occupant's own parts (those of 0 left out), each named with its value in the legend.
    const bar = within(card as HTMLElement).getByRole('figure', {
      name: "Your part by the building's heat method: 201.823 kWh of heat in all, the whole bar.",
    });
    expect(
      within(bar)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '1hot-water heat 34 kWh (16.8 %)',
      '2circulation 36.129 kWh (17.9 %)',
      '3common areas 9.032 kWh (4.5 %)',
      '6base 45.162 kWh (22.4 %)',
      '7by consumption 75 kWh (37.2 %)',
      '8assigned (minimum) 2.5 kWh (1.2 %)',
    ]);
    expect(within(card as HTMLElement).getByText(en.occupant.explain.heatPartsSplit)).toBeTruthy();
  });

  it('the statement names a device past its due date behind a figure (docs/device-lifetime.md)', async () => {
    setOccupantSession(SESSION);
    const battery = {
      DeviceId: 77,
      DeviceCode: 'HCA-77',
      DeviceTypeId: DEVICE_TYPE.allocator,
      DueDate: '2026-10-10',
      Reason: 'battery',
    };
    const overdue = { ...heating, Overdue: [battery as OccupancyKindFigures['Overdue'][number]] };
    const statement = { ...STATEMENT, Statement: { ...STATEMENT.Statement, Kinds: [overdue] } };
    stubApi([route(getOccupantProfile, PROFILE), route(getOccupantStatement, statement)]);
    await open(`/occupant/months/${MONTH}`);
    const card = (await screen.findByRole('heading', { level: 2, name: 'Heating, kWh' })).closest('.ant-card')!;
    expect(
      within(card as HTMLElement).getByText(
        'This figure comes from a device past its verification or battery due date: no. HCA-77 (battery due 2026-10-10). The provider will replace or verify it.',
      ),
    ).toBeTruthy();
  });

  it('the statement says a figure carries a reading declared late, and for which month', async () => {
    setOccupantSession(SESSION);
    const late = { ...heating, LateDeclarations: ['2026-06'] };
    const statement = { ...STATEMENT, Statement: { ...STATEMENT.Statement, Kinds: [late] } };
    stubApi([route(getOccupantProfile, PROFILE), route(getOccupantStatement, statement)]);
    await open(`/occupant/months/${MONTH}`);
    const card = (await screen.findByRole('heading', { level: 2, name: 'Heating, kWh' })).closest('.ant-card')!;
    expect(within(card as HTMLElement).getByText(/includes a reading declared late, for 2026-06/)).toBeTruthy();
  });

  it('a 401 ends the session: the code page says it ended', async () => {
    setOccupantSession(SESSION);
    vi.stubGlobal('fetch', async () => refusal(401, 'occupantSessionEnded'));
    await open('/occupant/months');
    expect(await screen.findByText(en.serverErrors.occupantSessionEnded)).toBeTruthy();
    expect(getOccupantSession()).toBeNull();
  });

  it('the consent switch sends the choice and shows what the server answered', async () => {
    setOccupantSession(SESSION);
    const api = stubApi([
      route(getOccupantProfile, PROFILE),
      route(listOccupantMonths, [{ Month: MONTH, PublishedAt: '2026-11-03T10:00:00+02:00' }]),
      route(getOccupantDeclarations, {
        Window: { Month: MONTH, Opens: '2026-10-21', Closes: '2026-10-31', Open: false },
        Devices: [],
      }),
      route(updateOccupantConsent, (r) => ({
        ...PROFILE,
        Electronic: (r.body as { electronic: boolean }).electronic,
        ConsentAt: null,
        ConsentChannel: null,
      })),
    ]);
    await open('/occupant/months');
    expect((await screen.findByRole('link', { name: /October 2026/ })).getAttribute('href')).toBe(
      `/occupant/months/${MONTH}`,
    );
    const toggle = await screen.findByRole('switch', { name: en.occupant.consent.label });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    await act(async () => {
      await userEvent.setup().click(toggle);
    });
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
    expect(screen.getByText(en.occupant.consent.off)).toBeTruthy();
    expect(api.sent.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([{ electronic: false }]);
    expect(api.unanswered).toEqual([]);
  });
});
