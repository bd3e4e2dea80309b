import type { Page } from '@playwright/test';
import { createCollectorKey, getDeviceDataByUserId } from '@rodmenys/contract';
import { api, baseURL, DEMO, expect, session, signIn, test } from './fixtures';
import { openFirstFlat } from './screens';

/** Posts one wmbusmeters telegram with a collector key, as a collector's `shell=` hook does. */
const postTelegram = (key: string, id: string, at = new Date()) =>
  fetch(`${baseURL()}/api/ingest/wmbusmeters`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-collector-key': key },
    body: JSON.stringify({ _: 'telegram', meter: 'iperl', id, total_m3: 1.5, timestamp: at.toISOString() }),
  });

/** The collector keys' card (the fleet's health table above it lists the keys too). */
const keysCard = (page: Page) =>
  page.locator('.ant-card').filter({ has: page.getByText('Kolektorių raktai', { exact: true }) });

test.describe('collectors', () => {
  test('a second key of the same name (any case) is refused with a Lithuanian message', async ({ page }) => {
    await signIn(page, DEMO.operator);
    await page.getByRole('navigation').getByRole('link', { name: 'Kolektoriai' }).click();
    const name = `Kiemas ${Date.now()}`;
    await page.getByLabel('Pavadinimas').fill(name);
    await page.getByRole('button', { name: 'Sukurti raktą' }).click();
    const dialog = page.getByRole('dialog', { name: `Raktas „${name}“ sukurtas` });
    await dialog.getByRole('button', { name: 'Uždaryti' }).last().click();
    await page.getByLabel('Pavadinimas').fill(name.toUpperCase());
    await page.getByRole('button', { name: 'Sukurti raktą' }).click();
    await expect(page.getByRole('alert')).toContainText(
      `Kolektoriaus raktas pavadinimu „${name.toUpperCase()}“ jau yra`,
    );
    await expect(
      keysCard(page)
        .getByRole('row')
        .filter({ hasText: new RegExp(name, 'i') }),
    ).toHaveCount(1);
  });

  test('an operator creates a key (shown once), sees unmatched meters, revokes the key', async ({ page }) => {
    await signIn(page, DEMO.operator);
    await page.getByRole('navigation').getByRole('link', { name: 'Kolektoriai' }).click();
    await expect(page.getByRole('heading', { name: 'Kolektoriai' })).toBeVisible();

    const name = `Katilinė ${Date.now()}`;
    await page.getByLabel('Pavadinimas').fill(name);
    await page.getByRole('button', { name: 'Sukurti raktą' }).click();
    const dialog = page.getByRole('dialog', { name: `Raktas „${name}“ sukurtas` });
    await expect(dialog).toBeVisible();
    const key = await dialog.getByRole('textbox').inputValue();
    expect(key).toMatch(/^rmc_[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Uždaryti' }).last().click();

    const meterId = String(Date.now()).slice(-8);
    const sent = await postTelegram(key, meterId);
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({ Received: 1, Unmatched: 1 });

    await page.reload();
    await expect(page.getByRole('row').filter({ hasText: meterId })).toContainText('iperl');
    const keyRow = keysCard(page).getByRole('row').filter({ hasText: name });
    await expect(keyRow).toContainText('Galioja');
    await expect(keyRow).not.toContainText(key);
    await keyRow.getByRole('button', { name: 'Panaikinti' }).click();
    const confirm = page.getByRole('tooltip').getByRole('button', { name: 'Panaikinti raktą' });
    await expect(confirm).toBeVisible();
    // The revocation is the server's answer to this click, not a later refresh.
    const revoked = page.waitForResponse(
      (r) => r.request().method() === 'DELETE' && /\/api\/collector-keys\/\d+$/.test(new URL(r.url()).pathname),
    );
    // Enter on the focused button: a pointer click while the pop-up was still zooming in was lost
    // once on a loaded machine (the button had focus, no request went out).
    await confirm.focus();
    await page.keyboard.press('Enter');
    expect((await revoked).ok()).toBe(true);
    await expect(keyRow).toContainText('Panaikintas');
    expect((await postTelegram(key, meterId)).status).toBe(401);
  });

  test('is not offered to other groups', async ({ page }) => {
    await signIn(page, DEMO.admin);
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Vartotojai' })).toBeVisible();
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Kolektoriai' })).toHaveCount(0);
    // The address of a screen the group may not use shows the one not-allowed page.
    await page.goto('/collectors');
    await expect(page.getByRole('heading', { level: 1, name: 'Neleidžiama' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Sukurti|Create/ })).toHaveCount(0);
  });

  test('a device added for a serial waiting in the inbox is installed at its first telegram, so the telegram counts', async ({
    page,
  }) => {
    const operator = await session(DEMO.operator);
    const created = await api(createCollectorKey, { token: operator.Token, body: { name: `Inbox ${Date.now()}` } });
    const meterId = String(Date.now() + 7).slice(-8);
    // Received three hours ago, at a whole minute (the form shows minutes).
    const at = new Date(Math.floor((Date.now() - 3 * 3_600_000) / 60_000) * 60_000);
    expect((await postTelegram(created.body.Key, meterId, at)).status).toBe(200);

    await signIn(page, DEMO.operator);
    await page.goto('/masterData');
    await page.getByRole('tab', { name: 'Vietos ir prietaisai' }).click();
    await openFirstFlat(page);
    await page.getByRole('button', { name: 'Pridėti prietaisą' }).click();
    const dialog = page.getByRole('dialog');
    const type = dialog.getByRole('combobox', { name: 'Tipas' });
    // The list may still be drawing (the types arrive, the drop-down slides in) when the first click
    // lands: click again until the choice shows (a whole run once saw the first click lost).
    await expect(async () => {
      if ((await type.getAttribute('aria-expanded')) !== 'true') await dialog.getByLabel('Tipas').click();
      await page.locator('.ant-select-item-option[title="Šalto vandens skaitiklis"]').click({ timeout: 3_000 });
      await expect(type.locator('..').locator('..')).toContainText('Šalto vandens skaitiklis', { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await dialog.getByLabel('Gamyklinis numeris').fill(meterId);
    await expect(dialog.getByRole('alert').or(dialog.locator('.ant-alert'))).toContainText(
      'laukia nepriskirtų skaitiklių sąraše',
    );
    // The installation time is the telegram's, in the provider's zone (Europe/Vilnius).
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Vilnius',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).format(at);
    await expect(dialog.getByLabel('Įrengtas')).toHaveValue(local);
    await dialog.getByRole('button', { name: 'Išsaugoti' }).click();
    await expect(dialog).toBeHidden();
    // Its LastSeen is the telegram taken in with it, and that reading counts for the device.
    const devices = (await api(getDeviceDataByUserId, { token: operator.Token })).body;
    const added = devices.find((d) => d.DeviceCode === meterId);
    expect(added?.InstalledAt && new Date(added.InstalledAt).getTime()).toBe(at.getTime());
    expect(added?.LastSeen && new Date(added.LastSeen).getTime()).toBe(at.getTime());
  });
});
