import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { lastMonth, openFirstFlat, SCREENS, screenReady, signInAs, TEXTS } from './screens';

// Every control's accessible name on every screen, in Lithuanian, as the operator (who opens them all):
// none is one of the names antd gives by itself in English (docs/accessibility.md, "Names in the UI
// language"): an icon's own name ("close-circle", so a button reads "file-excel Excel"), "Clear" on a
// clear button, "Increase Value" on a number field's spinner, and antd's Lithuanian type message that
// names the type in English ("… neatitinka tipo email").

const lt = TEXTS.lt;
const ANTD_ENGLISH = /^(Clear|Increase Value|Decrease Value|Select all)$|neatitinka tipo/;

/** The names antd gave in English on the page: icons that still say their own name, and the words above. */
async function englishNames(page: Page): Promise<string[]> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  const icons = await page.evaluate(() =>
    Array.from(document.querySelectorAll('.anticon[aria-label]'))
      .filter((el) => el.classList.contains(`anticon-${el.getAttribute('aria-label')}`))
      .map((el) => `icon "${el.getAttribute('aria-label')}"`),
  );
  const snapshot = await page.locator('body').ariaSnapshot();
  const names = [...snapshot.matchAll(/^\s*- [\w-]+ "((?:[^"\\]|\\.)*)"/gm)].map((m) => m[1]!.replace(/\\"/g, '"'));
  const texts = await page.evaluate(() =>
    Array.from(document.querySelectorAll('[aria-label], .ant-form-item-explain-error')).map(
      (el) => el.getAttribute('aria-label') ?? el.textContent ?? '',
    ),
  );
  return [...icons, ...[...names, ...texts].filter((n) => ANTD_ENGLISH.test(n.trim()))];
}

test.describe('names in the UI language', () => {
  test('no control on any screen is named in antd’s English (operator, lt)', async ({ page }) => {
    test.setTimeout(240_000);
    await signInAs(page, 'operator', 'lt');
    for (const screen of SCREENS) {
      await page.goto(screen.path === '/statements' ? `/statements?month=${lastMonth()}` : screen.path);
      await screenReady(page);
      expect(await englishNames(page), screen.path).toEqual([]);
    }

    // A picker with a building chosen shows its clear button (Integrations' key form).
    await page.goto('/integrations');
    await screenReady(page);
    await page.locator('#integrations-locations').click();
    await page.locator('.ant-select-tree-checkbox').first().click();
    await page.keyboard.press('Escape');
    await expect(page.locator('.ant-select-clear').first()).toBeAttached();
    expect(await englishNames(page), '/integrations: a building chosen').toEqual([]);
    await expect(page.locator('.ant-select-clear').first()).toHaveAttribute('aria-label', lt.common.clear);

    // A flat's occupant, edited with a malformed e-mail: the form's message and the dialog's controls.
    await page.goto('/masterData');
    await screenReady(page);
    await page.getByRole('tab', { name: lt.masterData.tabTree }).click();
    await openFirstFlat(page);
    await page
      .getByRole('button', { name: new RegExp(`^${lt.occupancies.edit.split('{{')[0]}`) })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByLabel(lt.occupancies.email).fill('ne-adresas');
    await dialog.getByRole('button', { name: lt.common.save }).click();
    await expect(dialog.locator('.ant-form-item-explain-error').first()).toBeVisible();
    expect(await englishNames(page), '/masterData: an occupant with a malformed e-mail').toEqual([]);
    await expect(dialog).toContainText(lt.validation.email.replace(/\$\{label\}/, lt.occupancies.email));
    await dialog.getByRole('button', { name: lt.common.cancel }).click();
  });
});
