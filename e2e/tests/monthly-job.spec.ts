import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { getFlatStatement, listAnomalies } from '@rodmenys/contract';
import { api, DEMO, expect, session, tabTo, test } from './fixtures';
import {
  figuresReady,
  type Language,
  lastMonth,
  type Role,
  screenReady,
  settle,
  signInAs,
  silentMeter,
  TEXTS,
} from './screens';

// The monthly job of every role on the screens built since the specification's: Statements (the
// flat's statement, publishing) and data quality (anomalies, their drill-down, degree-days,
// settings), checked with axe, by keyboard alone, printed, and at a tablet's and a desktop's width.

const focused = (page: Page) => page.locator('*:focus');

/** The open modal dialog: a drawer closed before keeps an empty dialog element in the page. */
const modal = (page: Page) => page.locator('.ant-modal[role="dialog"]');

/** Fails the test on any pointer event in the page (a keyboard "click" has no position and detail 0). */
async function forbidPointer(page: Page) {
  await page.addInitScript(() => {
    for (const type of ['mousedown', 'click', 'pointerdown'] as const) {
      window.addEventListener(
        type,
        (event) => {
          if ((event as MouseEvent).detail > 0 || (event as PointerEvent).pointerType)
            (window as unknown as { pointerUsed: string }).pointerUsed = type;
        },
        true,
      );
    }
  });
}
const pointerUsed = (page: Page) => page.evaluate(() => (window as unknown as { pointerUsed?: string }).pointerUsed);

/** Signs in with the keyboard alone: the language link, the two fields, Enter. */
async function keyboardSignIn(page: Page, role: Role, language: Language) {
  const t = TEXTS[language];
  await page.goto('/login');
  await tabTo(page, page.getByRole('link', { name: language.toUpperCase(), exact: true }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByLabel(t.login.username));
  await page.keyboard.type(DEMO[role].username);
  await page.keyboard.press('Tab');
  await page.keyboard.type(DEMO[role].password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/$/);
}

const SHOTS = path.join(import.meta.dirname, '..', '.artifacts', 'screens');
/** The role and language of the scan running (the screenshots' names). */
let shotName = '';

type Violation = { where: string; id: string; impact: string; targets: string[] };
async function scan(page: Page, where: string, found: Violation[]) {
  await settle(page);
  // Each scanned state kept as a picture to look at (e2e/.artifacts/screens/).
  await page.screenshot({ path: path.join(SHOTS, `monthly-${shotName}-${where.replace(/\W+/g, '-')}.png`) });
  const result = await new AxeBuilder({ page }).analyze();
  for (const v of result.violations) {
    if (v.impact !== 'critical' && v.impact !== 'serious') continue;
    found.push({
      where,
      id: v.id,
      impact: v.impact,
      targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`.slice(0, 300)),
    });
  }
}

test.describe('the monthly job', () => {
  test.setTimeout(300_000);

  test('keyboard only: a manager takes the statements of last month, a flat’s statement and its PDF', async ({
    page,
  }) => {
    const t = TEXTS.lt;
    await figuresReady('manager');
    await forbidPointer(page);
    await keyboardSignIn(page, 'manager', 'lt');
    await tabTo(page, page.getByRole('navigation').getByRole('link', { name: t.nav.statements }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: t.nav.statements })).toBeVisible();

    // The month: typed into the month field, Enter.
    const month = page.getByLabel(t.statements.month);
    await tabTo(page, month);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(lastMonth());
    await page.keyboard.press('Enter');
    await expect(month).toHaveValue(lastMonth());
    await expect(month).toBeFocused();

    // The building: a manager with one building starts with it; else the first one is ticked by keyboard.
    const buildings = page.getByRole('combobox', { name: t.statements.buildings });
    await tabTo(page, buildings);
    await expect(buildings).toBeFocused();

    // A flat's statement from its number, then its PDF.
    const flat = page
      .locator('.ant-table-row')
      .first()
      .getByRole('button', { name: /ataskaita/ });
    await tabTo(page, flat);
    const flatName = await flat.getAttribute('aria-label');
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog').filter({ hasText: t.statements.statementTitle });
    await expect(drawer.getByText(t.statements.chartHistory)).toBeVisible();
    // The focus moves into the drawer (antd focuses its panel).
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('.statement-print'))).toBe(true);
    const pdf = drawer.getByRole('button', { name: t.statements.pdf });
    await tabTo(page, pdf);
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/^Ataskaita \d{4}-\d{2}, .+, butas \S+\.pdf$/);
    await expect(pdf).toBeFocused();
    // Closing the statement gives the focus back to the flat it was opened from.
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(focused(page)).toHaveAttribute('aria-label', flatName ?? '');
    expect(await pointerUsed(page)).toBeUndefined();
  });

  test('keyboard only: an administrator acknowledges an anomaly from the list', async ({ page }) => {
    const t = TEXTS.en;
    const admin = await session(DEMO.admin);
    const open = (await api(listAnomalies, { token: admin.Token, query: { state: 'open' } })).body;
    if (!open.some((a) => a.DeviceCode)) await silentMeter();
    await forbidPointer(page);
    await keyboardSignIn(page, 'admin', 'en');
    await tabTo(page, page.getByRole('navigation').getByRole('link', { name: t.nav.anomalies }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: t.anomalies.title })).toBeVisible();

    // Tab passes the empty date fields and reaches the list's buttons.
    await tabTo(page, page.getByLabel(t.anomalies.periodFrom));
    await page.keyboard.press('Tab');
    await expect(page.getByLabel(t.anomalies.periodTill)).toBeFocused();
    // The counts choose the list by keyboard: a pressed button.
    const choice = page.locator('.ant-card', { hasText: t.anomalies.counts }).getByRole('button').first();
    await tabTo(page, choice);
    await page.keyboard.press('Enter');
    await expect(choice).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('Enter');
    await expect(choice).toHaveAttribute('aria-pressed', 'false');

    // Chosen again, the list shows the row's rule in every building: wait until it has loaded it (its
    // earlier rows stay on screen while it loads), else the anomaly picked below may leave the list.
    const list = page.getByRole('region', { name: t.anomalies.list });
    const chosenRule = (await choice.locator('xpath=ancestor::tr').locator('td').nth(1).textContent()) ?? '';
    await expect(list.locator('.ant-spin-spinning')).toHaveCount(0);
    await expect(list.locator('tr.ant-table-row').filter({ hasNotText: chosenRule })).toHaveCount(0);

    // The first open anomaly of a device on the list's first page, by its id (antd's row key).
    const first = list
      .locator('tr.ant-table-row')
      .filter({ has: page.getByRole('button', { name: t.anomalies.acknowledge }) })
      .first();
    const id = await first.getAttribute('data-row-key');
    const row = list.locator(`tr[data-row-key="${id}"]`);
    await tabTo(page, row.getByRole('button', { name: t.anomalies.acknowledge }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /Acknowledge anomaly/ });
    await expect(dialog).toBeVisible();
    await tabTo(page, dialog.getByLabel(t.anomalies.comment));
    await page.keyboard.type('Checked on site, the meter is fine');
    await tabTo(page, dialog.getByRole('button', { name: t.anomalies.acknowledge }));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(row).toContainText(t.anomalies.states.acknowledged);
    // The focus stays with the anomaly: its Details button, and the next Tab goes on in the row.
    await expect(row.getByRole('button', { name: t.anomalies.details })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(row.getByRole('button', { name: t.anomalies.resolve })).toBeFocused();
    // The drill-down opens by Enter; its body takes the focus when it scrolls.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog').filter({ hasText: t.anomalies.evidence });
    await expect(drawer).toBeVisible();
    await expect(drawer).toContainText(t.anomalies.acknowledgedBy);
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    expect(await pointerUsed(page)).toBeUndefined();
  });

  test('print: a flat’s statement printed by Chromium has every chart and row, no text over another', async ({
    page,
  }) => {
    const t = TEXTS.lt;
    await figuresReady('manager');
    await signInAs(page, 'manager', 'lt');
    await page.goto(`/statements?month=${lastMonth()}`);
    await page
      .locator('.ant-table-row')
      .first()
      .getByRole('button', { name: /ataskaita/ })
      .click();
    const drawer = page.getByRole('dialog').filter({ hasText: t.statements.statementTitle });
    await expect(drawer.getByText(t.statements.chartHistory)).toBeVisible();
    await expect(drawer.locator('figure svg.recharts-surface').first()).toBeVisible();
    await settle(page);
    const flatId = Number(new URL(page.url()).searchParams.get('flat'));
    const me = await session(DEMO.manager);
    const statement = (
      await api(getFlatStatement, { token: me.Token, params: { flatId }, query: { month: lastMonth() } })
    ).body;

    const dir = mkdtempSync(path.join(tmpdir(), 'print-'));
    const file = path.join(dir, 'statement.pdf');
    writeFileSync(file, await page.pdf({ preferCSSPageSize: true, printBackground: true }));
    execFileSync('pdftotext', ['-bbox', file, path.join(dir, 'words.html')]);
    const html = readFileSync(path.join(dir, 'words.html'), 'utf8');
    const pages = [...html.matchAll(/<page[^>]*>([\s\S]*?)<\/page>/g)].map((p) =>
      [...p[1]!.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map(
        (m) => ({ x0: +m[1]!, y0: +m[2]!, x1: +m[3]!, y1: +m[4]!, text: m[5]! }),
      ),
    );
    const text = pages
      .flat()
      .map((w) => w.text)
      .join(' ');
    // Every row of the figures table, every chart's legend, and every month of the 13-month charts.
    for (const label of [t.statements.current, t.statements.previous, t.statements.lastYear, t.statements.averageFlat])
      expect(text).toContain(label);
    for (const kind of statement.Row.Kinds) {
      const legend = `${t.statements.kinds[kind.Kind]} (${t.statements.units[kind.Unit]})`;
      expect(text.split(legend).length - 1, legend).toBeGreaterThanOrEqual(2);
    }
    for (const history of statement.History)
      for (const m of history.Months) expect(text.split(m.Month).length - 1, m.Month).toBeGreaterThanOrEqual(1);
    expect(text).toContain(t.statements.chartHistory);
    // No word's box over another's on any page.
    const overlaps: string[] = [];
    for (const [n, words] of pages.entries())
      for (let i = 0; i < words.length; i++)
        for (let j = i + 1; j < words.length; j++) {
          const a = words[i]!;
          const b = words[j]!;
          const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
          const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
          if (w > 1 && h > 1) overlaps.push(`page ${n + 1}: "${a.text}" over "${b.text}"`);
        }
    expect(overlaps).toEqual([]);
  });

  for (const [width, height] of [
    [768, 1024],
    [1440, 900],
  ] as const) {
    test(`at ${width} px every kind's "this month" is in view without scrolling sideways`, async ({ page }) => {
      const t = TEXTS.lt;
      await figuresReady('admin');
      await page.setViewportSize({ width, height });
      await signInAs(page, 'admin', 'lt');
      await page.goto(`/statements?month=${lastMonth()}`);
      await expect(page.locator('.ant-table-row').first()).toBeVisible();
      await screenReady(page);
      // The children of "Šis mėnuo" are the first heading of each kind.
      const kinds = Object.values(t.statements.kinds);
      let seen = 0;
      for (const kind of kinds) {
        const heading = page.getByRole('columnheader', { name: new RegExp(`^${kind}`) }).first();
        if (!(await heading.count())) continue;
        seen++;
        const box = (await heading.boundingBox())!;
        expect(box.x, kind).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, kind).toBeLessThanOrEqual(width);
      }
      expect(seen).toBeGreaterThan(0);
      // The page itself does not scroll sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // The table does when it is wider than the screen, and says so: a shadow at the edge with more beyond.
      const edges = () =>
        page.evaluate(() => {
          const table = document.querySelector('.statements-table .ant-table')!;
          const body = document.querySelector<HTMLElement>('.statements-table .ant-table-body')!;
          const end = getComputedStyle(table.querySelector('.ant-table-container')!, '::after');
          // The shadow of the left edge hangs on the last column kept in view (flat or building).
          const startCell = table.querySelector('tbody .ant-table-cell-fix-start-shadow-show');
          const start = startCell ? getComputedStyle(startCell, '::after') : { backgroundImage: 'none' };
          return {
            wider: body.scrollWidth > body.clientWidth,
            end: table.classList.contains('ant-table-fix-end-shadow-show') ? end.backgroundImage : 'none',
            start: table.classList.contains('ant-table-fix-start-shadow-show') ? start.backgroundImage : 'none',
          };
        });
      const before = await edges();
      if (width === 768) expect(before.wider).toBe(true);
      if (before.wider) {
        expect(before).toMatchObject({ end: expect.stringContaining('linear-gradient'), start: 'none' });
        await page.locator('.statements-table .ant-table-body').evaluate((b) => b.scrollTo({ left: b.scrollWidth }));
        await expect.poll(edges).toMatchObject({ end: 'none', start: expect.stringContaining('linear-gradient') });
        // Scrolled to the end, each row still says which flat (and, several buildings shown, which building) it is.
        const building = page.getByRole('columnheader', { name: new RegExp(`^${t.statements.building}`) });
        for (const header of [
          page.getByRole('columnheader', { name: new RegExp(`^${t.statements.flat}`) }),
          building,
        ]) {
          if (!(await header.count())) continue;
          const box = (await header.first().boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(width);
        }
      }
    });
  }
});

for (const language of ['lt', 'en'] as const) {
  const t = TEXTS[language];
  for (const role of ['operator', 'admin', 'manager'] as const) {
    test(`axe: statements, the flat's statement, anomalies and their drill-down${role === 'operator' ? ', publishing, degree-days, settings, collectors' : ''} as ${role}, ${language}`, async ({
      page,
    }) => {
      test.setTimeout(300_000);
      const found: Violation[] = [];
      shotName = `${role}-${language}`;
      await signInAs(page, role, language);
      await page.goto(`/statements?month=${lastMonth()}`);
      await screenReady(page);
      await scan(page, 'statements', found);
      const flat = page.locator('.ant-table-row').first().getByRole('button').first();
      if (await flat.count()) {
        await flat.click();
        const drawer = page.getByRole('dialog').filter({ hasText: t.statements.statementTitle });
        await expect(drawer.getByText(t.statements.chartHistory)).toBeVisible();
        await scan(page, 'flat statement', found);
        await page.keyboard.press('Escape');
        await expect(drawer).toBeHidden();
      }
      if (role === 'operator') {
        await page.getByRole('button', { name: t.statements.publish }).click();
        const publish = modal(page);
        await expect(publish).toBeVisible();
        await screenReady(page);
        await scan(page, 'publish dialog', found);
        await publish.getByRole('button', { name: t.common.cancel }).click();
      }
      await page.goto('/anomalies');
      await screenReady(page);
      await scan(page, 'anomalies', found);
      const details = page.getByRole('button', { name: t.anomalies.details }).first();
      if (await details.count()) {
        await details.click();
        const drawer = page.getByRole('dialog').filter({ hasText: t.anomalies.evidence });
        await expect(drawer).toBeVisible();
        await screenReady(page);
        await scan(page, 'anomaly drill-down', found);
        await page.keyboard.press('Escape');
        await expect(drawer).toBeHidden();
      }
      const acknowledge = page.getByRole('button', { name: t.anomalies.acknowledge }).first();
      if (await acknowledge.count()) {
        await acknowledge.click();
        await expect(modal(page)).toBeVisible();
        await scan(page, 'acknowledge dialog', found);
        await modal(page).getByRole('button', { name: t.common.cancel }).click();
      }
      if (role === 'operator') {
        const settings = page.locator('.ant-card', { hasText: t.anomalies.settings.title });
        await settings.getByRole('button', { name: t.common.edit }).first().click();
        await expect(modal(page)).toBeVisible();
        await scan(page, 'setting dialog', found);
        await modal(page).getByRole('button', { name: t.common.cancel }).click();
        await page.goto('/collectors');
        await screenReady(page);
        await scan(page, 'collectors', found);
      }
      expect(found).toEqual([]);
    });
  }
}
