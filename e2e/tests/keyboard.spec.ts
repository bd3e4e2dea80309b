import type { Locator, Page } from '@playwright/test';
import { expect, tabTo, test } from './fixtures';
import { type Language, type Role, richestBuilding, TEXTS } from './screens';

// The readings flow with the keyboard alone: every step below is keyboard.press or keyboard.type
// (plus page.goto for the first address). No click, no mouse.

const focused = (page: Page) => page.locator('*:focus');

for (const [role, language] of [
  ['manager', 'lt'],
  ['admin', 'en'],
] as [Role, Language][]) {
  const t = TEXTS[language];
  test(`keyboard only: the readings flow as ${role}, ${language}`, async ({ page }) => {
    test.setTimeout(240_000);
    const mouse = await page.evaluate(() => 0);
    expect(mouse).toBe(0);
    // Any pointer event in the page fails the test.
    await page.addInitScript(() => {
      for (const type of ['mousedown', 'click', 'pointerdown'] as const) {
        window.addEventListener(
          type,
          (event) => {
            // A keyboard "click" (Enter or Space on a button) has no pointer position and detail 0.
            if ((event as MouseEvent).detail > 0 || (event as PointerEvent).pointerType)
              (window as unknown as { pointerUsed: string }).pointerUsed = type;
          },
          true,
        );
      }
    });
    const building = await richestBuilding(role);

    // Sign in: the language link, the two fields, Enter.
    await page.goto('/login');
    await tabTo(page, page.getByRole('link', { name: language.toUpperCase(), exact: true }));
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByLabel(t.login.username));
    await page.keyboard.type(role);
    await page.keyboard.press('Tab');
    await page.keyboard.type('demo1234');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // The new screen starts the focus at its top; the skip link is the first Tab stop and lands on the content.
    await expect(page.locator('.focus-top')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(focused(page)).toHaveText(t.nav.skipToContent);
    await page.keyboard.press('Enter');
    await expect(focused(page)).toHaveAttribute('id', 'content');

    // The menu: Shift+Tab back from the content to the Device data link.
    await tabTo(page, page.getByRole('navigation').getByRole('link', { name: t.nav.deviceData }), { back: true });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: t.nav.deviceData })).toBeVisible();

    // Buildings: search the tree, tick the building with Enter.
    await tabTo(page, page.getByRole('combobox', { name: t.deviceData.tree.label }));
    await page.keyboard.type(building.search);
    const node = page.locator('.ant-select-tree-treenode', { hasText: building.title }).first();
    await expect(node).toBeVisible();
    for (
      let i = 0;
      i < 20 && !(await node.evaluate((el) => el.classList.contains('ant-select-tree-treenode-active')));
      i++
    )
      await page.keyboard.press('ArrowDown');
    // What a screen reader hears for the active node: its title, not an internal key such as "l57".
    await expect(page.locator('span[aria-live="assertive"]')).toHaveText(building.title);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect(page.locator('.ant-select-selection-item', { hasText: building.title })).toBeVisible();

    // A type: its row takes the focus, Enter picks it.
    const typeRow = page
      .locator('.ant-card', { hasText: t.deviceData.types.title })
      .locator('.ant-table-row[data-row-key="3"]');
    await tabTo(page, typeRow);
    await page.keyboard.press('Enter');
    await expect(typeRow).toHaveClass(/picked-row/);
    const found = page.getByText(new RegExp(t.deviceData.found.title.replace('{{count}}', '\\d+')));
    await expect(found).toBeVisible();

    // A preset period from the select: open it, walk to "last month", Enter.
    await tabTo(page, page.getByRole('combobox', { name: t.deviceData.period.preset }));
    await page.keyboard.press('ArrowDown');
    const lastMonth = page.locator('.ant-select-item-option', { hasText: t.deviceData.period.lastMonth });
    await expect(lastMonth).toBeVisible();
    for (
      let i = 0;
      i < 10 && !(await lastMonth.evaluate((el) => el.classList.contains('ant-select-item-option-active')));
      i++
    )
      await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const today = new Date();
    const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
    await expect(page.locator('.ant-picker-range input').first()).toHaveValue(first);

    // Devices: Select all.
    await tabTo(page, page.getByRole('button', { name: t.deviceData.found.selectAll }));
    await page.keyboard.press('Enter');
    const detail = page.getByRole('region', { name: t.deviceData.detail.title });
    await expect(detail).toBeVisible();

    // A column: the Columns button opens its box, Tab reaches the first box, Space ticks it.
    const columnsButton = detail.getByRole('button', { name: t.deviceData.detail.columns });
    await tabTo(page, columnsButton);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(focused(page)).toHaveAttribute('type', 'checkbox');
    await expect(detail.locator('.column-title', { hasText: t.deviceData.columns.City })).toHaveCount(0);
    await page.keyboard.press('Space');
    await expect(detail.locator('.column-title', { hasText: t.deviceData.columns.City })).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(columnsButton).toBeFocused();

    // A filter: the device code box, typed.
    const rows = page.locator('.readings-table .ant-table-row');
    await expect(rows.first()).toBeVisible();
    const titles = (await detail.locator('.column-title').allTextContents()).map((s) => s.trim());
    const codeCell = rows
      .first()
      .locator('.ant-table-cell')
      .nth(titles.indexOf(t.deviceData.columns.DeviceCode) + 1);
    const code = (await codeCell.textContent())!.trim();
    const filter = detail.getByRole('textbox', {
      name: t.deviceData.detail.filter.replace('{{column}}', t.deviceData.columns.DeviceCode),
    });
    await tabTo(page, filter);
    await page.keyboard.type(code);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(code);

    // The export: Enter on the Excel button downloads the file.
    await tabTo(page, detail.getByRole('button', { name: /Excel/ }), { back: true });
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe('deviceData.xlsx');

    // A chart: the row's chart button, Enter; Escape closes it.
    await tabTo(page, rows.first().locator('.row-chart'));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(code);
    await expect(dialog.locator('.recharts-surface, .ant-empty').first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    // The flagged devices of every type, one step from the screen.
    await tabTo(page, page.getByRole('button', { name: t.deviceData.flagged.open }), { back: true });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toContainText(t.deviceData.flagged.count.split('{{')[0]!);
    await page.keyboard.press('Escape');

    expect(await page.evaluate(() => (window as unknown as { pointerUsed?: string }).pointerUsed)).toBeUndefined();
  });
}
