import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import {
  createIntegrationKey,
  getDevicesByLocationId,
  getLocationTree,
  getStatementFigures,
  LOCATION_LEVEL,
} from '@rodmenys/contract';
import { api, DEMO, expect, session, tabTo, test } from './fixtures';
import { dialogSettled, lastMonth, openFirstFlat, screenReady, seriousViolations, signInAs, TEXTS } from './screens';

// The new screens as people use them (docs/accessibility.md): contrast and spoken names, screens that
// show an action's result at once, focus after a file is chosen, tables that scroll in their own box.

const LANGUAGES = ['lt', 'en'] as const;
const SIZES = [
  { width: 1440, height: 900 },
  { width: 768, height: 1024 },
] as const;

/** WCAG contrast of an element's text on its own (opaque) background. */
const contrastOf = (el: Locator) =>
  el.evaluate((node) => {
    const rgb = (s: string) => (s.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (c: number[]) => {
      const [r, g, b] = c.map((v) => {
        const x = v / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const style = getComputedStyle(node);
    const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))].sort((x, y) => y - x);
    return (a! + 0.05) / (b! + 0.05);
  });

/** The page is not scrolled sideways and cannot be: nothing is wider than the window. */
const pageWidth = (page: Page) =>
  page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));

const monthBefore = (month: string) => {
  const d = new Date(`${month}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return d.toISOString().slice(0, 7);
};

test.describe('the new screens as people use them', () => {
  for (const language of LANGUAGES) {
    const t = TEXTS[language];

    test(`Integrations: a listed key's state reads at 4.5:1, its expiry is its last day, revoking says "${t.collectors.revoke}", ${language}`, async ({
      page,
    }) => {
      const operator = await session(DEMO.operator);
      const tree = await api(getLocationTree, { token: operator.Token, query: { maxLevel: LOCATION_LEVEL.building } });
      const building = tree.body.find((n) => n.Level === LOCATION_LEVEL.building)!;
      const name = `Tag ${language} ${Date.now().toString(36)}`;
      // A last day some 300 days ahead of the provider's today, and the day after it.
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Vilnius' }).format(new Date());
      const dayAfter = (day: string, n: number) =>
        new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
      const lastDay = dayAfter(today, 300);
      const created = await api(createIntegrationKey, {
        token: operator.Token,
        body: { name, locationIds: [building.Id], expiresOn: lastDay },
      });
      expect(created.status).toBe(201);
      await signInAs(page, 'operator', language);
      await page.goto('/integrations');
      await screenReady(page);
      const row = page.getByRole('row').filter({ hasText: name });
      const tag = row.locator('.ant-tag').filter({ hasText: t.integrations.keyState.active });
      await expect(tag).toBeVisible();
      expect(await contrastOf(tag)).toBeGreaterThanOrEqual(4.5);
      // Valid until its last day, not the midnight after it.
      await expect(row).toContainText(lastDay);
      await expect(row).not.toContainText(dayAfter(lastDay, 1));
      expect(await seriousViolations(page)).toEqual([]);
      await row.getByRole('button', { name: t.integrations.revokeKey, exact: true }).click();
      const confirm = page.getByRole('tooltip');
      await expect(confirm).toContainText(t.integrations.revokeKeyConfirm.split('„')[0]!.split('"')[0]!.trim());
      await confirm.getByRole('button', { name: t.integrations.revokeKeyOk }).focus();
      await page.keyboard.press('Enter');
      await expect(row).toContainText(t.integrations.keyRevoked);
    });

    test(`Master data: each "${t.occupancies.personalData.export}" button's spoken name begins with its text, ${language}`, async ({
      page,
    }) => {
      await signInAs(page, 'operator', language);
      await page.goto('/masterData');
      await screenReady(page);
      await page.getByRole('tab', { name: t.masterData.tabTree }).click();
      await openFirstFlat(page);
      // One way to change who lives there: "Record a move" (the old "Set client" form is gone).
      await expect(page.getByRole('button', { name: t.occupancies.recordMove })).toBeVisible();
      await expect(page.getByRole('button', { name: t.masterData.tree.setClient })).toHaveCount(0);
      const buttons = page.getByRole('button').filter({ hasText: t.occupancies.personalData.export });
      await expect(buttons.first()).toBeVisible();
      for (const button of await buttons.all()) {
        const text = (await button.textContent())!.trim();
        await expect(button).toHaveAccessibleName(new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      }
      // axe's rule for it is experimental (off by default): asked for by name.
      const mismatch = await new AxeBuilder({ page })
        .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
        .withRules(['label-content-name-mismatch'])
        .analyze();
      expect(mismatch.violations.map((v) => v.nodes.map((n) => n.target.join(' ')).join(', '))).toEqual([]);
    });

    test(`Collectors: a new key is in the health table at once; the table scrolls in its own box at 1440 and 768 px, ${language}`, async ({
      page,
    }) => {
      await signInAs(page, 'operator', language);
      await page.goto('/collectors');
      await screenReady(page);
      const health = page.locator('.ant-card').filter({ has: page.getByText(t.fleet.title, { exact: true }) });
      await expect(health.locator('.ant-table')).toBeVisible();
      const name = `Naujas ${language} ${Date.now().toString(36)}`;
      const keys = page.locator('.ant-card').filter({ has: page.getByText(t.collectors.keysTitle, { exact: true }) });
      await keys.getByRole('textbox', { name: t.collectors.name }).fill(name);
      await keys.getByRole('button', { name: t.collectors.create }).click();
      const dialog = page.getByRole('dialog', { name: t.collectors.createdTitle.replace('{{name}}', name) });
      await dialogSettled(page, dialog);
      await dialog.getByRole('button', { name: t.common.close }).last().click();
      // At once: the health table polls only every minute.
      const row = health.getByRole('row').filter({ hasText: name });
      await expect(row).toBeVisible({ timeout: 5_000 });
      // Never heard from: not "sending".
      await expect(row).toContainText(t.fleet.notHeardYet);
      await expect(row).not.toContainText(t.fleet.ok);
      // Its buildings are picked by street and number.
      await row.getByRole('button', { name: t.fleet.editLocations.replace('{{name}}', name) }).click();
      const locations = page.getByRole('dialog', { name: t.fleet.locationsTitle.replace('{{name}}', name) });
      await dialogSettled(page, locations);
      const operator = await session(DEMO.operator);
      const tree = await api(getLocationTree, { token: operator.Token, query: { maxLevel: LOCATION_LEVEL.building } });
      const building = tree.body.find((n) => n.Level === LOCATION_LEVEL.building)!;
      const street = tree.body.find((n) => n.Id === building.ParentId)!;
      await locations.getByRole('combobox').click();
      await page.keyboard.type(`${street.Name} ${building.Name}`);
      await expect(
        page
          .locator('.ant-select-tree-title')
          .filter({ hasText: `${street.Name} ${building.Name}` })
          .first(),
      ).toBeVisible();
      await expect(page.locator('.ant-select-tree-title').filter({ hasText: ` · ${t.levels[6]}` })).toHaveCount(0);
      await page.keyboard.press('Escape');
      await locations.getByRole('button', { name: t.common.cancel }).click();
      await expect(locations).toBeHidden();

      for (const size of SIZES) {
        await page.setViewportSize(size);
        await expect(row).toBeVisible();
        const width = await pageWidth(page);
        expect(width.scroll, `page width at ${size.width} px`).toBeLessThanOrEqual(width.client);
        // The health table is wider than its card: it scrolls inside its own container.
        const box = health.locator('.ant-table-content');
        const inner = await box.evaluate((el) => ({
          scroll: el.scrollWidth,
          client: el.clientWidth,
          x: getComputedStyle(el).overflowX,
        }));
        expect(['auto', 'scroll']).toContain(inner.x);
        const card = await health.boundingBox();
        const table = await box.boundingBox();
        expect(table!.x + table!.width).toBeLessThanOrEqual(card!.x + card!.width + 0.5);
        await page.screenshot({ path: `.artifacts/screens/collectors-${language}-${size.width}.png`, fullPage: false });
      }
      expect(await seriousViolations(page)).toEqual([]);
    });

    test(`Collectors: after choosing a key file the focus is on the check's heading, after storing on the result, ${language}`, async ({
      page,
    }) => {
      const operator = await session(DEMO.operator);
      const tree = await api(getLocationTree, { token: operator.Token, query: { maxLevel: LOCATION_LEVEL.building } });
      const building = tree.body.filter((n) => n.Level === LOCATION_LEVEL.building)[language === 'lt' ? 1 : 2]!;
      const devices = await api(getDevicesByLocationId, { token: operator.Token, query: { locationId: building.Id } });
      const serial = devices.body.find((d) => d.RemovedAt === null)!.DeviceCode;
      await signInAs(page, 'operator', language);
      await page.goto('/collectors');
      await screenReady(page);
      const card = page.locator('.ant-card', { has: page.getByText(t.meterKeys.title, { exact: true }) });
      const file = `raktai-${language}.csv`;
      await page.locator('input[type=file]').setInputFiles({
        name: file,
        mimeType: 'text/csv',
        // A key not stored before (new or changed), so that there is something to store.
        buffer: Buffer.from(`KAM;${serial};${Date.now().toString(16).padStart(16, '0').repeat(2)}\n`, 'utf8'),
      });
      const heading = card.getByRole('heading', { name: t.meterKeys.checkedTitle.replace('{{name}}', file) });
      await expect(heading).toBeFocused();
      // From the heading the store button is one Shift+Tab back (not the skip link's Tab from the top).
      await tabTo(page, card.getByRole('button', { name: t.meterKeys.apply.replace('{{count}}', '1') }), {
        back: true,
        max: 3,
      });
      await page.keyboard.press('Enter');
      const stored = card.getByRole('heading', { name: t.meterKeys.storedTitle.replace('{{name}}', file) });
      await expect(stored).toBeVisible();
      const focused = page.locator(':focus');
      await expect(focused).toContainText(t.meterKeys.applied.split('{{')[0]!.trim());
      await dialogSettled(page, card);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test(`Statements: scrolled down, the table's sticky header stays below the app bar and the account menu opens, ${language}`, async ({
      page,
    }) => {
      await signInAs(page, 'operator', language);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.goto(`/statements?month=${lastMonth()}`);
        await expect(page.locator('.ant-table-row').first()).toBeVisible({ timeout: 90_000 });
        await screenReady(page);
        await page.mouse.wheel(0, 800);
        await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
        const account = page.locator('.app-account');
        const covered = await account.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return !!top && !el.contains(top);
        });
        expect(covered, `the account button is covered at ${size.width} px`).toBe(false);
        const header = await page.locator('.app-header').boundingBox();
        const sticky = await page.locator('.statements-table .ant-table-header').first().boundingBox();
        expect(sticky!.y).toBeGreaterThanOrEqual(header!.y + header!.height - 1);
        await page.screenshot({ path: `.artifacts/screens/statements-scrolled-${language}-${size.width}.png` });
        await account.click();
        await expect(page.getByRole('menuitem', { name: t.nav.logout })).toBeVisible();
        await page.keyboard.press('Escape');
      }
    });

    test(`Statements: after publishing, the occupants' delivery log shows the building at once, ${language}`, async ({
      page,
    }) => {
      const month = monthBefore(lastMonth());
      const operator = await session(DEMO.operator);
      // A building nobody else's spec looks at, not yet published that month.
      const seenByOthers = new Set<number>();
      for (const role of ['admin', 'manager'] as const) {
        const other = await session(DEMO[role]);
        for (const r of (await api(getStatementFigures, { token: other.Token, query: { month } })).body.Rows)
          seenByOthers.add(r.BuildingId);
      }
      const rows = (await api(getStatementFigures, { token: operator.Token, query: { month } })).body.Rows;
      const published = new Set(rows.filter((r) => r.Published).map((r) => r.BuildingId));
      const candidates = [
        ...new Set(
          rows
            .filter((r) => r.Kinds.some((k) => k.Current.Value !== null))
            .map((r) => r.BuildingId)
            .filter((b) => !seenByOthers.has(b) && !published.has(b)),
        ),
      ];
      const buildingId = candidates[language === 'lt' ? 0 : 1]!;
      expect(buildingId).toBeDefined();
      const tree = await api(getLocationTree, { token: operator.Token, query: { maxLevel: LOCATION_LEVEL.building } });
      const building = tree.body.find((n) => n.Id === buildingId)!;
      const street = tree.body.find((n) => n.Id === building.ParentId)!;

      await signInAs(page, 'operator', language);
      await page.goto(`/statements?month=${month}`);
      await expect(page.locator('.ant-table-row').first()).toBeVisible({ timeout: 90_000 });
      const log = page.locator('.occupant-deliveries');
      await expect(log).toBeVisible();
      await screenReady(page);
      const address = new RegExp(`${street.Name} ${building.Name}\\b`);
      await expect(log.getByText(address)).toHaveCount(0);

      const picker = page.locator('#statements-buildings');
      const chosen = page.waitForResponse((r) => r.url().includes('locationParentId=') && r.ok());
      await picker.click();
      await page.keyboard.type(`${street.Name} ${building.Name}`);
      await page
        .locator('.ant-select-tree-treenode')
        .filter({ hasText: `${street.Name} ${building.Name}` })
        .locator('.ant-select-tree-checkbox')
        .first()
        .click();
      await page.keyboard.press('Escape');
      await chosen;
      await screenReady(page);
      await page.getByRole('button', { name: t.statements.publish, exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialogSettled(page, dialog);
      await dialog.getByRole('button', { name: t.statements.publish, exact: true }).click();
      await expect(dialog).toBeHidden();
      // At once: the log polls only every 30 s.
      await expect(log.getByText(address).first()).toBeVisible({ timeout: 5_000 });
    });
  }
});
