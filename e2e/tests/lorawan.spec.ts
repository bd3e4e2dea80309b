import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { deleteLnsConnection, listLnsConnections, listLorawanUnmatched } from '@rodmenys/contract';
import { api, baseURL, DEMO, expect, session, tabTo, test } from './fixtures';
import { dialogSettled, screenReady, seriousViolations, signInAs, TEXTS } from './screens';

// The LoRaWAN page as an operator meets it (docs/lorawan.md), by keyboard, in both languages, at
// 1440 and 768 px, axe clean on the page, the connection dialog, the key shown once and the two
// drawers: a connection is added, its key is shown once and is the one ChirpStack's request is
// taken with (an unknown DevEUI lands among the unknown DevEUIs), the demo's connection shows its
// gateways, the focus comes back to each opener, and the connection is deleted again.

const stamp = Date.now().toString(36);
const euiOf = (n: number) => `F0E1D2C3${(Date.now() + n).toString(16).slice(-8).toUpperCase().padStart(8, '0')}`;

/** A ChirpStack `up` event (its JSON marshaler) for a DevEUI, with a W1-sized payload nobody decodes here. */
const upEvent = (devEui: string) => ({
  deduplicationId: randomUUID(),
  time: new Date().toISOString(),
  deviceInfo: { deviceName: `e2e ${devEui}`, devEui },
  fCnt: 7,
  fPort: 100,
  data: Buffer.alloc(51, 1).toString('base64'),
  rxInfo: [{ gatewayId: 'e2e0000000000001', rssi: -97, snr: 6.5 }],
});

const noPageScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test.describe('LoRaWAN', () => {
  test.afterAll(async () => {
    // A run that failed midway leaves no connection of its own behind.
    const { Token: token } = await session(DEMO.operator);
    const mine = (await api(listLnsConnections, { token })).body.filter((c) => c.Name.includes(stamp));
    for (const c of mine) await api(deleteLnsConnection, { token, params: { id: c.Id } });
  });

  for (const [language, width] of [
    ['lt', 1440],
    ['en', 768],
  ] as const) {
    test(`a connection added and deleted by keyboard, its key taking ChirpStack's event, the health drawers, axe clean, ${language} at ${width} px`, async ({
      page,
    }) => {
      test.setTimeout(240_000);
      const t = TEXTS[language];
      const L = t.lorawan;
      const name = `E2E ${language} ${stamp}`;
      await page.setViewportSize({ width, height: 900 });
      await signInAs(page, 'operator', language);
      if (width >= 1024) {
        await tabTo(page, page.getByRole('navigation').getByRole('link', { name: t.nav.lorawan }));
        await page.keyboard.press('Enter');
      } else await page.goto('/lorawan'); // the side menu is folded behind its button at tablet width

      await expect(page.getByRole('heading', { level: 1, name: t.nav.lorawan })).toBeVisible();
      await screenReady(page);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await noPageScroll(page)).toBe(true);

      // Add: kind ChirpStack (the default), a name, no buildings; Save.
      const add = page.getByRole('button', { name: L.connections.add });
      await tabTo(page, add);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: L.connections.add });
      await dialogSettled(page, dialog);
      expect(await seriousViolations(page)).toEqual([]);
      await tabTo(page, dialog.getByLabel(L.connections.name));
      await page.keyboard.type(name);
      await tabTo(page, dialog.getByRole('button', { name: t.common.save }));
      await page.keyboard.press('Enter');

      // The key, once, with where it goes.
      const shown = page.getByRole('dialog', { name: L.connections.keyTitle.replace('{{name}}', name) });
      await dialogSettled(page, shown);
      const key = await shown.getByRole('textbox').inputValue();
      expect(key).toMatch(/^rml_/);
      await expect(shown).toContainText(`${baseURL()}/api/lorawan/chirpstack`);
      await expect(shown).toContainText(`X-Rodmenys-Key: ${key}`);
      expect(await seriousViolations(page)).toEqual([]);
      await tabTo(page, shown.getByRole('button', { name: t.common.close }).last());
      await page.keyboard.press('Enter');
      await expect(shown).toBeHidden();
      await expect(add).toBeFocused();
      // Shown once: the table has its prefix, not the key.
      const row = page.getByRole('row').filter({ hasText: name });
      await expect(row).toContainText(key.slice(0, 8));
      await expect(row).not.toContainText(key);

      // ChirpStack posts with that key: a DevEUI of no building of this connection waits as unknown.
      const devEui = euiOf(language === 'lt' ? 1 : 2);
      const sent = await fetch(`${baseURL()}/api/lorawan/chirpstack?event=up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-rodmenys-key': key },
        body: JSON.stringify(upEvent(devEui)),
      });
      expect(sent.status).toBe(200);
      expect((await sent.json()).Outcome).toBe('unmatched');
      const { Token: token } = await session(DEMO.operator);
      expect(
        (await api(listLorawanUnmatched, { token, query: { devEui } })).body.Data.map((u) => u.Connection),
      ).toEqual([name]);
      // A wrong key is refused and stores nothing.
      const wrong = await fetch(`${baseURL()}/api/lorawan/chirpstack?event=up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-rodmenys-key': `${key.slice(0, -1)}x` },
        body: JSON.stringify(upEvent(euiOf(3))),
      });
      expect(wrong.status).toBe(401);

      // The demo's ChirpStack connection: its health names a gateway; the drawer is axe clean.
      const demoHealth = page.getByRole('button', {
        name: L.connections.health.replace('{{name}}', 'ChirpStack (demo)'),
      });
      await tabTo(page, demoHealth);
      await page.keyboard.press('Enter');
      const drawer = page.getByRole('dialog', { name: L.health.title.replace('{{name}}', 'ChirpStack (demo)') });
      await dialogSettled(page, drawer);
      await expect(drawer.getByRole('heading', { name: L.health.gateways })).toBeVisible();
      await expect(drawer.getByRole('row')).not.toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();
      await expect(demoHealth).toBeFocused();

      // A demo device's radio health, from its DevEUI.
      const devices = page.locator('.ant-card', { has: page.getByText(L.devices.title, { exact: true }) });
      const open = devices
        .getByRole('button', { name: new RegExp(L.devices.open.replace('{{devEui}}', '[0-9A-F]{16}')) })
        .first();
      await tabTo(page, open);
      await page.keyboard.press('Enter');
      const deviceDrawer = page.getByRole('dialog', { name: /DevEUI [0-9A-F]{16}/ });
      await dialogSettled(page, deviceDrawer);
      await expect(deviceDrawer.getByRole('heading', { name: L.device.uplinks })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(deviceDrawer).toBeHidden();
      await expect(open).toBeFocused();

      // Deleted by keyboard: the confirmation's OK has the focus, Enter.
      await tabTo(page, row.getByRole('button', { name: L.connections.deleteOf.replace('{{name}}', name) }));
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('dialog').filter({ hasText: name });
      await dialogSettled(page, confirm);
      const ok = confirm.getByRole('button', { name: L.connections.delete });
      await expect(ok).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
      await expect(add).toBeFocused();
      // Its key is refused from now on.
      const after = await fetch(`${baseURL()}/api/lorawan/chirpstack?event=up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify(upEvent(euiOf(4))),
      });
      expect(after.status).toBe(401);
      expect(await noPageScroll(page)).toBe(true);
    });
  }
});
