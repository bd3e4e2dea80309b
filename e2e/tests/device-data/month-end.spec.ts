import { addDevice, getDeviceDataByUserId, getUnmeasuredMonthEnds } from '@rodmenys/contract';
import lt from '../../../web/src/i18n/lt.json' with { type: 'json' };
import { api, DEMO, expect, session, signIn, test } from '../fixtures';
import { dayIn, detail, detailRow, detailRows, openScreen, place, selectAll, tickBuilding, typeRow } from './screen';

// The device data screen (docs/device-data.md) walked in Chromium on the demo data: the
// manager (group 3) and the administrator (group 2) see the manager's building,
// which holds every device type and the demo's special cases. This file: a period's month-end mark.

test.describe('device data', () => {
  test('a period ending at a month end without a measured reading marks the row with the month-end value', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    // A cold water meter installed on the 3rd of last month with one reading then: its value at the
    // end of last month is estimated by the scheduled run (the reading is weeks older than the month end).
    const p = await place(DEMO.manager);
    const operator = await session(DEMO.operator);
    const flat = (await api(getDeviceDataByUserId, { token: p.me.Token })).body.find(
      (d) => d.Flat !== null && d.ParentLocationId === p.buildingId,
    )!;
    const today = dayIn(new Date());
    const lastMonth = dayIn(new Date(Date.now() - Number(today.slice(8, 10)) * 86_400_000)).slice(0, 7);
    const serial = `E2E-ME-${Date.now()}`;
    const added = await api(addDevice, {
      token: operator.Token,
      body: {
        locationId: flat.LocationId,
        deviceTypeId: 3,
        deviceCode: serial,
        installedAt: `${lastMonth}-03T12:00`,
        initialReading: 7.25,
      },
    });
    expect(added.status).toBe(201);
    let monthEnd: { Value: number; Source: keyof typeof lt.anomalies.sources } | undefined;
    await expect
      .poll(
        async () => {
          const res = await api(getUnmeasuredMonthEnds, {
            query: { month: lastMonth, deviceTypeId: 3, locationParentId: String(p.buildingId) },
            token: p.me.Token,
          });
          monthEnd = res.body.find((m) => m.DeviceId === added.body.DeviceId);
          return monthEnd?.Source;
        },
        { timeout: 150_000, intervals: [2_000] },
      )
      .toBeTruthy();

    await signIn(page, DEMO.manager);
    await openScreen(page);
    await tickBuilding(page, p.title);
    const preset = page.getByRole('combobox', { name: lt.deviceData.period.preset });
    await preset.click();
    await page.locator('.ant-select-item-option', { hasText: lt.deviceData.period.lastMonth }).click();
    await typeRow(page, 3).click();
    await selectAll(page);
    await detail(page)
      .getByRole('textbox', {
        name: lt.deviceData.detail.filter.replace('{{column}}', lt.deviceData.columns.DeviceCode),
      })
      .fill(serial);
    await expect(detailRows(page)).toHaveCount(1);
    const mark = detailRow(page, serial).getByRole('img', {
      name: lt.deviceData.monthEnd.end
        .replace('{{month}}', lastMonth)
        .replace('{{value}}', monthEnd!.Value.toFixed(3))
        .replace('{{source}}', lt.anomalies.sources[monthEnd!.Source]),
    });
    await expect(mark).toBeVisible();
  });
});
