import { getLocationTree, LOCATION_LEVEL, listIntegrationKeys } from '@rodmenys/contract';
import { api, DEMO, expect, session, test } from './fixtures';
import { signInAs, TEXTS } from './screens';

// An integration key covers exactly what was ticked (docs/integration.md): ticking a street's only
// building stores that building, not the street, and the list names it by its street and number.
// By keyboard, in both languages.

for (const language of ['lt', 'en'] as const) {
  test(`${language}: a key for a street's only building covers that building, not its street`, async ({ page }) => {
    const text = TEXTS[language];
    const operator = await session(DEMO.operator);
    const tree = await api(getLocationTree, { token: operator.Token, query: { maxLevel: LOCATION_LEVEL.building } });
    const street = tree.body.find((n) => n.Level === LOCATION_LEVEL.street && n.Name === 'Architektų g.')!;
    const buildings = tree.body.filter((n) => n.ParentId === street.Id);
    expect(buildings.map((b) => b.Name)).toEqual(['3']);

    await signInAs(page, 'operator', language);
    await page.goto('/integrations');
    await expect(page.getByRole('heading', { level: 1, name: text.nav.integrations })).toBeVisible();
    const name = `Vienas pastatas ${language} ${Date.now()}`;
    await page.getByLabel(text.integrations.name).first().fill(name);
    const picker = page.getByLabel(text.integrations.locations);
    await picker.focus();
    await page.keyboard.type('Architektų');
    const active = page.locator('.ant-select-tree-treenode-active');
    await expect(active).toHaveText('Architektų g.');
    await page.keyboard.press('ArrowDown');
    await expect(active).toHaveText('Architektų g. 3');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    const chosen = page
      .locator('.ant-select', { has: picker })
      .locator('.ant-select-content-item:not(.ant-select-content-item-rest) .ant-select-selection-item-content');
    await expect(chosen).toHaveText(['Architektų g. 3']);
    await page.getByRole('button', { name: text.integrations.createKey }).click();
    const dialog = page.getByRole('dialog', { name: text.integrations.keyCreated.replace('{{name}}', name) });
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');

    // Stored: the building alone; listed by its street and number.
    const keys = await api(listIntegrationKeys, { token: operator.Token });
    const key = keys.body.Keys.find((k) => k.Name === name)!;
    expect(key.Locations.map((l) => l.Id)).toEqual([buildings[0]!.Id]);
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('Architektų g., 3');
  });
}
