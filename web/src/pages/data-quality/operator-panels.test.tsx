import {
  DEVICE_TYPE,
  type DqSetting,
  GROUP,
  getDeviceTypeLookUp,
  listDqSettings,
  updateDqSetting,
} from '@rodmenys/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { signIn } from '../../test/fixtures';
import { render } from '../../test/render';
import { SettingsCard } from './operator-panels';

const type = (Id: number, DeviceTypeName: string, DeviceTypeNameEn: string) => ({
  Id,
  DeviceTypeCode: `T${Id}`,
  DeviceTypeName,
  DeviceTypeNameEn,
  DeviceCategoryCode: 'heat',
  DataLoadProc: 'allocator' as const,
});

/** A server keeping the settings and storing what is saved, as the real one does. */
function server() {
  const settings: DqSetting[] = [
    { Key: 'silent.days', Value: { [DEVICE_TYPE.allocator]: 7 }, UpdatedAt: '2026-11-01T10:00:00+02:00' },
    { Key: 'monthEnd.toleranceDays', Value: 2.5, UpdatedAt: '2026-11-01T10:00:00+02:00' },
  ];
  return stubApi([
    route(getDeviceTypeLookUp, [
      type(DEVICE_TYPE.allocator, 'Daliklis', 'Allocator'),
      type(DEVICE_TYPE.heatMeter, 'Šilumos skaitiklis', 'Heat meter'),
    ]),
    route(listDqSettings, () => settings),
    route(updateDqSetting, (r) => {
      const found = settings.find((s) => s.Key === 'silent.days') as DqSetting;
      found.Value = (r.body as { value: unknown }).value;
      return found;
    }),
  ]);
}

afterEach(() => vi.unstubAllGlobals());

// antd's first render under jsdom is slow on a busy machine.
describe("the operator's settings", { timeout: 90_000 }, () => {
  it('shows days per device type by the type name and edits them as named fields', async () => {
    signIn(GROUP.operator);
    const api = server();
    await render(<SettingsCard />);
    const silent = (await screen.findByText('Daliklis: 7')).closest('tr') as HTMLElement;
    expect(silent.textContent).not.toContain('{');
    // Numbers in Lithuanian.
    expect(await screen.findByText('2,5')).toBeTruthy();

    await userEvent.click(within(silent).getByRole('button', { name: /^Redaguoti: / }));
    const dialog = await screen.findByRole('dialog');
    const heat = await within(dialog).findByLabelText('Šilumos skaitiklis');
    expect((within(dialog).getByLabelText('Daliklis') as HTMLInputElement).value).toBe('7');
    await userEvent.type(heat, '3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Išsaugoti' }));
    await waitFor(() =>
      expect(api.sent.find((r) => r.method === 'PUT')?.body).toEqual({
        value: { [DEVICE_TYPE.allocator]: 7, [DEVICE_TYPE.heatMeter]: 3 },
      }),
    );
    expect(await screen.findByText('Daliklis: 7; Šilumos skaitiklis: 3')).toBeTruthy();
  });
});
