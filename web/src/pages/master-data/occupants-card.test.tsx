import {
  ANONYMISED,
  CLIENT_CODE_MAX_LENGTH,
  DEVICE_TYPE,
  exportOccupantData,
  type FlatOccupancies,
  GROUP,
  getDeviceTypeLookUp,
  getFlatOccupancies,
  type OccupancyRow,
  type OccupantData,
} from '@rodmenys/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { signIn } from '../../test/fixtures';
import { render } from '../../test/render';
import { OccupantsCard } from './occupants-card';

const occupancy = (o: Partial<OccupancyRow> & Pick<OccupancyRow, 'Id' | 'ClientCode' | 'Name'>): OccupancyRow => ({
  FlatId: 7,
  Email: null,
  Phone: null,
  Language: null,
  MoveIn: null,
  MoveOut: null,
  ConsentAt: null,
  ConsentChannel: null,
  ...o,
});

const flat: FlatOccupancies = {
  FlatId: 7,
  Path: 'Kaunas, Laisvės al. 7, butas 4',
  Occupancies: [
    occupancy({ Id: 1, ClientCode: 'R-0', Name: ANONYMISED, MoveOut: '2022-05-01' }),
    occupancy({ Id: 2, ClientCode: 'R/1', Name: 'Aldona Senoji', MoveIn: '2022-05-01', Email: 'a@example.lt' }),
  ],
  Moves: [],
};

const data: OccupantData = {
  ExportedAt: '2026-11-26T08:00:00+02:00',
  Occupancies: [{ ...flat.Occupancies[1]!, Flat: flat.Path, AnonymisedAt: null }],
  Account: { ClientCode: 'R/1', ClientName: 'Aldona Senoji' },
  Moves: [],
  Statements: [],
  Access: [],
  Deliveries: [],
  Declarations: [],
  DeclarationPhotos: [],
  DeclarationNotices: [],
  AuditEntries: [],
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

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// antd's first render under jsdom is slow on a busy machine.
describe('the occupants card: personal data (docs/personal-data.md)', { timeout: 90_000 }, () => {
  it.each([
    ['lt', 'Asmens duomenys: Aldona Senoji (R/1)', 'asmens-duomenys-R_1.json', 'asmens duomenys pašalinti'],
    ['en', 'Personal data: Aldona Senoji (R/1)', 'personal-data-R_1.json', 'personal data removed'],
  ] as const)(
    'saves an access request named in the UI language (%s); an anonymised occupant reads as such',
    async (language, button, file, removed) => {
      signIn(GROUP.operator);
      const api = stubApi([
        route(getFlatOccupancies, flat),
        route(getDeviceTypeLookUp, []),
        route(exportOccupantData, data),
      ]);
      const saved = savedFiles();
      await render(<OccupantsCard flatId={7} />, { language });
      const exportButton = await screen.findByRole('button', { name: button });
      // The spoken name starts with the visible text (axe label-content-name-mismatch, WCAG 2.5.3).
      expect(button.startsWith(exportButton.textContent!.trim())).toBe(true);
      expect(exportButton.getAttribute('title')).toMatch(language === 'lt' ? /^Išduoti viską/ : /^Export everything/);
      // The anonymised occupant: the marker is not shown as a name, the tag says what happened.
      expect(screen.getByText(removed)).toBeTruthy();
      expect(screen.queryByText(ANONYMISED)).toBeNull();
      exportButton.focus();
      fireEvent.click(exportButton);
      await waitFor(() => expect(saved).toEqual([file]));
      expect(api.sent.map((r) => `${r.method} ${r.path}`)).toContain('GET /api/occupancies/2/personal-data');
      expect(api.unanswered).toEqual([]);
    },
  );
});

const moveValue = (DeviceId: number, DeviceTypeId: number, Value: number) => ({
  DeviceId,
  DeviceCode: `D-${DeviceId}`,
  DeviceTypeId,
  Day: '2022-05-01',
  Value,
  Source: 'measured' as const,
  ReadingTime: null,
  NextReadingTime: null,
  Method: null,
  Reason: null,
  SetBy: null,
  PreviousValue: null,
  PreviousSource: null,
  ChangedAt: null,
  ComputedAt: '2026-11-26T08:00:00+02:00',
});

describe('the occupants card: details a person stumbles on', { timeout: 90_000 }, () => {
  it('shows an allocator’s moving-day value in whole units and a meter’s with three decimals', async () => {
    signIn(GROUP.operator);
    stubApi([
      route(getFlatOccupancies, {
        ...flat,
        Moves: [
          {
            Day: '2022-05-01',
            Values: [moveValue(31, DEVICE_TYPE.allocator, 412), moveValue(32, DEVICE_TYPE.coldWaterMeter, 12.5)],
          },
        ],
      }),
      route(getDeviceTypeLookUp, []),
    ]);
    await render(<OccupantsCard flatId={7} />);
    const allocator = (await screen.findByText('D-31')).closest('tr') as HTMLElement;
    expect(within(allocator).getByText('412')).toBeTruthy();
    expect(allocator.textContent).not.toContain('412,000');
    const meter = screen.getByText('D-32').closest('tr') as HTMLElement;
    expect(within(meter).getByText('12,500')).toBeTruthy();
  });

  it('says the account code’s limit instead of cutting what was typed', async () => {
    signIn(GROUP.operator);
    stubApi([route(getFlatOccupancies, flat), route(getDeviceTypeLookUp, [])]);
    await render(<OccupantsCard flatId={7} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Keisti: Aldona Senoji' }));
    const dialog = await screen.findByRole('dialog');
    const code = within(dialog).getByLabelText('Sąskaitos (kliento) kodas') as HTMLInputElement;
    const long = 'K'.repeat(CLIENT_CODE_MAX_LENGTH + 6);
    await userEvent.clear(code);
    await userEvent.type(code, long);
    expect(code.value).toBe(long);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Išsaugoti' }));
    expect(
      await within(dialog).findByText(`Sąskaitos kodas gali būti ne ilgesnis nei ${CLIENT_CODE_MAX_LENGTH} simbolių`),
    ).toBeTruthy();
  });
});
