import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import {
  createCollectorKey,
  getDevicesByLocationId,
  getLocationTree,
  LOCATION_LEVEL,
  listCollectorHealth,
  revokeCollectorKey,
  setCollectorLocations,
  updateDqSetting,
} from '@rodmenys/contract';
import { api, baseURL, DEMO, expect, session, tabTo, test } from './fixtures';
import { dialogSettled, screenReady, seriousViolations, signInAs, TEXTS } from './screens';

// The Collectors page with a silent collector, keyboard only, in both languages, axe clean.
// The silence is real: the built server's scheduler opens the anomaly once the key has sent
// nothing for `collector.silentMinutes` (set to 1 here, put back at the end).

const TEXT = {
  lt: {
    lang: 'LT',
    username: 'Vartotojo vardas',
    nav: 'Kolektoriai',
    heading: 'Kolektoriai',
    silentAlert: 'Nutilę kolektoriai:',
    silent: 'Nutilo',
    meters: (name: string) => `Kolektoriaus ${name} skaitikliai`,
    noClock: 'Nėra laikrodžio (1970)',
    notHeard: 'Negirdėtas',
    assign: (name: string) => `Priskirti pastatus: ${name}`,
    dialog: (name: string) => `Kolektoriaus ${name} pastatai ir gatvės`,
    cancel: 'Atšaukti',
  },
  en: {
    lang: 'EN',
    username: 'Username',
    nav: 'Collectors',
    heading: 'Collectors',
    silentAlert: 'Silent collectors:',
    silent: 'Silent',
    meters: (name: string) => `Meters of ${name}`,
    noClock: 'No clock (1970)',
    notHeard: 'Not heard',
    assign: (name: string) => `Assign buildings to ${name}`,
    dialog: (name: string) => `Buildings and streets of ${name}`,
    cancel: 'Cancel',
  },
} as const;

test.describe('collectors: the fleet at a glance', () => {
  let name = '';
  let buildingName = '';
  let keyId = 0;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    const operator = await session(DEMO.operator);
    const token = operator.Token;
    expect(
      (await api(updateDqSetting, { token, params: { key: 'collector.silentMinutes' }, body: { value: 1 } })).status,
    ).toBe(200);
    name = `Silent ${Date.now().toString(36)}`;
    const key = await api(createCollectorKey, { token, body: { name } });
    keyId = key.body.Id;
    const tree = await api(getLocationTree, { token, query: { maxLevel: LOCATION_LEVEL.building } });
    const building = tree.body.find((n) => n.Level === LOCATION_LEVEL.building)!;
    buildingName = building.Name;
    expect(
      (await api(setCollectorLocations, { token, params: { id: key.body.Id }, body: { locationIds: [building.Id] } }))
        .status,
    ).toBe(200);
    // One telegram from a collector without a clock, then nothing.
    const sent = await fetch(`${baseURL()}/api/ingest/wmbusmeters`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-collector-key': key.body.Key },
      body: JSON.stringify({
        _: 'telegram',
        meter: 'iperl',
        id: '99887766',
        total_m3: 1,
        timestamp: '1970-01-01T00:00:09Z',
      }),
    });
    expect(sent.status).toBe(200);
    // The scheduler's `collectors` job runs every minute: silent within about two.
    await expect
      .poll(async () => (await api(listCollectorHealth, { token })).body.find((c) => c.Name === name)?.Silent, {
        timeout: 240_000,
        intervals: [5_000],
      })
      .toBe(true);
  });

  test.afterAll(async () => {
    const operator = await session(DEMO.operator);
    // Revoked, the collector's anomaly resolves at the next run and its building is judged as before.
    await api(revokeCollectorKey, { token: operator.Token, params: { id: keyId } });
    await api(updateDqSetting, {
      token: operator.Token,
      params: { key: 'collector.silentMinutes' },
      body: { value: 60 },
    });
  });

  for (const language of ['lt', 'en'] as const) {
    const t = TEXT[language];
    test(`a silent collector, keyboard only, axe clean, ${language}`, async ({ page }) => {
      test.setTimeout(180_000);
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
      await page.goto('/login');
      await tabTo(page, page.getByRole('link', { name: t.lang, exact: true }));
      await page.keyboard.press('Enter');
      await tabTo(page, page.getByLabel(t.username));
      await page.keyboard.type(DEMO.operator.username);
      await page.keyboard.press('Tab');
      await page.keyboard.type(DEMO.operator.password);
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/$/);

      await tabTo(page, page.getByRole('navigation').getByRole('link', { name: t.nav }));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1, name: t.heading })).toBeVisible();

      // The alert names it; its row says silent, its building, and the 1970 clock.
      await expect(page.getByRole('status').filter({ hasText: t.silentAlert })).toContainText(name);
      const row = page.getByRole('row').filter({ hasText: name }).first();
      await expect(row).toContainText(t.silent);
      await expect(row).toContainText(buildingName);
      await expect(row).toContainText(t.noClock);
      await expect(row.getByRole('img')).toBeVisible();

      // Its meters open from the keyboard: its building's meters, none heard.
      await tabTo(page, row.getByRole('button', { name: t.meters(name) }));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('row').filter({ hasText: t.notHeard }).first()).toContainText(buildingName);

      // The assignment dialog opens and closes from the keyboard.
      await tabTo(page, row.getByRole('button', { name: t.assign(name) }));
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: t.dialog(name) });
      await dialogSettled(page, dialog);
      const axeDialog = await new AxeBuilder({ page }).analyze();
      // The product's dialogs do not close on Escape (a static backdrop): Cancel does.
      await tabTo(page, dialog.getByRole('button', { name: t.cancel }));
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      // Closed, it gives the focus back to the button that opened it.
      await expect(row.getByRole('button', { name: t.assign(name) })).toBeFocused();

      const result = await new AxeBuilder({ page }).analyze();
      const serious = [...axeDialog.violations, ...result.violations]
        .filter((v) => v.impact === 'critical' || v.impact === 'serious')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(serious).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { pointerUsed?: string }).pointerUsed)).toBeUndefined();
    });
  }
  for (const language of ['lt', 'en'] as const) {
    test(`the meter key card, axe clean with refused lines and with a good file, ${language}`, async ({ page }) => {
      const t = TEXTS[language];
      const operator = await session(DEMO.operator);
      const tree = await api(getLocationTree, { token: operator.Token, query: { maxLevel: LOCATION_LEVEL.building } });
      const building = tree.body.find((n) => n.Level === LOCATION_LEVEL.building)!;
      const devices = await api(getDevicesByLocationId, { token: operator.Token, query: { locationId: building.Id } });
      const serial = devices.body.find((d) => d.RemovedAt === null)!.DeviceCode;
      await signInAs(page, 'operator', language);
      await page.goto('/collectors');
      await screenReady(page);
      const card = page.locator('.ant-card', { has: page.getByText(t.meterKeys.title, { exact: true }) });
      await expect(card).toBeVisible();
      const file = page.locator('input[type=file]');
      const send = (name: string, text: string) =>
        file.setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });

      // Refused lines: the problems table, each line named.
      await send('blogas.csv', `KAM;${serial};xyz\nK;NOPE-${Date.now()};${'0'.repeat(32)}\n`);
      await expect(card.getByRole('row')).toHaveCount(3);
      await expect(card).toContainText(t.meterKeys.problems.malformedKey);
      await dialogSettled(page, card);
      expect(await seriousViolations(page)).toEqual([]);

      // A good file, checked and not stored: the lines with their change tags.
      await send('geras.csv', `KAM;${serial};${'0123456789abcdef'.repeat(2)}\n`);
      await expect(card.locator('.ant-tag')).toHaveCount(1);
      await dialogSettled(page, card);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
