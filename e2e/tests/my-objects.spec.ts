import { getUserObjects, userLocationRights } from '@rodmenys/contract';
import { api, DEMO, expect, session, signIn, test } from './fixtures';

test.describe('my objects', () => {
  test('choose an object (stored, "Pasirinkta:"), cancel it; headings are not selectable; sign-out clears it', async ({
    page,
  }) => {
    const me = await session(DEMO.admin);
    const locations = (await api(userLocationRights, { params: { userId: me.Id }, token: me.Token })).body;
    const building = locations.find((l) => l.VisibleLocationId !== 0)!;
    expect(building).toBeTruthy();
    const flats = (
      await api(getUserObjects, {
        query: { page: 1, pageSize: 10, locationId: building.VisibleLocationId },
        token: me.Token,
      })
    ).body;

    await signIn(page, DEMO.admin);
    await page.getByRole('navigation').getByRole('link', { name: 'Mano objektai' }).click();
    await expect(page.getByText('Objektas nepasirinktas: rodomi visi jūsų butai.')).toBeVisible();
    const locationTable = page.getByRole('table').first();
    for (const heading of locations.filter((l) => l.VisibleLocationId === 0)) {
      const row = locationTable.getByRole('row').filter({ hasText: heading.VisibleLocationPath }).first();
      await expect(row.getByRole('button')).toHaveCount(0);
    }
    for (const header of ['Butas', 'Objektas', 'Klientas', 'Kategorija']) {
      await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
    }

    await page.getByRole('button', { name: `Pasirinkti: ${building.VisibleLocationPath}` }).click();
    const notice = page.locator('.ant-notification-notice');
    await expect(notice).toContainText('Pasirinkta:');
    await expect(notice).toContainText(building.VisibleLocationPath);
    await expect(page.getByText(`Butai: ${building.VisibleLocationPath}`)).toBeVisible();
    await expect(page.getByText(`1–${Math.min(10, flats.Total)} iš ${flats.Total}`)).toBeVisible();
    expect(
      await page.evaluate(() => [localStorage.getItem('rodmenys.object'), localStorage.getItem('rodmenys.objectId')]),
    ).toEqual([building.VisibleLocationPath, String(building.VisibleLocationId)]);

    await page.reload();
    await expect(page.getByRole('button', { name: 'Atšaukti pasirinkimą' })).toBeVisible();
    await page.getByRole('button', { name: 'Atšaukti pasirinkimą' }).click();
    await expect(page.getByText('Objektas nepasirinktas: rodomi visi jūsų butai.')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('rodmenys.objectId'))).toBeNull();

    await page.getByRole('button', { name: `Pasirinkti: ${building.VisibleLocationPath}` }).click();
    await page.getByRole('button', { name: 'Paskyra' }).click();
    await page.getByRole('menuitem', { name: 'Atsijungti' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('rodmenys.objectId'))).toBeNull();
    await signIn(page, DEMO.admin);
    await page.goto('/myObjects');
    await expect(page.getByText('Objektas nepasirinktas: rodomi visi jūsų butai.')).toBeVisible();
  });

  test('English: choosing shows "Selected:"', async ({ page }) => {
    const me = await session(DEMO.manager);
    const [first] = (await api(userLocationRights, { params: { userId: me.Id }, token: me.Token })).body.filter(
      (l) => l.VisibleLocationId !== 0,
    );
    await page.goto('/login');
    await page.getByRole('link', { name: 'EN', exact: true }).click();
    await signIn(page, DEMO.manager, 'en');
    await page.getByRole('navigation').getByRole('link', { name: 'My objects' }).click();
    await page.getByRole('button', { name: `Select: ${first!.VisibleLocationPath}` }).click();
    await expect(page.locator('.ant-notification-notice')).toContainText('Selected:');
    await expect(page.getByText(`Flats: ${first!.VisibleLocationPath}`)).toBeVisible();
  });
});
