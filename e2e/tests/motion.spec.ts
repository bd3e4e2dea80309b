import { expect, test } from './fixtures';
import { dialogSettled, signInAs, TEXTS } from './screens';

// Motion follows the reader's system setting (docs/accessibility.md, "Motion"): a dialog zooms in
// for a reader who has not asked for less, and appears at once for one who asked for reduced motion
// (as every other browser test runs).

for (const [mode, zooms] of [
  ['no-preference', true],
  ['reduce', false],
] as const) {
  test.describe(`motion, ${mode}`, () => {
    test.use({ reducedMotion: mode });
    test(`a confirmation ${zooms ? 'zooms in' : 'appears at once'}`, async ({ page }) => {
      const t = TEXTS.lt;
      await signInAs(page, 'operator', 'lt');
      await page.goto('/users');
      const remove = page.getByRole('button', { name: t.common.delete }).first();
      await expect(remove).toBeVisible();
      // Notes whether the dialog ever runs antd's zoom (its active phase; without motion it only prepares it).
      await page.evaluate(() => {
        const w = window as unknown as { zoomed: boolean };
        w.zoomed = false;
        new MutationObserver(() => {
          if (document.querySelector('.ant-zoom-appear-active, .ant-zoom-enter-active')) w.zoomed = true;
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
      });
      await remove.click();
      const dialog = page.getByRole('dialog').filter({ hasText: t.users.deleteTitle });
      await dialogSettled(page, dialog);
      expect(await page.evaluate(() => (window as unknown as { zoomed: boolean }).zoomed)).toBe(zooms);
      await dialog.getByRole('button', { name: t.common.cancel }).click();
      await expect(dialog).toBeHidden();
    });
  });
}
