import { expect, test } from './fixtures';
import { dialogSettled, signInAs, TEXTS } from './screens';

// Motion follows the reader's system setting (docs/accessibility.md, "Motion"): a dialog zooms in
// for 0.3 s for a reader who has not asked for less, and for a hundredth, at once to
// the eye, for one who asked for reduced motion (as every other browser test runs).

for (const [mode, zoom] of [
  ['no-preference', '0.3s'],
  ['reduce', '0.01s'],
] as const) {
  test.describe(`motion, ${mode}`, () => {
    test.use({ reducedMotion: mode });
    test(`a confirmation zooms in for ${zoom}`, async ({ page }) => {
      const t = TEXTS.lt;
      await signInAs(page, 'operator', 'lt');
      await page.goto('/users');
      const remove = page.getByRole('button', { name: t.common.delete }).first();
      await expect(remove).toBeVisible();
      // Notes how long the dialog's zoom lasts, read off its animation while it runs.
      await page.evaluate(() => {
        const w = window as unknown as { zoom: string };
        w.zoom = 'none seen';
        new MutationObserver(() => {
          const zooming = document.querySelector('.ant-zoom-appear-active, .ant-zoom-enter-active');
          if (zooming) w.zoom = getComputedStyle(zooming).animationDuration;
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
      });
      await remove.click();
      const dialog = page.getByRole('dialog').filter({ hasText: t.users.deleteTitle });
      await dialogSettled(page, dialog);
      expect(await page.evaluate(() => (window as unknown as { zoom: string }).zoom)).toBe(zoom);
      await dialog.getByRole('button', { name: t.common.cancel }).click();
      await expect(dialog).toBeHidden();
    });
  });
}
