import type { Page } from '@playwright/test';
import { getLocation, getStatementFigures } from '@rodmenys/contract';
import { api, DEMO, expect, session, test } from './fixtures';
import { dialogSettled, seriousViolations, settle, signInAs } from './screens';

// Occupants (docs/occupancies.md): the operator records a move on a flat's timeline, the flat's
// statement of that month shows both occupants' parts, and the Statements table a row for each,
// in Lithuanian and in English.

/** The month before the current one (the server's clock and zone are the test machine's here). */
const lastMonth = () => {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return d.toISOString().slice(0, 7);
};

const TEXT = {
  lt: {
    masterData: 'Pagrindiniai duomenys',
    tab: 'Vietos ir prietaisai',
    recordMove: 'Registruoti persikraustymą',
    day: 'Persikraustymo diena (naujojo gyventojo pirmoji diena)',
    code: 'Sąskaitos (kliento) kodas',
    name: 'Gyventojo vardas, pavardė',
    save: 'Išsaugoti',
    moved: 'Persikraustymas užregistruotas.',
    perOccupant: 'Pagal gyventojus',
    noComparison: 'nerodoma: tuo metu bute gyveno kitas gyventojas',
    flatWord: 'butas',
    statement: 'ataskaita',
    otherOccupant: 'kitas gyventojas',
  },
  en: {
    masterData: 'Master data',
    tab: 'Locations and devices',
    recordMove: 'Record a move',
    day: "Moving day (the new occupant's first day)",
    code: 'Account (client) code',
    name: "Occupant's name",
    save: 'Save',
    moved: 'The move was recorded.',
    perOccupant: 'Per occupant',
    noComparison: 'not shown: the flat had another occupant then',
    flatWord: 'flat',
    statement: 'statement',
    otherOccupant: 'other occupant',
  },
} as const;

/** `s` matched literally in a RegExp. */
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const treeNode = (page: Page, title: string) =>
  page
    .locator('.ant-tree-treenode')
    .filter({ has: page.locator('.ant-tree-title', { hasText: new RegExp(`^${title}`) }) });

/** A demo flat with figures last month (the n-th), its ancestors' names and its client's name. */
async function demoFlat(n: number) {
  const me = await session(DEMO.operator);
  let rows: { FlatId: number }[] = [];
  await expect
    .poll(
      async () => {
        const res = await api(getStatementFigures, { token: me.Token, query: { month: lastMonth() } });
        rows = res.body.Rows.filter((r) => r.Kinds.some((k) => k.Current.Value !== null));
        return rows.length > n;
      },
      { timeout: 120_000, intervals: [2_000] },
    )
    .toBe(true);
  const flatId = rows[n]!.FlatId;
  const { body } = await api(getLocation, { token: me.Token, params: { id: flatId } });
  return {
    flatId,
    ancestors: body.Ancestors.map((a) => a.Name),
    flat: body.Location.Name,
    client: body.Location.ClientName ?? '',
  };
}

for (const [language, n] of [
  ['lt', 3],
  ['en', 4],
] as const) {
  test(`${language}: record a move on a flat, then its statement shows both occupants`, async ({ page }) => {
    test.setTimeout(180_000);
    const text = TEXT[language];
    const flat = await demoFlat(n);
    const newcomer = language === 'lt' ? 'Gabija Naujokė' : 'Grace Newcomer';
    await signInAs(page, 'operator', language);
    await page.getByRole('navigation').getByRole('link', { name: text.masterData }).click();
    await page.getByRole('tab', { name: text.tab }).click();
    for (const title of flat.ancestors) await treeNode(page, title).locator('.ant-tree-switcher').click();
    await treeNode(page, flat.flat).locator('.ant-tree-title').click();

    await page.getByRole('button', { name: text.recordMove }).click();
    const dialog = page.getByRole('dialog', { name: text.recordMove });
    // axe on the dialog once it has stopped moving, empty and then with a refused save.
    await dialogSettled(page, dialog);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: text.save }).click();
    await expect(dialog.locator('.ant-form-item-explain-error').first()).toBeVisible();
    await settle(page);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel(text.day).fill(`${lastMonth()}-15`);
    await dialog.getByLabel(text.day).press('Enter');
    await dialog.getByLabel(text.code).fill(`E2E-MOVE-${language}`);
    await dialog.getByLabel(text.name).fill(newcomer);
    await dialog.getByRole('button', { name: text.save }).click();
    await expect(page.getByText(text.moved)).toBeVisible();
    await expect(page.locator('.ant-timeline')).toContainText(newcomer);

    await page.goto(`/statements?month=${lastMonth()}&flat=${flat.flatId}`);
    const section = page.getByRole('region', { name: text.perOccupant });
    await expect(section).toBeVisible({ timeout: 30_000 });
    await expect(section).toContainText(newcomer);
    await expect(section).toContainText(flat.client);
    await expect(section).toContainText(`${lastMonth()}-15`);
    await expect(section).toContainText(text.noComparison);

    // The table: the flat is one row per occupant, the newcomer's with their account and days.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const ofFlat = (who: string) =>
      page.getByRole('row').filter({
        has: page.getByRole('button', {
          name: new RegExp(`${text.flatWord} ${literal(flat.flat)} \\(${literal(who)}\\): ${text.statement}$`),
        }),
      });
    const newRow = ofFlat(newcomer);
    await expect(newRow).toHaveCount(1);
    await expect(newRow).toContainText(`E2E-MOVE-${language}, ${lastMonth()}-15`);
    await expect(newRow).toContainText(text.otherOccupant);
    await expect(ofFlat(flat.client)).toHaveCount(1);
  });
}
