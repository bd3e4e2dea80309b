import { type DqSetting, GROUP, getDeviceTypeLookUp, listDqSettings } from '@rodmenys/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { signIn } from '../../test/fixtures';
import { render } from '../../test/render';
import { SettingsCard } from './operator-panels';

const settings: DqSetting[] = [{ Key: 'monthEnd.toleranceDays', Value: 2.5, UpdatedAt: '2026-11-01T10:00:00+02:00' }];

afterEach(() => vi.unstubAllGlobals());

// antd's first render under jsdom is slow on a busy machine.
describe('a setting refused by the server', { timeout: 90_000 }, () => {
  it('says why at the field; emptying the field replaces the refusal with what the field needs', async () => {
    signIn(GROUP.operator);
    stubApi([route(getDeviceTypeLookUp, []), route(listDqSettings, () => settings)]);
    // The server refuses the value (a 400 naming the setting, as the real one answers).
    const answer = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'PUT'
        ? new Response(
            JSON.stringify({
              code: 'settingNumber',
              message: 'monthEnd.toleranceDays must be a number from 0 to 31',
              params: { key: 'monthEnd.toleranceDays', min: '0', max: '31' },
            }),
            { status: 400, headers: { 'Content-Type': 'application/json' } },
          )
        : answer(input, init),
    );
    await render(<SettingsCard />);
    const row = (await screen.findByText('2,5')).closest('tr') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: /^Redaguoti: / }));
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByRole('textbox');
    await userEvent.clear(field);
    await userEvent.type(field, '99');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Išsaugoti' }));
    const refusal = /turi būti skaičius nuo 0 iki 31/;
    expect(await within(dialog).findByText(refusal)).toBeTruthy();

    await userEvent.clear(field);
    await waitFor(() => expect(within(dialog).queryByText(refusal)).toBeNull());
    expect(await within(dialog).findByText('Įveskite reikšmę')).toBeTruthy();
  });
});
