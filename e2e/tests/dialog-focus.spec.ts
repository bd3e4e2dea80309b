import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { dialogSettled, openFirstFlat, screenReady, signInAs, TEXTS } from './screens';

// A dialog closed by its Cancel gives the focus back to the button that opened it (docs/accessibility.md,
// "Keyboard"): an account's Edit and Rights, and a device's Edit on Master data, by keyboard, in both languages.

/** Opens the dialog of `opener` by keyboard, closes it with Cancel by keyboard, and expects the focus back. */
async function openAndCancel(page: Page, opener: Locator, cancel: string) {
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await dialogSettled(page, dialog);
  await dialog.getByRole('button', { name: cancel, exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
}

test.describe('the focus after a dialog', () => {
  for (const language of ['lt', 'en'] as const) {
    test(`back on Edit and Rights of an account, and on a device's Edit, ${language}`, async ({ page }) => {
      const t = TEXTS[language];
      await signInAs(page, 'operator', language);
      await page.goto('/users');
      await screenReady(page);
      const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: t.users.rights }) });
      await openAndCancel(page, row.first().getByRole('button', { name: t.common.edit }), t.common.cancel);
      await openAndCancel(page, row.first().getByRole('button', { name: t.users.rights }), t.common.cancel);

      await page.goto('/masterData');
      await screenReady(page);
      await page.getByRole('tab', { name: t.masterData.tabTree }).click();
      await openFirstFlat(page);
      const edit = page.getByRole('button', { name: t.masterData.device.edit, exact: true }).first();
      await openAndCancel(page, edit, t.common.cancel);
    });
  }
});
