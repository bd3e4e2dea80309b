import {
  type CampaignDetail,
  DEVICE_TYPE,
  GROUP,
  getCampaign,
  getDeviceTypeLookUp,
  recordNoAccess,
  sendCampaignNotices,
} from '@rodmenys/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../i18n/en.json';
import lt from '../../i18n/lt.json';
import { route, stubApi } from '../../test/api-stub';
import { signIn } from '../../test/fixtures';
import { render } from '../../test/render';
import { CampaignsTab } from './campaigns-tab';

const campaign: CampaignDetail = {
  Id: 5,
  Name: 'Keitimas 2030',
  StartedOn: '2026-11-27',
  CreatedBy: 'Ona Onaitė',
  BuildingCount: 1,
  Counts: { Planned: 2, Done: 1, NoAccess: 0, Open: 1 },
  Buildings: [
    {
      BuildingId: 40,
      Address: 'Kaunas, Ąžuolų g. 1',
      Visit: { Day: '2030-03-05', From: '09:00', To: '12:00' },
      Counts: { Planned: 2, Done: 1, NoAccess: 0, Open: 1 },
      Mailed: 3,
      Printed: 1,
      Devices: [
        {
          DeviceId: 71,
          Flat: '1',
          FlatOrder: 1,
          DeviceTypeId: DEVICE_TYPE.coldWaterMeter,
          DeviceCode: 'CW-1',
          State: 'done',
          DoneHow: 'replaced',
          DoneOn: '2026-11-28',
          NewDeviceCode: 'CW-1-NEW',
          NoAccess: [],
        },
        {
          DeviceId: 72,
          Flat: '2',
          FlatOrder: 2,
          DeviceTypeId: DEVICE_TYPE.coldWaterMeter,
          DeviceCode: 'CW-2',
          State: 'open',
          DoneHow: null,
          DoneOn: null,
          NewDeviceCode: null,
          NoAccess: [],
        },
      ],
    },
  ],
};

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/{{(\w+)}}/g, (_, k: string) => String(values[k]));

afterEach(() => vi.unstubAllGlobals());

describe('a campaign (GET /campaigns/:id)', { timeout: 90_000 }, () => {
  it('group 2 reads it and records a visit without access on the visit day, without the managing actions (lt)', async () => {
    signIn(GROUP.admin);
    // Who created it (an operator) is not told to group 2: null, and nothing shows in its place.
    const api = stubApi([
      route(getCampaign, { ...campaign, CreatedBy: null }),
      route(getDeviceTypeLookUp, []),
      route(recordNoAccess, (r) => ({
        Id: 1,
        Day: (r.body as { day: string }).day,
        Reason: (r.body as { reason: string }).reason,
        RecordedAt: '2030-03-05T10:00:00+02:00',
        RecordedBy: 'Ona Onaitė',
      })),
    ]);
    await render(<CampaignsTab openId={5} onOpen={() => {}} />, { language: 'lt' });
    expect(await screen.findByRole('heading', { name: 'Keitimas 2030' })).toBeTruthy();
    expect(screen.getByText(`${lt.campaigns.started}: 2026-11-27`, { exact: false }).textContent).not.toMatch(
      /\(|null/,
    );
    expect(screen.getByText(fill(lt.campaigns.doneHow.replaced, { code: 'CW-1-NEW', day: '2026-11-28' }))).toBeTruthy();
    expect(screen.queryByRole('button', { name: lt.campaigns.sendNotices })).toBeNull();
    expect(
      screen.queryByRole('button', { name: fill(lt.campaigns.planOf, { address: 'Kaunas, Ąžuolų g. 1' }) }),
    ).toBeNull();
    // A done device has no button; the open one has.
    expect(
      screen.queryByRole('button', { name: fill(lt.campaigns.recordNoAccessNamed, { serial: 'CW-1' }) }),
    ).toBeNull();
    await userEvent.click(
      screen.getByRole('button', { name: fill(lt.campaigns.recordNoAccessNamed, { serial: 'CW-2' }) }),
    );
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText(lt.campaigns.noAccessDay) as HTMLInputElement).value).toBe('2030-03-05');
    await userEvent.type(within(dialog).getByLabelText(lt.campaigns.noAccessReason), 'Niekas neatidarė');
    await userEvent.click(within(dialog).getByRole('button', { name: lt.common.save }));
    await vi.waitFor(() =>
      expect(api.sent.find((s) => s.method === 'POST')).toMatchObject({
        path: '/api/campaigns/5/devices/72/no-access',
        body: { day: '2030-03-05', reason: 'Niekas neatidarė' },
      }),
    );
    expect(api.unanswered).toEqual([]);
  });

  it('group 1 sends the notices and is told the counts (en)', async () => {
    signIn(GROUP.operator);
    const api = stubApi([
      route(getCampaign, campaign),
      route(getDeviceTypeLookUp, []),
      route(sendCampaignNotices, { Mailed: 2, Failed: 1, Printed: 1, AlreadyTold: 4 }),
    ]);
    await render(<CampaignsTab openId={5} onOpen={() => {}} />, { language: 'en' });
    await userEvent.click(await screen.findByRole('button', { name: en.campaigns.sendNotices }));
    expect(screen.getByText(`${en.campaigns.started}: 2026-11-27`, { exact: false }).textContent).toContain(
      '(Ona Onaitė)',
    );
    expect(
      await screen.findByText(fill(en.campaigns.sent, { mailed: 2, printed: 1, failed: 1, already: 4 })),
    ).toBeTruthy();
    expect(api.unanswered).toEqual([]);
  });
});
