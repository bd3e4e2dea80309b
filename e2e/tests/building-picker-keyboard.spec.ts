import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signInAs, TEXTS } from './screens';

// The Statements building picker by keyboard (docs/accessibility.md): Enter or Space on the highlighted
// building ticks it, for a manager with one building and an operator with many, in both languages.

/** The names of what the picker shows as chosen (its tags, without the "+ n" summary). */
const chosen = (page: Page) =>
  page
    .locator('.ant-select', { has: page.locator('#statements-buildings') })
    .locator('.ant-select-content-item:not(.ant-select-content-item-rest) .ant-select-selection-item-content');

const active = (page: Page) => page.locator('.ant-select-tree-treenode-active');

async function openStatements(page: Page, language: 'lt' | 'en') {
  await page.goto('/statements');
  await expect(page.getByRole('heading', { level: 1, name: TEXTS[language].nav.statements })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.getByLabel(TEXTS[language].statements.buildings).focus();
}

for (const language of ['lt', 'en'] as const) {
  test(`${language}: a manager with one building chooses it by Enter and by Space`, async ({ page }) => {
    await signInAs(page, 'manager', language);
    await openStatements(page, language);
    // The only building starts chosen; Backspace takes it away, the placeholder says "all".
    await expect(chosen(page)).toHaveText(['Architektų g. 3']);
    await page.keyboard.press('Backspace');
    await expect(chosen(page)).toHaveCount(0);
    await page.keyboard.press('ArrowDown');
    await expect(active(page)).toHaveText('Architektų g. 3');
    await page.keyboard.press('Enter');
    await expect(chosen(page)).toHaveText(['Architektų g. 3']);
    // Space toggles it as a checkbox does: off, then on again, and types nothing into the search.
    await page.keyboard.press('Space');
    await expect(chosen(page)).toHaveCount(0);
    await page.keyboard.press('Space');
    await expect(chosen(page)).toHaveText(['Architektų g. 3']);
    await expect(page.getByLabel(TEXTS[language].statements.buildings)).toHaveValue('');
  });

  test(`${language}: an operator with many buildings walks the tree and ticks buildings by Space and Enter`, async ({
    page,
  }) => {
    await signInAs(page, 'operator', language);
    await openStatements(page, language);
    await expect(chosen(page)).toHaveCount(0);
    await page.keyboard.press('ArrowDown');
    // Down the first branch to a building: right opens a node, down moves to its first child.
    const building = / \d+\w*$/;
    for (let step = 0; step < 8 && !building.test((await active(page).innerText()).trim()); step++) {
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
    }
    const first = (await active(page).innerText()).trim();
    expect(first).toMatch(building);
    await page.keyboard.press('Space');
    // Ticked (a street whose buildings are all ticked shows as the street: a filter takes the area).
    await expect(active(page)).toHaveClass(/treenode-checkbox-checked/);
    await expect(chosen(page)).toHaveCount(1);
    await page.keyboard.press('ArrowDown');
    const second = (await active(page).innerText()).trim();
    expect(second).not.toBe(first);
    await page.keyboard.press('Enter');
    await expect(active(page)).toHaveText(second);
    await expect(active(page)).toHaveClass(/treenode-checkbox-checked/);
    await expect(page.getByLabel(TEXTS[language].statements.buildings)).toHaveValue('');
    await page.keyboard.press('Escape');
    // The table shows the flats of those buildings only.
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
  });
}
