import { listBillingReceivers } from '@rodmenys/contract';
import { api, baseURL, DEMO, expect, session, signIn, test } from './fixtures';
import { signInAs } from './screens';

/** The month before this one, YYYY-MM. */
const lastMonth = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
};
const exportWith = (key: string) =>
  fetch(`${baseURL()}/api/billing/export?month=${lastMonth()}`, { headers: { authorization: `Bearer ${key}` } });

test.describe('integrations', () => {
  test('an operator creates a key for a city (shown once), the key reads the export, revoking it ends it', async ({
    page,
  }) => {
    await signIn(page, DEMO.operator);
    await page.getByRole('navigation').getByRole('link', { name: 'Integracijos' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Integracijos' })).toBeVisible();
    const name = `Atsiskaitymai ${Date.now()}`;
    await page.locator('#integration-key_name').fill(name);
    // Without a location the form says what is missing.
    await page.getByRole('button', { name: 'Sukurti raktą' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Pasirinkite vietas' })).toBeVisible();
    await page.locator('#integrations-locations').click();
    await page.locator('.ant-select-tree-checkbox').first().click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Sukurti raktą' }).click();
    const dialog = page.getByRole('dialog', { name: `Raktas „${name}“ sukurtas` });
    await expect(dialog).toBeVisible();
    const key = await dialog.getByRole('textbox').inputValue();
    expect(key).toMatch(/^rdm_live_[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Uždaryti' }).last().click();

    const read = await exportWith(key);
    expect(read.status).toBe(200);
    const rows = (await read.json()).Rows as { Status: string }[];
    expect(rows.length).toBeGreaterThan(0);

    await page.reload();
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('Galioja');
    await expect(row).not.toContainText(key);
    // Revoking is "Panaikinti", as on Collectors ("Atšaukti" is Cancel's word).
    await row.getByRole('button', { name: 'Panaikinti' }).click();
    // Enter on the focused button (a pointer click while the pop-up zooms in can be lost under load).
    await page.getByRole('tooltip').getByRole('button', { name: 'Panaikinti raktą' }).focus();
    await page.keyboard.press('Enter');
    await expect(row).toContainText('Panaikintas');
    expect((await exportWith(key)).status).toBe(401);
  });

  test('an operator adds a webhook receiver in English and gets its signing secret once', async ({ page }) => {
    await signInAs(page, 'operator', 'en');
    await page.getByRole('navigation').getByRole('link', { name: 'Integrations' }).click();
    const name = `ERP ${Date.now()}`;
    await page.locator('#receiver_name').fill(name);
    await page.locator('#receiver_url').fill('ftp://billing.example/');
    await page.getByRole('button', { name: 'Add receiver' }).click();
    await expect(page.getByText('The address must start with http:// or https://')).toBeVisible();
    await page.locator('#receiver_url').fill('https://billing.example/hook');
    await page.getByRole('button', { name: 'Add receiver' }).click();
    const dialog = page.getByRole('dialog', { name: `Signing secret of "${name}"` });
    await expect(dialog).toBeVisible();
    expect(await dialog.getByRole('textbox').inputValue()).toMatch(/^whsec_/);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    const operator = await session(DEMO.operator);
    const list = await api(listBillingReceivers, { token: operator.Token });
    expect(list.body.Receivers.some((r) => r.Name === name && r.Active)).toBe(true);
  });

  test('an administrator manages keys but sees no receivers; a manager is not offered the screen', async ({ page }) => {
    await signIn(page, DEMO.admin);
    await page.getByRole('navigation').getByRole('link', { name: 'Integracijos' }).click();
    await expect(page.getByRole('button', { name: 'Sukurti raktą' })).toBeVisible();
    await expect(page.getByText('Pranešama paskelbus')).toHaveCount(0);
    await signIn(page, DEMO.manager);
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Integracijos' })).toHaveCount(0);
  });
});
