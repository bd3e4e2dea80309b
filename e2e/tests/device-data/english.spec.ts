import { readingColumns } from '@rodmenys/contract';
import en from '../../../web/src/i18n/en.json' with { type: 'json' };
import lt from '../../../web/src/i18n/lt.json' with { type: 'json' };
import { DEMO, expect, signIn, test } from '../fixtures';
import {
  columnTitle,
  detail,
  headerTitles,
  openScreen,
  pickType,
  place,
  readings,
  selectAll,
  tickBuilding,
  typesTable,
} from './screen';

// The device data screen (docs/device-data.md) walked in Chromium on the demo data: the
// manager (group 3) and the administrator (group 2) see the manager's building,
// which holds every device type and the demo's special cases. This file: the screen in English.

test.describe('device data', () => {
  test('in English: headings, columns, presets, a Monday-first calendar', async ({ page }) => {
    const p = await place(DEMO.manager);
    const rows = await readings(p, 3);
    await signIn(page, DEMO.manager);
    await page.getByRole('link', { name: 'EN', exact: true }).click();
    await openScreen(page, en);
    await expect(page.getByText(en.deviceData.types.title)).toBeVisible();
    await tickBuilding(page, p.title, en);
    await pickType(page, 3, rows.length, en);
    await selectAll(page, en);
    expect(await headerTitles(page)).toEqual(
      readingColumns(p.types.find((t) => t.Id === 3)!, 3)
        .filter((c) => c.visible)
        .map((c) => columnTitle(c, en)),
    );
    await expect(detail(page, en)).toContainText(`Showing 1 to ${rows.length} of ${rows.length}`);
    await expect(typesTable(page, en)).toContainText('Cold water meter');

    await page.locator('.ant-picker-range').click();
    for (const preset of ['today', 'yesterday', 'currentMonth', 'currentYear', 'lastMonth'] as const) {
      await expect(page.locator('.ant-picker-presets')).toContainText(en.deviceData.period[preset]);
    }
    const weekdays = await page.locator('.ant-picker-panel').first().locator('thead th').allTextContents();
    expect(weekdays).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);

    // Back to Lithuanian: Monday first too, Lithuanian presets.
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'LT', exact: true }).click();
    await page.locator('.ant-picker-range').click();
    await expect(page.locator('.ant-picker-presets')).toContainText(lt.deviceData.period.lastMonth);
    const ltWeekdays = await page.locator('.ant-picker-panel').first().locator('thead th').allTextContents();
    // Pirmadienis, antradienis, … sekmadienis.
    expect(ltWeekdays.map((d) => d.toLowerCase())).toEqual(['p', 'a', 't', 'k', 'pn', 'š', 's']);
  });
});
