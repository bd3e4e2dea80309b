import type { Page } from '@playwright/test';
import { AUDIT_ENTITY_LABELS, AUDIT_FIELD_LABELS, ERROR_MESSAGES } from '@rodmenys/contract';
import en from '../../web/src/i18n/en.json' with { type: 'json' };
import lt from '../../web/src/i18n/lt.json' with { type: 'json' };
import { DEMO, expect, signIn, test } from './fixtures';
import { figuresReady, lastMonth, openFirstFlat } from './screens';

// The Lithuanian UI shows no English: no text node and no accessible name of any screen (as the
// operator, who sees them all) is one of the English texts of the web app or of the server.

type Tree = { [key: string]: string | Tree };
const leaves = (tree: Tree): string[] => Object.values(tree).flatMap((v) => (typeof v === 'string' ? [v] : leaves(v)));

/** Texts that are the same in both languages ("OK", "Excel", "Rodmenys") are not English. */
const lithuanian = new Set(leaves(lt as Tree).map((s) => s.trim()));
const ENGLISH = [
  ...leaves(en as Tree),
  ...Object.values(ERROR_MESSAGES),
  ...Object.values(AUDIT_FIELD_LABELS).map((l) => l.en),
  // The audit entries' raw JSON keys (the log shows them by their labels).
  ...Object.keys(AUDIT_FIELD_LABELS),
  ...Object.values(AUDIT_ENTITY_LABELS).map((l) => l.en),
  // antd's own English names, which the app replaces (selection boxes, clear buttons).
  'Select all',
  'Clear',
]
  .map((s) => s.trim())
  // Texts that are nothing but placeholders ("{{key}} {{problem}}") would match any text.
  .filter((s) => /\p{L}{2}/u.test(s.replace(/{{\w+}}/g, '')) && !lithuanian.has(s));
/** Each English text as a whole-string pattern; a {{placeholder}} matches anything. */
const PATTERNS = [...new Set(ENGLISH)].map(
  (s) =>
    new RegExp(
      `^${s
        .split(/{{\w+}}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.+?')}$`,
    ),
);
const ROW_SELECTED = /^(Select row|Row) \d+( selected)?$/;

/** Every text node and accessible name on the page (attributes and the accessibility tree). */
async function shownTexts(page: Page): Promise<string[]> {
  const fromDom = await page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent && ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
      const text = node.textContent?.trim();
      if (text) out.push(text);
    }
    for (const el of Array.from(
      document.querySelectorAll('[aria-label], [title], [placeholder], [alt], [aria-description]'),
    )) {
      for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
        const value = el.getAttribute(name)?.trim();
        if (value) out.push(value);
      }
    }
    return out;
  });
  const snapshot = await page.locator('body').ariaSnapshot();
  const fromTree = [...snapshot.matchAll(/^\s*- [\w-]+ "((?:[^"\\]|\\.)*)"/gm)].map((m) => m[1]!.replace(/\\"/g, '"'));
  return [...new Set([...fromDom, ...fromTree])];
}

async function englishOn(page: Page): Promise<string[]> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  return (await shownTexts(page)).filter((s) => ROW_SELECTED.test(s) || PATTERNS.some((p) => p.test(s)));
}

async function expectNoEnglish(page: Page, screen: string) {
  expect(await englishOn(page), `English on ${screen}`).toEqual([]);
}

test.describe('one language', () => {
  test('the Lithuanian UI shows no English text or accessible name on any screen (operator)', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Prisijungti' }).click(); // validation messages
    await expectNoEnglish(page, '/login');
    await page.goto('/register');
    await expectNoEnglish(page, '/register');

    await signIn(page, DEMO.operator);
    await expectNoEnglish(page, '/');
    for (const path of [
      '/profile',
      '/users',
      '/myObjects',
      '/masterData',
      '/audit',
      '/collectors',
      '/anomalies',
      '/nowhere',
    ]) {
      await page.goto(path);
      await expect(page.locator('.page-title, .ant-result-title').first()).toBeVisible();
      await expectNoEnglish(page, path);
    }

    await page.goto('/users');
    await page.getByRole('button', { name: 'Teisės' }).first().click();
    await expect(page.getByRole('dialog').getByRole('combobox')).toBeVisible();
    await expectNoEnglish(page, '/users: rights');
    await page.getByRole('dialog').getByRole('button', { name: 'Atšaukti' }).click();

    // Master data: the register import's preview of a bad file, the tree, and every device dialog.
    await page.goto('/masterData');
    await page.locator('input[type=file]').setInputFiles({
      name: 'blogas.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('\uFEFFŠalis;Butas\nLietuva;1\n', 'utf8'),
    });
    await page.getByRole('button', { name: lt.masterData.import.preview }).click();
    await expect(page.getByText(lt.masterData.import.errorsTitle.split(' ')[0]!).first()).toBeVisible();
    await expectNoEnglish(page, '/masterData: import errors');
    await page.getByRole('tab', { name: lt.masterData.tabTree }).click();
    await openFirstFlat(page);
    const devices = page.getByRole('table');
    await expect(devices.getByRole('row').nth(1)).toBeVisible();
    await expectNoEnglish(page, '/masterData: a flat');
    // Saving an empty form shows the form's own messages; the edit form is filled, so it is not saved.
    const dialogs = [
      { opener: page.getByRole('button', { name: lt.masterData.tree.addDevice }), save: true },
      { opener: devices.getByRole('button', { name: lt.masterData.device.edit }).first(), save: false },
      { opener: devices.getByRole('button', { name: lt.masterData.device.replace }).first(), save: true },
      { opener: devices.getByRole('button', { name: lt.masterData.device.remove }).first(), save: true },
    ];
    for (const [i, { opener, save }] of dialogs.entries()) {
      await opener.click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      if (save) {
        // A click during the dialog's opening animation can be lost on a loaded machine: click until the form answers.
        await expect(async () => {
          await dialog.getByRole('button', { name: lt.common.save }).click();
          await expect(dialog.locator('.ant-form-item-explain-error').first()).toBeVisible({ timeout: 3_000 });
        }).toPass({ timeout: 20_000 });
      }
      await expectNoEnglish(page, `/masterData: device dialog ${i + 1}`);
      await dialog.getByRole('button', { name: lt.common.cancel }).click();
      await expect(dialog).toBeHidden();
    }

    await page.goto('/locationData');
    await page.getByRole('table').first().locator('tbody tr.ant-table-row').first().click();
    await expect(page.locator('.ant-collapse tbody tr.ant-table-row').first()).toBeVisible();
    await expectNoEnglish(page, '/locationData: devices');

    // Device data with a building ticked, a type picked and every device selected: the
    // selection boxes, the clear buttons, the detail table.
    await page.goto('/deviceData');
    await expectNoEnglish(page, '/deviceData');
    const tree = page.getByRole('combobox', { name: lt.deviceData.tree.label });
    await tree.click();
    await page.locator('.ant-select-tree-checkbox').first().click();
    await page.keyboard.press('Escape');
    await page.locator('.ant-card', { hasText: lt.deviceData.types.title }).locator('.ant-table-row').first().click();
    await page.getByRole('button', { name: lt.deviceData.found.selectAll }).click();
    await expect(page.getByRole('region', { name: lt.deviceData.detail.title })).toBeVisible();
    await expectNoEnglish(page, '/deviceData: detail');
    await page.getByRole('button', { name: lt.deviceData.flagged.open }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoEnglish(page, '/deviceData: flagged devices');
    await page.keyboard.press('Escape');

    // A server message: a wrong current password.
    await page.goto('/profile');
    const card = page.locator('.ant-card', { hasText: lt.profile.changePassword });
    await card.getByLabel(lt.profile.currentPassword).fill('neteisingas-1');
    await card.getByLabel(lt.profile.newPassword, { exact: true }).fill('naujas-slaptazodis');
    await card.getByLabel(lt.profile.confirmPassword).fill('naujas-slaptazodis');
    await card.getByRole('button').last().click();
    await expect(page.getByText(lt.serverErrors.wrongCurrentPassword).first()).toBeVisible();
    await expectNoEnglish(page, '/profile: wrong current password');

    // The check sees English where there is some: the same screen in English.
    await page.evaluate(() => localStorage.setItem('rodmenys.language', 'en'));
    await page.reload();
    await expect(page.getByText('Change password').first()).toBeVisible();
    expect((await englishOn(page)).length).toBeGreaterThan(10);
  });

  test('the monthly job in Lithuanian: no English text, accessible name or file name on Statements and data quality (operator)', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    // Names antd and recharts give by themselves, in English: icons inside buttons, spinners,
    // pager arrows, legend icons.
    const NAMES =
      /legend icon|Increase Value|Decrease Value|^(left|right)$|^(file-pdf|printer|upload|file-excel|file-text|check-circle|home|user|logout|calendar|swap-right|close|search|down) /;
    const strays = async () => (await shownTexts(page)).filter((s) => NAMES.test(s));
    const check = async (where: string) => {
      await expectNoEnglish(page, where);
      expect(await strays(), `English names on ${where}`).toEqual([]);
    };
    await figuresReady('operator');
    await signIn(page, DEMO.operator);
    await page.goto(`/statements?month=${lastMonth()}`);
    // Every building's figures at once: slow on a busy machine.
    await expect(page.locator('.ant-table-row').first()).toBeVisible({ timeout: 90_000 });
    await check('/statements');
    await page
      .locator('.ant-table-row')
      .first()
      .getByRole('button', { name: /ataskaita/ })
      .click();
    const drawer = page.getByRole('dialog').filter({ hasText: lt.statements.statementTitle });
    await expect(drawer.getByText(lt.statements.chartHistory)).toBeVisible();
    await check('/statements: a flat');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      drawer.getByRole('button', { name: lt.statements.pdf }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Ataskaita /);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: lt.statements.publish }).click();
    await expect(page.getByRole('dialog')).toContainText(lt.statements.publishHelp);
    await check('/statements: publish');
    await page.getByRole('dialog').getByRole('button', { name: lt.common.cancel }).click();
    const [excel] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Excel' }).click(),
    ]);
    expect(excel.suggestedFilename()).toMatch(/^Ataskaitos \d{4}-\d{2}, .+\.xlsx$/);

    await page.goto('/anomalies');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await check('/anomalies');
    await page.getByRole('button', { name: lt.anomalies.details }).first().click();
    await expect(page.getByRole('dialog').filter({ hasText: lt.anomalies.evidence })).toBeVisible();
    await check('/anomalies: drill-down');
    await page.keyboard.press('Escape');
    const settings = page.locator('.ant-card', { hasText: lt.anomalies.settings.title });
    await settings.getByRole('button', { name: lt.common.edit }).first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await check('/anomalies: a setting');
  });

  test('the check can fail: an English server message would be caught', () => {
    expect(PATTERNS.some((p) => p.test('The user name "jonas" is already taken'))).toBe(true);
    expect(PATTERNS.some((p) => p.test('Vartotojo vardas „jonas“ jau užimtas'))).toBe(false);
    expect(ROW_SELECTED.test('Row 3 selected')).toBe(true);
  });
});
