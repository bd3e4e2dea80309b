import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type BuildingDeliveries,
  getOccupantAccess,
  getPrintList,
  listOccupantDeliveries,
  type OccupantDelivery,
} from '@rodmenys/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { render } from '../../test/render';
import { OccupantDeliveriesCard } from './occupant-deliveries-card';

const MONTH = '2026-10';

const delivery = (d: Partial<OccupantDelivery>): OccupantDelivery => ({
  Id: 1,
  Month: MONTH,
  Version: 1,
  BuildingId: 100,
  FlatId: 7,
  Flat: '1',
  OccupancyId: 11,
  Name: 'Ona Onaitė',
  Channel: 'email',
  Email: 'ona@example.lt',
  Language: 'lt',
  Status: 'sent',
  QueuedAt: '2026-11-02T10:00:00+02:00',
  Attempts: 1,
  Error: null,
  NextAttemptAt: null,
  GivenUp: false,
  SentAt: '2026-11-02T10:01:00+02:00',
  PrintedAt: null,
  ...d,
});

const building: BuildingDeliveries = {
  BuildingId: 100,
  Address: 'Kaunas Laisvės al. 7',
  Queued: 1,
  Sent: 1,
  Failed: 1,
  Printed: 0,
  Letters: 1,
  Deliveries: [
    delivery({}),
    delivery({
      Id: 2,
      Flat: '2',
      Name: 'John Smith',
      Email: 'john@example.com',
      Language: 'en',
      Status: 'failed',
      Attempts: 2,
      Error: 'connect ECONNREFUSED 127.0.0.1:25',
      NextAttemptAt: '2026-11-02T10:05:00+02:00',
      SentAt: null,
    }),
    delivery({
      Id: 3,
      Flat: '3',
      Name: 'Petras Petraitis',
      Channel: 'print',
      Email: null,
      Status: 'queued',
      Attempts: 0,
      SentAt: null,
    }),
  ],
};

/** The names of the files the card saves (downloadBlob's link), with jsdom given object URLs. */
function savedFiles(): string[] {
  const names: string[] = [];
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:test', revokeObjectURL: () => {} }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return names;
}

afterEach(() => vi.unstubAllGlobals());

describe("the occupants' delivery log", { timeout: 90_000 }, () => {
  it('shows each building with its counts, each occupant with how and where it stands; group 1 downloads the letters', async () => {
    const api = stubApi([
      route(listOccupantDeliveries, { Month: MONTH, MailConfigured: true, Buildings: [building] }),
      route(getPrintList, '%PDF-1.7', 'application/pdf'),
    ]);
    const files = savedFiles();
    await render(<OccupantDeliveriesCard month={MONTH} canPrint />, { language: 'en' });
    expect(await screen.findByText('Kaunas Laisvės al. 7')).toBeTruthy();
    expect(screen.getByText('sent 1 · waiting 1 · failed 1 · printed 0')).toBeTruthy();
    // The panel opens from the keyboard.
    const header = screen.getByRole('button', { name: /Kaunas Laisvės al\. 7/ });
    header.focus();
    await userEvent.keyboard('{Enter}');
    const table = await screen.findByRole('table');
    const john = within(table).getByText('John Smith').closest('tr') as HTMLElement;
    expect(john.textContent).toContain('e-mail: john@example.com');
    expect(john.textContent).toContain('not delivered');
    expect(john.textContent).toContain('connect ECONNREFUSED 127.0.0.1:25');
    expect(john.textContent).toMatch(/2 attempts; next at/);
    const petras = within(table).getByText('Petras Petraitis').closest('tr') as HTMLElement;
    expect(petras.textContent).toContain('letter');
    expect(petras.textContent).toContain('waiting');
    await userEvent.click(screen.getByRole('button', { name: 'Letters to print (1)' }));
    await waitFor(() => expect(files).toEqual(['Letters 2026-10, Kaunas Laisvės al. 7.pdf']));
    const print = api.sent.find((r) => r.path === '/api/deliveries/print/100');
    expect(print?.query.get('month')).toBe(MONTH);
    expect(print?.query.get('lang')).toBe('en');
    expect(api.unanswered).toEqual([]);
  });

  it('shows group 2 the log without the download, in Lithuanian', async () => {
    const api = stubApi([
      route(listOccupantDeliveries, { Month: MONTH, MailConfigured: false, Buildings: [building] }),
    ]);
    await render(<OccupantDeliveriesCard month={MONTH} canPrint={false} />);
    expect(await screen.findByText('išsiųsta 1 · laukia 1 · nepavyko 1 · atspausdinta 0')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Laiškai spausdinti/ })).toBeNull();
    expect(screen.getByText(/Laiškai šiuo metu nesiunčiami/)).toBeTruthy();
    expect(api.unanswered).toEqual([]);
  });

  it("opens an occupant's link and letter code from the log (groups 1 and 2), by keyboard", async () => {
    const api = stubApi([
      route(listOccupantDeliveries, { Month: MONTH, MailConfigured: true, Buildings: [building] }),
      route(getOccupantAccess, {
        OccupancyId: 11,
        ActiveLinks: 2,
        LastLinkIssuedAt: '2026-11-02T10:01:00+02:00',
        LetterCodeIssuedAt: null,
        AccessUntil: null,
        LastSignInAt: null,
      }),
    ]);
    await render(<OccupantDeliveriesCard month={MONTH} canPrint={false} />, { language: 'en' });
    (await screen.findByRole('button', { name: /Kaunas Laisvės al\. 7/ })).focus();
    await userEvent.keyboard('{Enter}');
    const open = await screen.findAllByRole('button', { name: 'Link and code: Ona Onaitė' });
    open[0]!.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Link and letter code: Ona Onaitė' });
    await waitFor(() => expect(within(dialog).getByText(/^2 live, the last issued/)).toBeTruthy());
    expect(within(dialog).getByText('while the occupant lives there')).toBeTruthy();
    expect(within(dialog).getAllByText('none live')).toHaveLength(1);
    expect(api.sent.some((r) => r.path === '/api/occupancies/11/access')).toBe(true);
    expect(api.unanswered).toEqual([]);
  });
});

describe("the print list's file name", { timeout: 90_000 }, () => {
  it.each([
    ['lt', 'Laiškai spausdinti (1)', 'Laiškai 2026-10, Kaunas Laisvės al. 7.pdf'],
    ['en', 'Letters to print (1)', 'Letters 2026-10, Kaunas Laisvės al. 7.pdf'],
  ] as const)('is the one docs/delivery.md gives (%s)', async (language, button, file) => {
    stubApi([
      route(listOccupantDeliveries, { Month: MONTH, MailConfigured: true, Buildings: [building] }),
      route(getPrintList, '%PDF-1.7', 'application/pdf'),
    ]);
    const files = savedFiles();
    await render(<OccupantDeliveriesCard month={MONTH} canPrint />, { language });
    await userEvent.click(await screen.findByRole('button', { name: /Kaunas Laisvės al\. 7/ }));
    await userEvent.click(await screen.findByRole('button', { name: button }));
    await waitFor(() => expect(files).toEqual([file]));
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../../../docs/delivery.md'), 'utf8');
    expect(doc.replace(/\s+/g, ' ')).toContain(`\`${file}\``);
  });
});
