import { getAllObjects, getAllUsers } from '@rodmenys/contract';
import { api, DEMO, expect, session, signIn, test } from './fixtures';

test.describe('shell', () => {
  test('top bar and side menu only when signed in; name, last sign-in, Profile and Log out', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('navigation')).toHaveCount(0);
    const before = await session(DEMO.admin); // a sign-in, so the next one has a previous sign-in to show
    await signIn(page, DEMO.admin);
    const fullName = `${before.FirstName} ${before.LastName}`;
    const nav = page.getByRole('navigation');
    await expect(nav.getByText(fullName)).toBeVisible();
    await expect(nav.getByText('Prisijungęs')).toBeVisible();
    await expect(nav.getByText('Pagrindinė navigacija')).toBeVisible();
    for (const item of ['Įrenginių duomenys', 'Mano objektai', 'Vietovių duomenys', 'Vartotojai']) {
      await expect(nav.getByRole('link', { name: item })).toBeVisible();
    }
    const account = page.getByRole('button', { name: 'Paskyra' });
    await expect(account).toContainText(fullName);
    await expect(account).toContainText(/Paskutinis prisijungimas: \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);

    await account.click();
    await page.getByRole('menuitem', { name: 'Profilis' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { name: 'Profilis' })).toBeVisible();

    await account.click();
    await page.getByRole('menuitem', { name: 'Atsijungti' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('navigation')).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('rodmenys.user'))).toBeNull();
  });

  test('a group 3 user sees no Users entry, no Users screen, and the API refuses them', async ({ page }) => {
    const me = await session(DEMO.manager);
    expect(me.GroupId).toBe(3);
    await signIn(page, DEMO.manager);
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Mano objektai' })).toBeVisible();
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Vartotojai' })).toHaveCount(0);
    await page.goto('/users');
    await expect(page.getByRole('heading', { level: 1, name: 'Neleidžiama' })).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    expect((await api(getAllUsers, { token: me.Token })).status).toBe(403);
  });

  test('phone width: the side menu opens from the menu button', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, DEMO.operator);
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await page.getByRole('button', { name: 'Atidaryti meniu' }).click();
    await page.getByRole('navigation').getByRole('link', { name: 'Vietovių duomenys' }).click();
    await expect(page).toHaveURL(/\/locationData$/);
    await expect(page.getByRole('heading', { name: 'Vietovių duomenys' })).toBeVisible();
  });
});

test.describe('session', () => {
  test('a 401 clears the user and returns to /login', async ({ page }) => {
    await signIn(page, DEMO.operator);
    // The server forgets this token (signed out elsewhere): the next call answers 401.
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('rodmenys.user')!).Token as string);
    const out = await fetch(`${process.env.E2E_BASE_URL}/api/users/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.status).toBe(200);
    await page.getByRole('navigation').getByRole('link', { name: 'Vietovių duomenys' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('rodmenys.user'))).toBeNull();
  });

  test('another load error shows a retry and keeps the user signed in', async ({ page }) => {
    const me = await session(DEMO.operator);
    await signIn(page, DEMO.operator);
    let fail = true;
    await page.route('**/api/locationData/getAllObjects**', (route) =>
      fail ? route.fulfill({ status: 503, json: { message: 'Service unavailable' } }) : route.fallback(),
    );
    await page.getByRole('navigation').getByRole('link', { name: 'Vietovių duomenys' }).click();
    await expect(page.getByText('Nepavyko įkelti duomenų')).toBeVisible();
    await expect(page).toHaveURL(/\/locationData$/);
    expect(await page.evaluate(() => localStorage.getItem('rodmenys.user'))).not.toBeNull();
    fail = false;
    await page.getByRole('button', { name: 'Bandyti dar kartą' }).click();
    await expect(page.getByText('Nepavyko įkelti duomenų')).toHaveCount(0);
    const first = (await api(getAllObjects, { query: { page: 1, pageSize: 5 }, token: me.Token })).body.Data[0]!;
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: first.Building ?? '' })
        .first(),
    ).toBeVisible();
  });
});
