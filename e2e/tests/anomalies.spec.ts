import { addDevice, getDeviceDataByUserId, listAnomalies } from '@rodmenys/contract';
import { api, DEMO, expect, session, signIn, test } from './fixtures';

/**
 * A water meter installed 30 days ago in the demo manager's building, with one
 * reading then: the scheduled incremental run (every minute) finds it silent.
 * Returns its serial once its SILENT anomaly is open.
 */
async function silentMeter(): Promise<string> {
  const operator = await session(DEMO.operator);
  const manager = await session(DEMO.manager);
  const devices = (await api(getDeviceDataByUserId, { token: manager.Token })).body;
  const flat = devices.find((d) => d.DeviceTypeId !== 11)!.LocationId;
  const serial = `E2E-SILENT-${Date.now()}`;
  const installed = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 16);
  const added = await api(addDevice, {
    token: operator.Token,
    body: { locationId: flat, deviceTypeId: 3, deviceCode: serial, installedAt: installed, initialReading: 1 },
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

test.describe('anomalies', () => {
  test.setTimeout(180_000);

  test('Lithuanian: counts per building and rule, details with the evidence, acknowledgement with a comment', async ({
    page,
  }) => {
    const serial = await silentMeter();
    await signIn(page, DEMO.operator);
    await page.getByRole('navigation').getByRole('link', { name: 'Anomalijos' }).click();
    await expect(page.getByRole('heading', { name: 'Anomalijos' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'Nėra rodmenų' }).first()).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: serial });
    await expect(row).toContainText('Atvira');
    await row.getByRole('button', { name: 'Išsamiau' }).click();
    const drawer = page.getByRole('dialog').filter({ hasText: 'Įrodymai' });
    // The evidence by its names, not as JSON: "Riba, dienų 3", not "limitDays".
    await expect(drawer.locator('.anomaly-evidence')).toContainText('Riba, dienų');
    await expect(drawer.locator('.anomaly-evidence')).toContainText('Paskutinis rodmuo');
    await expect(drawer).not.toContainText('limitDays');
    await expect(drawer).not.toContainText('{"');
    await expect(drawer).toContainText('Mėnesio pabaigos reikšmės');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await row.getByRole('button', { name: 'Patvirtinti' }).click();
    const dialog = page.getByRole('dialog', { name: /Patvirtinti anomaliją/ });
    await dialog.getByRole('button', { name: 'Patvirtinti' }).click();
    await expect(dialog).toContainText('Parašykite komentarą');
    await dialog.getByLabel('Komentaras').fill('Butas tuščias, savininkas išvykęs');
    await dialog.getByRole('button', { name: 'Patvirtinti' }).click();
    await expect(row).toContainText('Patvirtinta');
    await expect(row).toContainText('Butas tuščias, savininkas išvykęs');
  });

  test('English: a building manager sees only their building and acknowledges an anomaly', async ({ page }) => {
    const serial = await silentMeter();
    const manager = await session(DEMO.manager);
    const mine = (await api(listAnomalies, { token: manager.Token })).body;
    expect(new Set(mine.map((a) => a.BuildingId)).size).toBe(1);
    await page.goto('/login');
    await page.getByRole('link', { name: 'EN', exact: true }).click();
    await signIn(page, DEMO.manager, 'en');
    await page.getByRole('navigation').getByRole('link', { name: 'Anomalies' }).click();
    await expect(page.getByRole('heading', { name: 'Anomalies' })).toBeVisible();
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.locator('.ant-select-item-option', { hasText: /^Open$/ }).click();
    const row = page.getByRole('row').filter({ hasText: serial });
    await expect(row).toContainText('Silent');
    await row.getByRole('button', { name: 'Acknowledge' }).click();
    const dialog = page.getByRole('dialog', { name: /Acknowledge anomaly/ });
    await dialog.getByLabel('Comment').fill('Owner abroad until spring');
    await dialog.getByRole('button', { name: 'Acknowledge' }).click();
    // Filtered to open ones: the acknowledged anomaly leaves the list.
    await expect(row).toHaveCount(0);
    const after = (await api(listAnomalies, { token: manager.Token, query: { state: 'acknowledged' } })).body;
    expect(after.find((a) => a.DeviceCode === serial)).toMatchObject({
      Comment: 'Owner abroad until spring',
      AcknowledgedBy: 'manager',
    });
  });
});
