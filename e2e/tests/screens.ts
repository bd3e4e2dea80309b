import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import {
  addDevice,
  DEVICE_TYPE,
  getDeviceDataByUserId,
  getStatementFigures,
  listAnomalies,
  userLocationRights,
} from '@rodmenys/contract';
import en from '../../web/src/i18n/en.json' with { type: 'json' };
import lt from '../../web/src/i18n/lt.json' with { type: 'json' };
import { api, DEMO, EN, expect, LT, session, tabTo } from './fixtures';

export const TEXTS = { lt, en } as const;
export type Language = keyof typeof TEXTS;
export type Role = keyof typeof DEMO;

/** Every signed-in screen, its menu label and which demo roles may open it (web/src/access.ts). */
export const SCREENS = [
  { path: '/', label: (t: typeof lt) => t.nav.home, roles: ['operator', 'admin', 'manager'] },
  { path: '/deviceData', label: (t: typeof lt) => t.nav.deviceData, roles: ['operator', 'admin', 'manager'] },
  { path: '/myObjects', label: (t: typeof lt) => t.nav.myObjects, roles: ['operator', 'admin', 'manager'] },
  { path: '/locationData', label: (t: typeof lt) => t.nav.locationData, roles: ['operator', 'admin', 'manager'] },
  { path: '/anomalies', label: (t: typeof lt) => t.nav.anomalies, roles: ['operator', 'admin', 'manager'] },
  { path: '/statements', label: (t: typeof lt) => t.nav.statements, roles: ['operator', 'admin', 'manager'] },
  { path: '/users', label: (t: typeof lt) => t.nav.users, roles: ['operator', 'admin'] },
  { path: '/masterData', label: (t: typeof lt) => t.nav.masterData, roles: ['operator'] },
  { path: '/audit', label: (t: typeof lt) => t.nav.audit, roles: ['operator'] },
  { path: '/collectors', label: (t: typeof lt) => t.nav.collectors, roles: ['operator'] },
  { path: '/lorawan', label: (t: typeof lt) => t.nav.lorawan, roles: ['operator'] },
  { path: '/integrations', label: (t: typeof lt) => t.nav.integrations, roles: ['operator', 'admin'] },
  { path: '/devices', label: (t: typeof lt) => t.nav.devices, roles: ['operator', 'admin'] },
  { path: '/profile', label: null, roles: ['operator', 'admin', 'manager'] },
] as const satisfies ReadonlyArray<{ path: string; label: ((t: typeof lt) => string) | null; roles: Role[] }>;

/** Chooses the UI language on the sign-in page (remembered in the browser) and signs in. */
export async function signInAs(page: Page, role: Role, language: Language) {
  await page.goto('/login');
  await page.getByRole('link', { name: language.toUpperCase(), exact: true }).click();
  const text = language === 'lt' ? LT : EN;
  await page.getByLabel(text.username).fill(DEMO[role].username);
  await page.getByLabel(text.password, { exact: true }).fill(DEMO[role].password);
  await page.getByRole('button', { name: text.login }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** The screen's one h1, once its data have loaded. */
export async function screenReady(page: Page) {
  await expect(page.locator('h1')).toHaveCount(1);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await settle(page);
}

/** Waits for running CSS transitions and animations (dialogs, drawers, popovers opening) to finish. */
export async function settle(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/**
 * A dialog or drawer open and still: visible, no antd motion class left (zoom, fade, move) and
 * no animation running. axe measures colours as they are drawn, so a scan mid-animation finds
 * half-faded text and fails on contrast that is fine.
 */
export async function dialogSettled(page: Page, dialog: Locator) {
  await expect(dialog).toBeVisible();
  await page.waitForFunction(
    () =>
      !document.querySelector(
        '.ant-zoom-enter, .ant-zoom-appear, .ant-zoom-leave, .ant-fade-enter, .ant-fade-appear, .ant-fade-leave, ' +
          '.ant-move-up-enter, .ant-move-up-appear, .ant-move-up-leave, .ant-slide-up-enter, .ant-slide-up-appear',
      ),
  );
  await settle(page);
}

/** axe-core's critical and serious findings on the page (or inside `include`), one line each. */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map(
      (v) =>
        `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`.slice(0, 300)).join(', ')}`,
    );
}

/** The user's building with the most device types, as the location tree titles it ("Street No., City"). */
export async function richestBuilding(role: Role): Promise<{ id: number; title: string; search: string }> {
  const me = await session(DEMO[role]);
  const rights = (await api(userLocationRights, { params: { userId: me.Id }, token: me.Token })).body;
  const devices = (await api(getDeviceDataByUserId, { token: me.Token })).body;
  const granted = new Set(rights.map((r) => r.VisibleLocationId));
  const buildings = new Map<number, { types: Set<number>; title: string; search: string }>();
  for (const d of devices) {
    const id = d.Flat === null ? d.LocationId : d.ParentLocationId;
    if (id === null) continue;
    const entry = buildings.get(id) ?? {
      types: new Set<number>(),
      title: `${d.Street} ${d.Building}, ${d.City}`,
      search: `${d.Street} ${d.Building}`,
    };
    entry.types.add(d.DeviceTypeId);
    buildings.set(id, entry);
  }
  const [id, best] = [...buildings].sort(
    ([a, x], [b, y]) => y.types.size - x.types.size || Number(granted.has(b)) - Number(granted.has(a)),
  )[0]!;
  return { id, title: best.title, search: best.search };
}

/**
 * Master data's Locations and devices tab: opens the tree down the first branch, one level at a
 * time (each waits for its children before the next click), and picks the first flat.
 */
export async function openFirstFlat(page: Page) {
  const nodes = page.locator('.ant-tree-treenode');
  await expect(page.locator('.ant-tree-switcher_close').first()).toBeVisible();
  for (let level = 1; level <= 6; level++) {
    const before = await nodes.count();
    // The first closed node is the first child of the branch opened last.
    await page.locator('.ant-tree-switcher_close').first().click();
    await expect.poll(() => nodes.count()).toBeGreaterThan(before);
  }
  await page.locator('.ant-tree-treenode:has(.ant-tree-switcher-noop) .ant-tree-title').first().click();
}

/** The month before the current one (the server's clock and zone are the test machine's here). */
export const lastMonth = () => {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return d.toISOString().slice(0, 7);
};

/** Waits until the scheduled work has valued last month's month ends (a fresh demo start fills them). */
export async function figuresReady(role: keyof typeof DEMO) {
  const me = await session(DEMO[role]);
  await expect
    .poll(
      async () =>
        (await api(getStatementFigures, { token: me.Token, query: { month: lastMonth() } })).body.Rows.some((r) =>
          r.Kinds.some((k) => k.Current.Value !== null),
        ),
      { timeout: 120_000, intervals: [2_000] },
    )
    .toBe(true);
}

/**
 * A water meter installed 45 days ago in the demo manager's building, with one reading then: the
 * scheduled incremental run (every minute) finds it silent. Returns its serial once its SILENT
 * anomaly is open.
 */
export async function silentMeter(): Promise<string> {
  const operator = await session(DEMO.operator);
  const manager = await session(DEMO.manager);
  const devices = (await api(getDeviceDataByUserId, { token: manager.Token })).body;
  const flat = devices.find((d) => d.DeviceTypeId !== DEVICE_TYPE.buildingHeatMeter)!.LocationId;
  const serial = `E2E-SILENT-${Date.now()}`;
  const installed = new Date(Date.now() - 45 * 86_400_000).toISOString().slice(0, 16);
  const added = await api(addDevice, {
    token: operator.Token,
    body: {
      locationId: flat,
      deviceTypeId: DEVICE_TYPE.coldWaterMeter,
      deviceCode: serial,
      installedAt: installed,
      initialReading: 1,
    },
  });
  expect(added.status).toBe(201);
  await expect
    .poll(
      async () =>
        (await api(listAnomalies, { token: operator.Token, query: { rule: 'SILENT', state: 'open' } })).body.some(
          (a) => a.DeviceCode === serial,
        ),
      { timeout: 120_000, intervals: [2_000] },
    )
    .toBe(true);
  return serial;
}

/** The Statements page of `month` with the building `title` ("Street No.") chosen in the picker, keyboard only. */
export async function openStatements(page: Page, t: (typeof TEXTS)[Language], title: string, month: string) {
  await page.goto(`/statements?month=${month}`);
  await expect(page.getByRole('heading', { level: 1, name: t.nav.statements })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.getByLabel(t.statements.buildings).focus();
  await page.keyboard.type(title);
  const active = page.locator('.ant-select-tree-treenode-active');
  for (let i = 0; i < 20 && (await active.innerText()).trim() !== title; i++) await page.keyboard.press('ArrowDown');
  await expect(active).toHaveText(title);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
}

/** A text of the UI with its placeholders filled. */
export const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/{{(\w+)}}/g, (_, k: string) => String(values[k]));

/** Devices' due list: the devices with these serials ticked by keyboard, then "New campaign" opens its dialog. */
export async function startCampaign(page: Page, t: (typeof TEXTS)[Language], serials: string[]) {
  const c = t.campaigns;
  for (const serial of serials) {
    await tabTo(page, page.getByRole('checkbox', { name: fill(c.selectRow, { serial }) }));
    await page.keyboard.press('Space');
  }
  await tabTo(page, page.getByRole('button', { name: fill(c.newCampaignCount, { count: serials.length }) }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await dialogSettled(page, dialog);
  return dialog;
}

/** Master data, the building found by the address search, keyboard only. */
export async function openBuilding(page: Page, t: (typeof TEXTS)[Language], b: { path: string; title: string }) {
  await page.goto('/masterData');
  await page.getByRole('tab', { name: t.masterData.tabTree }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('combobox', { name: t.masterData.search.label }).focus();
  await page.keyboard.type(b.title);
  const wanted = `${t.masterData.search.building}: ${b.path}`;
  const active = page.locator('.ant-select-item-option-active');
  await expect(page.locator('.ant-select-item-option', { hasText: wanted }).first()).toBeVisible();
  for (let i = 0; i < 20 && !(await active.textContent())?.startsWith(wanted); i++)
    await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByText(t.masterData.heatMethod.title, { exact: true })).toBeVisible();
}
