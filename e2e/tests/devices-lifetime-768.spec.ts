import type { Locator, Page } from '@playwright/test';
import { expect, tabTo, test } from './fixtures';
import { screenReady, settle, signInAs, TEXTS } from './screens';

// The Devices page at 768 px (docs/device-lifetime.md, docs/accessibility.md): on each tab the page
// never scrolls sideways, a table wider than the window scrolls inside its own box, and the tab's
// actions are reached by keyboard and shown inside the window.

const WIDTH = 768;

/** The page is not scrolled sideways and cannot be: nothing is wider than the window. */
const pageWidth = (page: Page) =>
  page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));

/** The tab panel's table: its content box scrolls sideways by itself and ends inside the window. */
async function tableScrollsInside(panel: Locator) {
  const box = panel.locator('.ant-table-content').first();
  await expect(box).toBeVisible();
  const overflow = await box.evaluate((el) => getComputedStyle(el).overflowX);
  expect(['auto', 'scroll']).toContain(overflow);
  const bounds = await box.boundingBox();
  expect(bounds!.x).toBeGreaterThanOrEqual(0);
  expect(bounds!.x + bounds!.width).toBeLessThanOrEqual(WIDTH + 0.5);
}

/** A control reached by Tab has the focus and is inside the window. */
async function reachedInside(page: Page, control: Locator) {
  await tabTo(page, control);
  await expect(control).toBeFocused();
  const bounds = await control.boundingBox();
  expect(bounds!.x).toBeGreaterThanOrEqual(0);
  expect(bounds!.x + bounds!.width).toBeLessThanOrEqual(WIDTH + 0.5);
}

test.describe('devices over their lifetime at 768 px', () => {
  test.use({ viewport: { width: WIDTH, height: 1024 } });

  for (const language of ['lt', 'en'] as const) {
    test(`due list, register and walk-by list fit 768 px, tables scroll inside, actions by keyboard, ${language}`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const t = TEXTS[language];
      await signInAs(page, 'operator', language);
      await page.goto('/devices');
      await expect(page.getByRole('heading', { level: 1, name: t.nav.devices })).toBeVisible();
      await screenReady(page);

      // The due list: its export and the fitter's work list reached by Tab.
      let panel = page.getByRole('tabpanel');
      await expect(panel.getByRole('row').nth(1)).toBeVisible();
      expect((await pageWidth(page)).scroll).toBeLessThanOrEqual(WIDTH);
      await tableScrollsInside(panel);
      await reachedInside(page, panel.getByRole('button', { name: t.lifetime.workList }));

      // The register: the first building's exception note button reached by Tab.
      await page.getByRole('tab', { name: t.lifetime.dueTab }).focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('tab', { name: t.lifetime.registerTab })).toHaveAttribute('aria-selected', 'true');
      panel = page.getByRole('tabpanel');
      await expect(panel.getByRole('row').nth(1)).toBeVisible();
      await settle(page);
      expect((await pageWidth(page)).scroll).toBeLessThanOrEqual(WIDTH);
      await tableScrollsInside(panel);
      await reachedInside(
        page,
        panel.getByRole('button', { name: new RegExp(`^${t.lifetime.editException}: `) }).first(),
      );

      // The walk-by list: its months field reached by Tab.
      await page.getByRole('tab', { name: t.lifetime.registerTab }).focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      const months = page.getByLabel(t.lifetime.walkByMonths);
      await expect(months).toBeVisible();
      await settle(page);
      expect((await pageWidth(page)).scroll).toBeLessThanOrEqual(WIDTH);
      await reachedInside(page, months);
    });
  }
});
