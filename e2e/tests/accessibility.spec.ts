import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { type Language, type Role, richestBuilding, SCREENS, screenReady, settle, signInAs, TEXTS } from './screens';

// axe-core on every screen, as each demo role and in both languages: no critical or serious
// violation. Each role signs in once per language; each screen is scanned once per sign-in.
// The same walk checks the access table: a screen the role may not open is not in the menu and
// its address shows the one "not allowed" page.

type Violation = { screen: string; id: string; impact: string; help: string; targets: string[] };

async function scan(page: Page, screen: string, found: Violation[]) {
  const result = await new AxeBuilder({ page }).analyze();
  for (const v of result.violations) {
    if (v.impact !== 'critical' && v.impact !== 'serious') continue;
    found.push({
      screen,
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`.slice(0, 300)),
    });
  }
}

/** The device data screen with readings shown: a building, a type, every device selected. */
async function loadReadings(page: Page, role: Role, language: Language) {
  const t = TEXTS[language];
  const building = await richestBuilding(role);
  const box = page.getByRole('combobox', { name: t.deviceData.tree.label });
  await box.click();
  await box.fill(building.search);
  await page
    .locator('.ant-select-tree-treenode', { hasText: building.title })
    .first()
    .locator('.ant-select-tree-checkbox')
    .click();
  await page.keyboard.press('Escape');
  const types = page.locator('.ant-card', { hasText: t.deviceData.types.title }).locator('.ant-table-row');
  await types.first().click();
  await page.getByRole('button', { name: t.deviceData.found.selectAll }).click();
  await expect(page.getByRole('region', { name: t.deviceData.detail.title })).toBeVisible();
  await screenReady(page);
}

for (const language of ['lt', 'en'] as const) {
  const t = TEXTS[language];

  test(`axe: the sign-in and registration pages, ${language}`, async ({ page }) => {
    const found: Violation[] = [];
    await page.goto('/login');
    await page.getByRole('link', { name: language.toUpperCase(), exact: true }).click();
    await screenReady(page);
    await scan(page, 'login', found);
    // The form's messages after an empty submit.
    await page.getByRole('button', { name: t.login.submit }).click();
    await expect(page.getByText(t.login.usernameRequired)).toBeVisible();
    await scan(page, 'login errors', found);
    await page.goto('/register');
    await screenReady(page);
    await scan(page, 'register', found);
    expect(found).toEqual([]);
  });

  for (const role of ['operator', 'admin', 'manager'] as const) {
    test(`axe and access: every screen as ${role}, ${language}`, async ({ page }) => {
      // Ten screens and five readings states scanned: about a minute alone, several on a busy machine.
      test.setTimeout(360_000);
      const found: Violation[] = [];
      await signInAs(page, role, language);
      const nav = page.getByRole('navigation', { name: t.nav.main });
      for (const screen of SCREENS) {
        const allowed = (screen.roles as readonly Role[]).includes(role);
        if (screen.label) {
          await expect(nav.getByRole('link', { name: screen.label(t), exact: true })).toHaveCount(allowed ? 1 : 0);
        }
        await page.goto(screen.path);
        await screenReady(page);
        if (!allowed) {
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.notAllowed.title);
          await expect(page.getByText(t.notAllowed.text)).toBeVisible();
          continue;
        }
        await expect(page.getByRole('heading', { level: 1, name: t.notAllowed.title })).toHaveCount(0);
        await scan(page, screen.path, found);
      }
      // The not-allowed and not-found pages.
      await page.goto('/no-such-page');
      await screenReady(page);
      await scan(page, 'not found', found);
      if (role !== 'operator') {
        await page.goto('/masterData');
        await screenReady(page);
        await scan(page, 'not allowed', found);
      }
      // The readings screen with readings, its Columns box and a chart.
      await page.goto('/deviceData');
      await screenReady(page);
      await loadReadings(page, role, language);
      await scan(page, 'readings', found);
      await page.getByRole('button', { name: t.deviceData.detail.columns }).click();
      await expect(page.getByRole('checkbox').first()).toBeVisible();
      await settle(page);
      await scan(page, 'readings: columns', found);
      await page.keyboard.press('Escape');
      await page.locator('.readings-table .row-chart').first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await screenReady(page);
      await scan(page, 'readings: chart', found);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await page.getByRole('button', { name: t.deviceData.flagged.open }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await screenReady(page);
      await scan(page, 'readings: flagged devices', found);
      expect(found).toEqual([]);
    });
  }
}
