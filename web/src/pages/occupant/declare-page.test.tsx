import {
  DEVICE_TYPE,
  type Declaration,
  type DeclaredDevice,
  declareReading,
  getOccupantDeclarations,
  getOccupantProfile,
  listOccupantMonths,
  type OccupantDeclarations,
} from '@rodmenys/contract';
import { act, cleanup, render as renderDom, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/query';
import { changeLanguage } from '../../i18n';
import en from '../../i18n/en.json';
import lt from '../../i18n/lt.json';
import { setOccupantSession } from '../../occupant-session';
import { AppProviders } from '../../providers';
import { routes } from '../../routes';
import { route, stubApi } from '../../test/api-stub';

/* Declaring readings on the occupant's pages (docs/declared-readings.md), by keyboard, in both languages. */

const SESSION = { Token: 'rmo_test', ExpiresAt: '2999-01-01T00:00:00+02:00', Language: 'en' as const };

const COLD: DeclaredDevice = {
  DeviceId: 7,
  DeviceTypeId: DEVICE_TYPE.coldWaterMeter,
  DeviceCode: 'CW-77',
  PreviousValue: 160,
  PreviousAt: '2026-10-15T12:00:00+03:00',
  PlausibleMax: 175,
  Declarations: [],
};

const page = (open: boolean): OccupantDeclarations => ({
  Window: { Month: '2026-11', Opens: '2026-11-21', Closes: '2026-11-30', Open: open },
  Devices: [COLD],
});

const stored = (value: number, status: Declaration['Status']): Declaration => ({
  Id: 1,
  DeviceId: 7,
  OccupancyId: 5,
  LocationId: 9,
  Value: value,
  DeclaredAt: '2026-11-22T10:00:00+02:00',
  Month: '2026-11',
  Channel: 'occupant',
  EnteredBy: null,
  PhotoId: null,
  Status: status,
  Reason: null,
  Confirmed: status === 'doubtful',
  PreviousValue: 160,
  PlausibleMax: 175,
  Counts: true,
});

async function open(path: string, language: 'lt' | 'en') {
  await changeLanguage(language);
  renderDom(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />
    </AppProviders>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setOccupantSession(null);
  sessionStorage.clear();
});

describe('declaring readings', { timeout: 30_000 }, () => {
  it('says when the window opens, and offers no form outside it (lt)', async () => {
    setOccupantSession(SESSION);
    const api = stubApi([route(getOccupantDeclarations, page(false))]);
    await open('/occupant/declare', 'lt');
    // The month named without bending it into a case, the days in full, no double full stop after "d.".
    expect(
      await screen.findByText(
        'Deklaruojamas mėnuo: 2026 m. lapkritis. Deklaruoti bus galima nuo 2026 m. lapkričio 21 d. iki 2026 m. lapkričio 30 d. imtinai.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { name: `${lt.occupant.declare.types['3']} CW-77` })).toBeTruthy();
    expect(screen.queryByRole('button', { name: lt.occupant.declare.submit })).toBeNull();
    expect(api.unanswered).toEqual([]);
  });

  it('declares by keyboard, asks to confirm a value far above the usual, and shows the receipt (en)', async () => {
    setOccupantSession(SESSION);
    const api = stubApi([
      route(getOccupantDeclarations, page(true)),
      route(declareReading, (r) => {
        const body = r.body as { value: number; confirm?: boolean };
        return {
          Declaration: stored(body.value, body.confirm ? 'doubtful' : 'accepted'),
          DeviceCode: 'CW-77',
          Emailed: true,
        };
      }),
    ]);
    await open('/occupant/declare', 'en');
    const user = userEvent.setup();
    const value = await screen.findByLabelText(en.occupant.declare.value);
    await act(async () => {
      await user.type(value, '190');
    });
    await act(async () => {
      await user.keyboard('{Enter}');
    });
    // Above 175: nothing sent yet, the confirmation is asked for.
    expect(await screen.findByText(/much higher than usual \(above 175\)/)).toBeTruthy();
    expect(api.sent.filter((r) => r.method === 'POST')).toEqual([]);
    await act(async () => {
      await user.click(screen.getByRole('checkbox', { name: en.occupant.declare.confirm }));
      await user.click(screen.getByRole('button', { name: en.occupant.declare.submit }));
    });
    await waitFor(() => expect(api.sent.filter((r) => r.method === 'POST')).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Received: CW-77 – 190'));
    expect(screen.getByRole('status').textContent).toContain(en.occupant.declare.receiptMailed);
    expect(screen.getByRole('status').textContent).toContain(en.occupant.declare.receiptDoubtful);
    expect(api.sent.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { deviceId: 7, value: 190, confirm: true },
    ]);
  });

  it('labels each meter’s fields on its own when the flat has two (lt)', async () => {
    setOccupantSession(SESSION);
    const hot: DeclaredDevice = { ...COLD, DeviceId: 8, DeviceTypeId: DEVICE_TYPE.hotWaterMeter, DeviceCode: 'HW-88' };
    stubApi([route(getOccupantDeclarations, { ...page(true), Devices: [COLD, hot] })]);
    await open('/occupant/declare', 'lt');
    // One field per meter, each found by its label: the second is not left without a name.
    const fields = await screen.findAllByLabelText(lt.occupant.declare.value);
    expect(fields).toHaveLength(2);
    expect(new Set(fields.map((f) => f.id)).size).toBe(2);
    const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('offers the photo by a button in the page’s language and says which photo is chosen (lt)', async () => {
    setOccupantSession(SESSION);
    stubApi([route(getOccupantDeclarations, page(true))]);
    await open('/occupant/declare', 'lt');
    // The button is named by the field's label and its own text; the browser's file button is hidden.
    const pick = await screen.findByRole('button', {
      name: `${lt.occupant.declare.photo} ${lt.occupant.declare.photoPick}`,
    });
    expect(pick.getAttribute('aria-describedby')).toContain('photo-chosen');
    expect(screen.getByText(lt.occupant.declare.photoNone)).toBeTruthy();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input.tabIndex).toBe(-1);
    const user = userEvent.setup();
    await act(async () => {
      await user.upload(input, new File([new Uint8Array([0x89, 0x50])], 'skaitiklis.png', { type: 'image/png' }));
    });
    expect(await screen.findByText('skaitiklis.png')).toBeTruthy();
    expect(screen.queryByText(lt.occupant.declare.photoNone)).toBeNull();
  });

  it('links the declaring page from the months page when the flat has declared meters', async () => {
    setOccupantSession(SESSION);
    stubApi([
      route(getOccupantProfile, {
        OccupancyId: 5,
        Name: 'Ona',
        ClientCode: 'K-1',
        City: 'Vilnius',
        Street: 'A g.',
        Building: '1',
        Flat: '2',
        Language: 'en',
        MoveIn: null,
        MoveOut: null,
        AccessUntil: null,
        Email: null,
        Electronic: false,
        ConsentAt: null,
        ConsentChannel: null,
      }),
      route(listOccupantMonths, []),
      route(getOccupantDeclarations, page(true)),
    ]);
    await open('/occupant/months', 'en');
    const link = await screen.findByRole('link', { name: en.occupant.declare.link });
    expect(link.getAttribute('href')).toBe('/occupant/declare');
  });
});
