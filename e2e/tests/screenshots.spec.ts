import type { Page } from '@playwright/test';
import { DEMO, expect, signIn, test } from './fixtures';
import { figuresReady, lastMonth, openFirstFlat, signInAs, TEXTS } from './screens';

const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const TEXT = {
  lt: { locationData: 'Vietovių duomenys', users: 'Vartotojai', rights: 'Teisės', select: 'Pasirinkti' },
  en: { locationData: 'Location data', users: 'Users', rights: 'Rights', select: 'Select' },
} as const;

/** Every screen in both languages at a laptop and a phone size, into e2e/.artifacts/screens/ (to look at). */
for (const language of ['lt', 'en'] as const) {
  for (const size of SIZES) {
    test(`screenshots: ${language}, ${size.name}`, async ({ page }) => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.setViewportSize({ width: size.width, height: size.height });
      const shot = async (name: string) => {
        await expect(page.locator('.page-title, .ant-result-title').first()).toBeVisible();
        await page.waitForLoadState('networkidle');
        await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
        await settle(page);
        await page.screenshot({ path: `.artifacts/screens/${language}-${size.name}-${name}.png`, fullPage: true });
      };
      const t = TEXT[language];
      await page.goto('/login');
      if (language === 'en') await page.getByRole('link', { name: 'EN', exact: true }).click();
      await page.getByRole('button', { name: language === 'en' ? 'Log in' : 'Prisijungti' }).click();
      await shot('login');
      await page.goto('/register');
      await shot('register');
      await signIn(page, DEMO.operator, language);
      await shot('home');
      const go = async (path: string) => {
        await page.goto(path);
        await expect(page.locator('h1')).toBeVisible();
      };
      await go('/profile');
      await shot('profile');
      await go('/users');
      await shot('users');
      await page.getByRole('button', { name: t.rights }).first().click();
      await expect(page.getByRole('dialog').getByRole('combobox')).toBeVisible();
      await expect(page.locator('.ant-modal-wrap [class*="-appear"], .ant-modal-wrap [class*="-enter"]')).toHaveCount(
        0,
      );
      await shot('users-rights');
      await page.keyboard.press('Escape'); // static: the dialog stays
      await page
        .getByRole('dialog')
        .getByRole('button', { name: language === 'en' ? 'Cancel' : 'Atšaukti' })
        .click();
      await go('/myObjects');
      await page
        .getByRole('button', { name: new RegExp(`^${t.select}: `) })
        .first()
        .click();
      await shot('my-objects');
      await go('/locationData');
      await page.getByRole('table').first().locator('tbody tr.ant-table-row').first().click();
      await expect(page.locator('.ant-collapse tbody tr.ant-table-row').first()).toBeVisible();
      await shot('location-data');
      await go('/deviceData');
      await shot('device-data');
      await showReadings(page, language);
      await shot('device-data-readings');
      await page.getByRole('button', { name: TEXTS[language].deviceData.flagged.open }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await shot('device-data-flagged');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      // A chart of the first row: the month end at the period's start marked by its source.
      await page.locator('.readings-table .row-chart').first().click();
      await expect(page.getByRole('dialog').locator('.recharts-legend-wrapper')).toBeVisible();
      await shot('device-data-chart');
      await page
        .getByRole('dialog')
        .getByRole('button', { name: language === 'en' ? 'Close' : 'Uždaryti' })
        .click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await go('/masterData');
      await shot('master-data');
      await go('/audit');
      await shot('audit');
      await go('/collectors');
      await shot('collectors');
      await go('/anomalies');
      await shot('anomalies');
      await page.goto('/dashboard/v2');
      await expect(page.getByRole('button', { name: language === 'en' ? 'Go home' : 'Į pradžią' })).toBeVisible();
      await shot('not-found');
      await openPhoneMenu(page, size.name === 'phone');
      expect(errors).toEqual([]);
    });
  }
}

/**
 * The screens of the monthly job (statements, a flat's statement, anomalies, collectors,
 * integrations, a flat's occupants) in both languages at a desktop's and a tablet's size, into
 * e2e/.artifacts/screens/ as `<lang>-<size>-monthly-<screen>.png` (to look at).
 */
for (const language of ['lt', 'en'] as const) {
  for (const size of SIZES.filter((s) => s.name !== 'phone')) {
    test(`screenshots of the monthly job: ${language}, ${size.name}`, async ({ page }) => {
      test.setTimeout(180_000);
      const t = TEXTS[language];
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.setViewportSize({ width: size.width, height: size.height });
      const shot = async (name: string) => {
        await page.waitForLoadState('networkidle');
        await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
        await settle(page);
        await page.screenshot({
          path: `.artifacts/screens/${language}-${size.name}-monthly-${name}.png`,
          fullPage: true,
        });
      };
      await figuresReady('operator');
      await signInAs(page, 'operator', language);
      await page.goto(`/statements?month=${lastMonth()}`);
      await expect(page.locator('.statements-table .ant-table-row').first()).toBeVisible();
      await shot('statements');
      await page.locator('.statements-table .ant-table-row').first().getByRole('button').first().click();
      const drawer = page.getByRole('dialog').filter({ hasText: t.statements.statementTitle });
      await expect(drawer.getByText(t.statements.chartHistory)).toBeVisible();
      await shot('flat-statement');
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();
      await page.goto('/anomalies');
      await expect(page.locator('h1')).toBeVisible();
      await shot('anomalies');
      await page.goto('/collectors');
      await expect(page.locator('h1')).toBeVisible();
      await shot('collectors');
      await page.goto('/integrations');
      await expect(page.locator('h1')).toBeVisible();
      await shot('integrations');
      await page.goto('/masterData');
      await page.getByRole('tab', { name: t.masterData.tabTree }).click();
      await openFirstFlat(page);
      await expect(page.getByRole('button', { name: t.occupancies.recordMove })).toBeVisible();
      await expect(page.locator('.ant-skeleton')).toHaveCount(0);
      await shot('occupancies');
      expect(errors).toEqual([]);
    });
  }
}

async function openPhoneMenu(page: Page, isPhone: boolean) {
  if (!isPhone) return;
  await page.getByRole('button', { name: /Atidaryti meniu|Open menu/ }).click();
  await expect(page.getByRole('navigation')).toBeVisible();
  await settle(page);
  await page.screenshot({
    path: `.artifacts/screens/${await page.evaluate(() => document.documentElement.lang)}-phone-menu.png`,
  });
}

/** Waits for running CSS transitions and animations (dialogs, drawers opening) to finish. */
async function settle(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** The readings screen with readings: the object chosen on My objects, its first type, all selected. */
async function showReadings(page: Page, language: 'lt' | 'en') {
  const t = TEXTS[language];
  await page.locator('.ant-card', { hasText: t.deviceData.types.title }).locator('.ant-table-row').first().click();
  await page.getByRole('button', { name: t.deviceData.found.selectAll }).click();
  await expect(page.getByRole('region', { name: t.deviceData.detail.title })).toBeVisible();
}
