import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import {
  getFlatOccupancies,
  getOccupantProfile,
  getStatementFigures,
  publishStatements,
  reissueOccupantAccess,
  updateOccupancy,
} from '@rodmenys/contract';
import { api, DEMO, expect, session, test } from './fixtures';
import { figuresReady, lastMonth, settle, TEXTS } from './screens';

// The occupant's pages (docs/occupant-access.md, "The occupant's pages") on a 360 × 740 phone, in
// both languages: the e-mail's link, the months, a month's statement and its PDF, electronic
// delivery switched off (and the server says so), the language switch, signing out, the code page
// with a wrong code and then the right one, by keyboard; axe on every page; no sideways scrolling.

const PHONE = { width: 360, height: 740 };
test.use({ viewport: PHONE });

type Language = keyof typeof TEXTS;

/**
 * An occupant of last month's published statements, prepared by the operator through the API: a
 * demo flat with figures (the `index`-th), its building published, its occupancy given `language`,
 * an e-mail and consent, and new secrets issued (shown once: the link's token and the letter code).
 */
async function occupant(language: Language, index: number) {
  const month = lastMonth();
  const before = monthBefore(month);
  const operator = await session(DEMO.operator);
  // Buildings the other demo accounts see stay unpublished: their specs expect preliminary figures.
  const seenByOthers = new Set<number>();
  for (const role of ['admin', 'manager'] as const) {
    const other = await session(DEMO[role]);
    const theirs = (await api(getStatementFigures, { token: other.Token, query: { month } })).body.Rows;
    for (const r of theirs) seenByOthers.add(r.BuildingId);
  }
  const all = (await api(getStatementFigures, { token: operator.Token, query: { month } })).body.Rows.filter((r) =>
    r.Kinds.some((k) => k.Current.Value !== null),
  );
  const rows = all.some((r) => !seenByOthers.has(r.BuildingId))
    ? all.filter((r) => !seenByOthers.has(r.BuildingId))
    : all;
  // Flats with allocators first: their statement explains how the building's kWh were shared.
  rows.sort((a, b) => Number(b.Kinds.some((k) => k.Units !== null)) - Number(a.Kinds.some((k) => k.Units !== null)));
  const row = rows[index]!;
  // The month before too: the statement then charts the occupancy's own months.
  for (const m of [before, month]) {
    const published = await api(publishStatements, {
      token: operator.Token,
      body: { month: m, locationIds: [row.BuildingId] },
    });
    expect(published.status).toBe(200);
  }
  const flat = (await api(getFlatOccupancies, { token: operator.Token, params: { id: row.FlatId } })).body;
  const o = flat.Occupancies.find((x) => x.MoveOut === null)!;
  const updated = await api(updateOccupancy, {
    token: operator.Token,
    params: { id: o.Id },
    body: {
      clientCode: o.ClientCode,
      name: o.Name,
      email: `occupant${row.FlatId}@example.com`,
      phone: o.Phone,
      language,
      consentAt: '2026-01-05',
      consentChannel: 'email',
      moveIn: o.MoveIn,
      moveOut: o.MoveOut,
    },
  });
  expect(updated.status).toBe(200);
  const secrets = await api(reissueOccupantAccess, { token: operator.Token, params: { id: o.Id } });
  expect(secrets.status).toBe(201);
  return { month, flatId: row.FlatId, occupancyId: o.Id, ...secrets.body };
}

/** The month before `month` (YYYY-MM). */
function monthBefore(month: string) {
  const d = new Date(`${month}-15T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return d.toISOString().slice(0, 7);
}

/** axe on the page as it is now: no serious or critical violation. */
async function axe(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton')).toHaveCount(0);
  await settle(page);
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${name}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}

/** The page is no wider than the phone: nothing to scroll sideways, every chart inside. */
async function fitsThePhone(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
  for (const chart of await page.locator('figure svg.recharts-surface').all()) {
    const box = (await chart.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  }
}

/** The occupant session the tab keeps (to ask the server what it now holds). */
const occupantToken = (page: Page) =>
  page.evaluate(() => (JSON.parse(sessionStorage.getItem('rodmenys.occupant') ?? '{}') as { Token?: string }).Token);

/** Tabs from the page's start until `target` has the focus (keyboard only). */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, most = 15) {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error('never reached by Tab');
}

for (const [index, language] of (['lt', 'en'] as const).entries()) {
  const t = TEXTS[language].occupant;
  const other = language === 'lt' ? 'en' : 'lt';

  test(`the occupant's pages on a phone, ${language}`, async ({ page }) => {
    test.setTimeout(300_000);
    await figuresReady('operator');
    const o = await occupant(language, index);
    const monthTitle = new RegExp(t.statement.title.replace('{{month}}', '.+'));

    // The pages call the occupant's endpoints only: nothing of the back office.
    const calls: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/')) calls.push(`${r.method()} ${path}`);
    });

    // The e-mail's link: the token leaves the address, the months open in the occupancy's language.
    await page.goto(`/occupant/open#${o.Token}`);
    await expect(page.getByRole('heading', { level: 1, name: t.months.title })).toBeVisible();
    expect(new URL(page.url()).hash).toBe('');
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.getByRole('navigation')).toHaveCount(0); // no back-office menu
    const months = page.locator('.occupant-months li');
    await expect(months).toHaveCount(2);
    await axe(page, 'months');
    await fitsThePhone(page);
    await page.screenshot({ path: `.artifacts/screens/occupant-${language}-months.png`, fullPage: true });

    // The month's statement: figures, explanations, charts.
    await months.first().getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1, name: monthTitle })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: t.statement.notes })).toBeVisible();
    await expect(page.getByText(t.explain.average)).toBeVisible();
    await expect(page.locator('.occupant-figures').first()).toBeVisible();
    await expect(page.locator('figure svg.recharts-surface').first()).toBeVisible();
    // The occupancy's own months: a chart, and the same as a table.
    await expect(page.getByText(t.chart.history).first()).toBeVisible();
    await page.getByText(t.chart.asTable).first().click();
    await expect(page.locator('.occupant-history-table tbody tr').first()).toBeVisible();
    await axe(page, 'statement');
    await fitsThePhone(page);
    await page.screenshot({ path: `.artifacts/screens/occupant-${language}-statement.png`, fullPage: true });

    // Its PDF.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: t.statement.pdf }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    expect(
      readFileSync((await download.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    // Back to the months; electronic delivery off, by keyboard: the page and the server say so.
    await page.getByRole('link', { name: t.statement.back }).click();
    const toggle = page.getByRole('switch', { name: t.consent.label });
    await expect(toggle).toBeChecked();
    await tabTo(page, toggle);
    await page.keyboard.press('Space');
    await expect(page.getByText(t.consent.savedOff)).toBeVisible();
    await expect(toggle).not.toBeChecked();
    await expect(page.getByText(t.consent.off)).toBeVisible();
    const token = await occupantToken(page);
    const profile = await api(getOccupantProfile, { token });
    expect(profile.body.Electronic).toBe(false);
    const operator = await session(DEMO.operator);
    const flat = (await api(getFlatOccupancies, { token: operator.Token, params: { id: o.flatId } })).body;
    expect(flat.Occupancies.find((x) => x.Id === o.occupancyId)?.ConsentAt).toBeNull();

    expect(calls.filter((c) => !/^\w+ \/api\/occupant\//.test(c))).toEqual([]);
    expect(calls.some((c) => c.includes(o.Token))).toBe(false);

    // The language switch, and back.
    await page.getByRole('link', { name: other.toUpperCase(), exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: TEXTS[other].occupant.months.title })).toBeVisible();
    await page.getByRole('link', { name: language.toUpperCase(), exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: t.months.title })).toBeVisible();

    // Signing out ends the session on the server too.
    await page.getByRole('button', { name: t.signOut }).click();
    await expect(page.getByText(t.signedOut)).toBeVisible();
    expect((await api(getOccupantProfile, { token })).status).toBe(401);

    // The code page, keyboard only: a wrong code is said in plain words, the right one opens the months.
    await expect(page.getByRole('heading', { level: 1, name: t.code.title })).toBeVisible();
    const flatField = page.getByLabel(t.code.flat);
    await tabTo(page, flatField);
    await page.keyboard.type(String(o.flatId));
    await page.keyboard.press('Tab');
    await page.keyboard.type('ZZZZZ-ZZZZZ');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: t.code.refused })).toBeVisible();
    await axe(page, 'code page, refused');
    await fitsThePhone(page);
    await page.screenshot({ path: `.artifacts/screens/occupant-${language}-code-refused.png`, fullPage: true });
    const codeField = page.getByLabel(t.code.code, { exact: true });
    await codeField.fill(o.LetterCode.toLowerCase());
    await codeField.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: t.months.title })).toBeVisible();
  });
}

test('a link that does not work says so and leads to the code page; the pages ask for a session', async ({ page }) => {
  await page.goto('/occupant/open#not-a-real-token');
  await expect(page.getByRole('alert')).toContainText(TEXTS.lt.occupant.link.refused);
  expect(new URL(page.url()).hash).toBe('');
  await axe(page, 'link refused');
  await fitsThePhone(page);
  await page.getByRole('button', { name: TEXTS.lt.occupant.link.toCode }).click();
  await expect(page.getByRole('heading', { level: 1, name: TEXTS.lt.occupant.code.title })).toBeVisible();
  await page.goto('/occupant/months');
  await expect(page.getByText(TEXTS.lt.serverErrors.occupantSignInFirst)).toBeVisible();
  await axe(page, 'code page');
});
