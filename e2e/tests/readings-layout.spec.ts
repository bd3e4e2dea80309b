import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openFirstFlat, type Role, richestBuilding, screenReady, settle, signInAs, TEXTS } from './screens';

// The consumption in view: at a laptop and a tablet size the readings table's Difference and the
// flat's total are inside the viewport without any sideways scrolling, for every device type, and
// the table's horizontal scrollbar leaves its last row readable.

const SIZES = [
  { width: 1440, height: 900 },
  { width: 768, height: 1024 },
] as const;
const lt = TEXTS.lt;

async function chooseBuilding(page: Page, role: Role) {
  const building = await richestBuilding(role);
  const box = page.getByRole('combobox', { name: lt.deviceData.tree.label });
  await box.click();
  await box.fill(building.search);
  await page
    .locator('.ant-select-tree-treenode', { hasText: building.title })
    .first()
    .locator('.ant-select-tree-checkbox')
    .click();
  await page.keyboard.press('Escape');
}

/** The header cell of a column of the readings table, by its title. */
const header = (page: Page, title: string) =>
  page
    .locator('.readings-table thead th')
    .filter({ has: page.locator('.column-title', { hasText: new RegExp(`^${title}$`) }) });

for (const size of SIZES) {
  for (const role of ['manager', 'admin'] as const) {
    test(`Difference and the flat total in view at ${size.width}×${size.height}, as ${role}`, async ({ page }) => {
      test.setTimeout(240_000);
      await page.setViewportSize(size);
      await signInAs(page, role, 'lt');
      await page.goto('/deviceData');
      await screenReady(page);
      await chooseBuilding(page, role);
      const types = page.locator('.ant-card', { hasText: lt.deviceData.types.title }).locator('.ant-table-row');
      await expect(types.first()).toBeVisible();
      let checkedFlatTotal = false;
      // The widest sets: allocators (administrators: three totals), water meters, administrators' heat meters.
      for (const typeId of role === 'manager' ? [1, 3] : [1, 2]) {
        await types.and(page.locator(`[data-row-key="${typeId}"]`)).click();
        await page.getByRole('button', { name: lt.deviceData.found.selectAll }).click();
        await expect(page.getByRole('region', { name: lt.deviceData.detail.title })).toBeVisible();
        await screenReady(page);
        const panel = page.locator('.readings-table');
        await panel.scrollIntoViewIfNeeded();
        const titles = (await page.locator('.readings-table .column-title').allTextContents()).map((s) => s.trim());
        const totals = [
          lt.deviceData.columns.Difference,
          lt.deviceData.columns.FlatDifference,
          lt.deviceData.columns.FlatDifferenceQrad,
        ].filter((title) => titles.includes(title));
        expect(totals).toContain(lt.deviceData.columns.Difference);
        if (totals.length > 1) checkedFlatTotal = true;
        for (const title of totals) {
          const box = (await header(page, title).boundingBox())!;
          expect(box, title).not.toBeNull();
          expect(box.x, `${title} starts inside the viewport`).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width, `${title} ends inside the viewport`).toBeLessThanOrEqual(size.width);
          // The first row's value too, not just the header.
          const cell = page
            .locator('.readings-table .ant-table-row')
            .first()
            .locator('.ant-table-cell')
            .nth(titles.indexOf(title) + 1);
          const cellBox = (await cell.boundingBox())!;
          expect(cellBox.x + cellBox.width, `${title} value`).toBeLessThanOrEqual(size.width);
          await expect(cell).toBeInViewport();
        }
        // Nothing was scrolled sideways: neither the page nor the table.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
        expect(await page.evaluate(() => window.scrollX)).toBe(0);
        expect(
          await page.locator('.readings-table .ant-table-tbody-virtual-holder').evaluate((el) => el.scrollLeft),
        ).toBe(0);
        await lastRowClearOfScrollbar(page);
      }
      // The flat total exists for water meters (everyone) and heat meters (administrators).
      expect(checkedFlatTotal).toBe(true);
    });
  }
}

/** Scrolls the table to its end: the last row's bottom is above the horizontal scrollbar. */
async function lastRowClearOfScrollbar(page: Page) {
  const holder = page.locator('.readings-table .ant-table-tbody-virtual-holder');
  // Twice: the virtual list measures the rows it draws at the end and may grow by their real heights.
  for (let i = 0; i < 3; i++) {
    await holder.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await settle(page);
    await page.waitForTimeout(150);
  }
  const rows = page.locator('.readings-table .ant-table-row');
  const last = (await rows.last().boundingBox())!;
  const bar = page.locator('.readings-table .ant-table-tbody-virtual-scrollbar-horizontal');
  if ((await bar.count()) === 0 || !(await bar.isVisible())) return;
  const barBox = (await bar.boundingBox())!;
  expect(last.y + last.height, 'the last row ends above the horizontal scrollbar').toBeLessThanOrEqual(barBox.y + 0.5);
}

/** Every button of the first row with an action is inside the viewport, without scrolling sideways. */
async function actionsInView(page: Page, rows: ReturnType<Page['locator']>, width: number, least = 2) {
  const row = rows.filter({ has: page.getByRole('button') }).first();
  await expect(row).toBeVisible();
  const buttons = await row.getByRole('button').all();
  expect(buttons.length).toBeGreaterThanOrEqual(least);
  for (const button of buttons) {
    const box = await button.boundingBox();
    expect(box, (await button.textContent()) ?? '').not.toBeNull();
    expect(box!.x, (await button.textContent()) ?? '').toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, (await button.textContent()) ?? '').toBeLessThanOrEqual(width);
  }
}

for (const size of SIZES) {
  test(`every row action of Users, Master data's devices and Anomalies in view at ${size.width}×${size.height}`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    await signInAs(page, 'operator', 'lt');
    await page.goto('/users');
    await screenReady(page);
    await actionsInView(page, page.locator('.users-table tbody tr.ant-table-row'), size.width);

    await page.goto('/masterData');
    await screenReady(page);
    await page.getByRole('tab', { name: lt.masterData.tabTree }).click();
    await openFirstFlat(page);
    await actionsInView(page, page.getByRole('table').locator('tbody tr.ant-table-row'), size.width);

    // Anomalies: a listed anomaly's actions, and the operator's settings.
    await page.goto('/anomalies');
    await screenReady(page);
    await actionsInView(
      page,
      page.locator('tbody tr.ant-table-row').filter({ hasText: lt.anomalies.states.open }),
      size.width,
    );
    const settings = page
      .locator('.ant-card', { hasText: lt.anomalies.settings.title })
      .locator('tbody tr.ant-table-row');
    await actionsInView(page, settings.filter({ hasText: 'sentinel.values' }), size.width, 1);
  });
}
