import { type ReadingRow, readingColumns } from '@rodmenys/contract';
import lt from '../../../web/src/i18n/lt.json' with { type: 'json' };
import { baseURL, DEMO, expect, signIn, test } from '../fixtures';
import {
  columnTitle,
  dayIn,
  detail,
  detailRow,
  fixed,
  headerTitles,
  openScreen,
  period,
  pickType,
  place,
  readings,
  scrollDetailToTop,
  selectAll,
  shownTime,
  statusText,
  tickBuilding,
  typeRow,
  typesTable,
} from './screen';

// The device data screen (docs/device-data.md) walked in Chromium on the demo data: the
// manager (group 3) and the administrator (group 2) see the manager's building,
// which holds every device type and the demo's special cases. This file: the types, tree, found devices and the columns of each group.

test.describe('device data', () => {
  test('group 3 walks every device type: types, tree, found devices, detail with the exact column set', async ({
    page,
  }) => {
    const p = await place(DEMO.manager);
    expect(p.types.map((t) => t.Id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 11]);
    await signIn(page, DEMO.manager);
    await openScreen(page);
    // Nothing selected yet: the hint, no period, no found devices.
    await expect(page.getByText(lt.deviceData.tree.hint)).toBeVisible();
    await expect(page.locator('.ant-picker-range')).toHaveCount(0);
    await tickBuilding(page, p.title);
    // The default period: the first of this month to today.
    const { dateFrom, dateTill } = period();
    await expect(page.locator('.ant-picker-range input').first()).toHaveValue(dateFrom.slice(0, 10));
    await expect(page.locator('.ant-picker-range input').last()).toHaveValue(dateTill.slice(0, 10));
    const typeRows = typesTable(page).locator('.ant-table-row');
    await expect(typeRows).toHaveCount(p.types.length);
    for (const type of p.types) {
      await expect(typeRow(page, type.Id)).toContainText(type.DeviceTypeCode);
      await expect(typeRow(page, type.Id)).toContainText(type.DeviceTypeName);
      await expect(typeRow(page, type.Id)).toContainText(String(type.DeviceCount));
    }

    for (const type of p.types) {
      const rows = await readings(p, type.Id);
      await pickType(page, type.Id, rows.length);
      await selectAll(page);
      const expected = readingColumns(type, 3).filter((c) => c.visible);
      expect(await headerTitles(page)).toEqual(expected.map((c) => columnTitle(c)));
      await expect(detail(page)).toContainText(`Rodoma nuo 1 iki ${rows.length} iš ${rows.length}`);
      // The first row as the API answered it: 3 decimals, times to the minute.
      await scrollDetailToTop(page);
      const first = rows[0]!;
      const cells = await detailRow(page, first.DeviceCode).first().locator('.ant-table-cell').allTextContents();
      expect(cells.slice(1)).toEqual(
        expected.map((c) => {
          const v = first[c.key];
          if (c.kind === 'tags') return statusText(first);
          return c.kind === 'number'
            ? fixed(v as number | null)
            : c.kind === 'datetime'
              ? shownTime(v as string)
              : (v ?? '').toString();
        }),
      );
    }
    // The allocator set has no FlatDifference and no Qrad for group 3.
    await pickType(page, 1, (await readings(p, 1)).length);
    await selectAll(page);
    const titles = await headerTitles(page);
    expect(titles).not.toContain(lt.deviceData.columns.FlatDifference);
    expect(titles).not.toContain(lt.deviceData.columns.QradFrom);
  });

  test("the default period follows the provider's clock, wherever the browser is", async ({ browser }) => {
    // A browser zone whose date differs from the provider's right now (one of the two always does).
    const now = new Date();
    const timezoneId = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find((zone) => dayIn(now, zone) !== dayIn(now))!;
    const context = await browser.newContext({ baseURL: baseURL(), locale: 'lt-LT', timezoneId });
    try {
      const page = await context.newPage();
      const browserToday = await page.evaluate(() => new Date().toLocaleDateString('en-CA'));
      expect(browserToday).not.toBe(dayIn(new Date()));
      const p = await place(DEMO.manager);
      await signIn(page, DEMO.manager);
      await openScreen(page);
      await tickBuilding(page, p.title);
      const { dateFrom, dateTill } = period();
      await expect(page.locator('.ant-picker-range input').first()).toHaveValue(dateFrom.slice(0, 10));
      await expect(page.locator('.ant-picker-range input').last()).toHaveValue(dateTill.slice(0, 10));
    } finally {
      await context.close();
    }
  });

  test('group 2 sees the extra columns of types 1 and 2', async ({ page }) => {
    const p = await place(DEMO.admin);
    await signIn(page, DEMO.admin);
    await openScreen(page);
    await tickBuilding(page, p.title);
    for (const type of p.types.filter((t) => t.Id === 1 || t.Id === 2)) {
      await pickType(page, type.Id, (await readings(p, type.Id)).length);
      await selectAll(page);
      const titles = await headerTitles(page);
      expect(titles).toEqual(
        readingColumns(type, 2)
          .filter((c) => c.visible)
          .map((c) => columnTitle(c)),
      );
      const extras =
        type.Id === 1 ? ['QradFrom', 'QradTill', 'DifferenceQrad', 'FlatDifferenceQrad'] : ['FlatDifference'];
      for (const key of extras) expect(titles).toContain(lt.deviceData.columns[key as 'QradFrom']);
    }
    expect(p.types.some((t) => t.Id === 1)).toBe(true);
  });

  test('flags a silent device and a negative difference from the demo data, with the reason', async ({ page }) => {
    const p = await place(DEMO.manager);
    const byType = await Promise.all(p.types.map(async (t) => ({ type: t, rows: await readings(p, t.Id) })));
    const find = (flag: ReadingRow['Flags'][number]) => {
      for (const { type, rows } of byType) {
        const row = rows.find((r) => r.Flags.includes(flag));
        if (row) return { type, row, count: rows.length };
      }
      throw new Error(`no ${flag} row in the demo building`);
    };
    const silent = find('STALE');
    const negative = find('NEGATIVE');
    expect(negative.row.Difference!).toBeLessThan(0);
    await signIn(page, DEMO.manager);
    await openScreen(page);
    await tickBuilding(page, p.title);
    for (const { type, row, count } of [silent, negative]) {
      await pickType(page, type.Id, count);
      // Found devices mark it already.
      const found = page.locator('.ant-table-row.reading-danger', { hasText: row.DeviceCode });
      await expect(found).toBeVisible();
      await selectAll(page);
      // Filter to it, so that the virtual table draws it.
      await detail(page)
        .getByRole('textbox', {
          name: lt.deviceData.detail.filter.replace('{{column}}', lt.deviceData.columns.DeviceCode),
        })
        .fill(row.DeviceCode);
      const line = detailRow(page, row.DeviceCode);
      await expect(line).toHaveCount(1);
      await expect(line).toHaveClass(/reading-danger/);
      for (const flag of row.Flags) {
        await expect(line.getByRole('img', { name: new RegExp(lt.deviceData.flags[flag]) })).toBeVisible();
      }
      await line.getByRole('img', { name: new RegExp(lt.deviceData.flags[row.Flags[0]!]) }).hover();
      await expect(page.getByRole('tooltip', { name: lt.deviceData.flags[row.Flags[0]!] })).toBeVisible();
      // The flag and the meter status agree: a silent device is never "OK".
      await expect(line.locator('.status-tag')).toHaveText(statusText(row));
      if (row === silent.row) await expect(line.locator('.status-tag')).not.toHaveText(lt.deviceStatus.ok);
    }
  });
});
