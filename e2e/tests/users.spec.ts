import type { Page } from '@playwright/test';
import { authenticate, getLocationTree, getUser, logout, userLocationRights } from '@rodmenys/contract';
import { api, DEMO, expect, newUser, session, signIn, test } from './fixtures';

/** The accounts table (the "waiting for access" list above it has rows too). */
const usersTable = (page: Page) => page.locator('.users-table');

async function openUsers(page: Page, search?: string) {
  await page.getByRole('navigation').getByRole('link', { name: 'Vartotojai' }).click();
  await expect(page.getByRole('heading', { name: 'Vartotojai' })).toBeVisible();
  if (search) {
    await page.getByRole('searchbox', { name: 'Paieška' }).fill(search);
    await page.getByRole('searchbox', { name: 'Paieška' }).press('Enter');
    await expect(usersTable(page).getByRole('row')).toHaveCount(2); // header + the one user
  }
}
const rowOf = (page: Page, username: string) => usersTable(page).getByRole('row').filter({ hasText: username });

test.describe('users', () => {
  test('server-paged table: Added and Updated as YYYY-MM-DD HH:mm, Active as a mark, page sizes 5 to 500', async ({
    page,
  }) => {
    for (let i = 0; i < 11; i++) await newUser('page');
    await signIn(page, DEMO.operator);
    await openUsers(page);
    for (const header of ['Vartotojo vardas', 'Sukurta', 'Atnaujinta', 'Aktyvus']) {
      await expect(usersTable(page).getByRole('columnheader', { name: header })).toBeVisible();
    }
    await expect(usersTable(page).getByRole('row')).toHaveCount(11); // header + 10 (default page size)
    const operatorRow = rowOf(page, 'operator').first();
    await expect(operatorRow).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await expect(operatorRow.getByRole('img', { name: 'Taip' })).toBeVisible();
    await expect(page.getByText(/^1–10 iš \d+$/)).toBeVisible();

    await page.getByText('10 / psl.').click();
    for (const size of [5, 10, 20, 50, 100, 500]) {
      await expect(page.getByRole('option', { name: `${size} / psl.` })).toBeAttached();
    }
    await page.getByRole('option', { name: '5 / psl.' }).click();
    await expect(usersTable(page).getByRole('row')).toHaveCount(6);
    await page.getByRole('listitem', { name: '2' }).click();
    await expect(page.getByText(/^6–10 iš \d+$/)).toBeVisible();
  });

  test('delete with a static confirmation: the row shows "deleting", then is gone', async ({ page }) => {
    const victim = await newUser('del');
    await signIn(page, DEMO.operator);
    await openUsers(page, victim.username);
    await page.route('**/api/users/*', async (route) => {
      if (route.request().method() === 'DELETE') await new Promise((r) => setTimeout(r, 800));
      await route.fallback();
    });
    await rowOf(page, victim.username).getByRole('button', { name: 'Ištrinti' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Ištrinti vartotoją?');
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Atšaukti' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Ištrinti' }).click();
    await expect(rowOf(page, victim.username)).toContainText('Trinama...');
    await expect(rowOf(page, victim.username)).toHaveCount(0);
    const operator = await session(DEMO.operator);
    expect((await api(getUser, { params: { id: victim.id }, token: operator.Token })).status).toBe(404);
  });

  test('a failed delete marks the row with the error', async ({ page }) => {
    const victim = await newUser('delfail');
    await signIn(page, DEMO.operator);
    await openUsers(page, victim.username);
    await page.route('**/api/users/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 409, json: { message: 'The account is in use' } })
        : route.fallback(),
    );
    await rowOf(page, victim.username).getByRole('button', { name: 'Ištrinti' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Ištrinti' }).click();
    await expect(rowOf(page, victim.username)).toContainText('Nepavyko ištrinti: The account is in use');
  });

  test('edit a user: group and active flag; an inactive user cannot sign in', async ({ page }) => {
    const user = await newUser('edit');
    await signIn(page, DEMO.operator);
    await openUsers(page, user.username);
    await rowOf(page, user.username).getByRole('button', { name: 'Redaguoti' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Grupė').click();
    await page.getByTitle('Administratorius', { exact: true }).click();
    await dialog.getByRole('switch', { name: 'Aktyvus' }).click();
    await dialog.getByRole('button', { name: 'Išsaugoti' }).click();
    await expect(page.getByText('Vartotojas išsaugotas')).toBeVisible();
    await expect(rowOf(page, user.username)).toContainText('Administratorius');
    await expect(rowOf(page, user.username).getByRole('img', { name: 'Ne' })).toBeVisible();
    expect((await api(authenticate, { body: user })).status).not.toBe(200);
  });

  test('sign out everywhere from the Users page ends every session of the user', async ({ page }) => {
    const user = await newUser('signout');
    const first = await session(user);
    const second = await session(user);
    await signIn(page, DEMO.operator);
    await openUsers(page, user.username);
    await rowOf(page, user.username).getByRole('button', { name: 'Atjungti visur' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Atjungti visur' }).click();
    await expect(page.getByText(`${user.username} atjungtas visur`)).toBeVisible();
    for (const token of [first.Token, second.Token]) {
      expect((await api(getUser, { params: { id: user.id }, token })).status).toBe(401);
    }
    // The operator's own session goes on.
    await expect(rowOf(page, user.username)).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Vartotojai' })).toBeVisible();
  });

  test('a new account is told it waits for access; the operator grants it from the waiting list in one step', async ({
    page,
    browser,
  }) => {
    const user = await newUser('waiting');
    const operator = await session(DEMO.operator);
    const tree = (await api(getLocationTree, { query: { maxLevel: 6 }, token: operator.Token })).body;
    const counts = new Map<string, number>();
    for (const n of tree) counts.set(n.Name, (counts.get(n.Name) ?? 0) + 1);
    const street = tree.find((n) => n.Level === 5 && counts.get(n.Name) === 1)!;

    const userPage = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
    await signIn(userPage, user);
    const notice = userPage.getByRole('status').filter({ hasText: 'Jūsų paskyra laukia prieigos' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('Administratorius turi suteikti');

    await signIn(page, DEMO.operator);
    await page.getByRole('navigation').getByRole('link', { name: 'Vartotojai' }).click();
    const waiting = page.locator('.waiting-for-access');
    await expect(waiting).toContainText('Laukia prieigos');
    const row = waiting.getByRole('row').filter({ hasText: user.username });
    await expect(row).toHaveCount(1);
    await expect(waiting.getByRole('row').filter({ hasText: DEMO.manager.username })).toHaveCount(0);
    await row.getByRole('button', { name: 'Suteikti prieigą' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Vietovės' }).fill(street.Name);
    await page.getByTitle(`${street.Name} · gatvė`, { exact: true }).click();
    await dialog.getByRole('combobox', { name: 'Vietovės' }).press('Escape');
    await dialog.getByRole('button', { name: 'Išsaugoti' }).click();
    await expect(page.getByText('Teisės išsaugotos')).toBeVisible();
    await expect(waiting.getByRole('row').filter({ hasText: user.username })).toHaveCount(0);

    await userPage.reload();
    await expect(userPage.getByRole('heading', { name: /Sveiki/ })).toBeVisible();
    await expect(notice).toHaveCount(0);
    await userPage.close();
  });

  test('user row actions are named by visible labels', async ({ page }) => {
    const user = await newUser('labels');
    await signIn(page, DEMO.operator);
    await openUsers(page, user.username);
    for (const name of ['Redaguoti', 'Teisės', 'Atjungti visur', 'Ištrinti']) {
      await expect(rowOf(page, user.username).getByRole('button', { name })).toHaveText(name);
    }
  });

  test('rights granted by an administrator become visible to the user', async ({ page, browser }) => {
    const user = await newUser('rights');
    const operator = await session(DEMO.operator);
    // A street whose name is unique in the tree, so that the search finds exactly it.
    const tree = (await api(getLocationTree, { query: { maxLevel: 6 }, token: operator.Token })).body;
    const counts = new Map<string, number>();
    for (const n of tree) counts.set(n.Name, (counts.get(n.Name) ?? 0) + 1);
    const street = tree.find((n) => n.Level === 5 && counts.get(n.Name) === 1);
    expect(street, 'a street with a unique name in the demo data').toBeTruthy();
    const buildings = tree.filter((n) => n.ParentId === street!.Id).map((n) => n.Name);

    // Before: the new user sees nothing.
    const userPage = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
    await signIn(userPage, user);
    await userPage.getByRole('navigation').getByRole('link', { name: 'Mano objektai' }).click();
    await expect(userPage.getByText('Jums dar nesuteikta teisių į jokias vietoves.')).toBeVisible();

    await signIn(page, DEMO.operator);
    await openUsers(page, user.username);
    await rowOf(page, user.username).getByRole('button', { name: 'Teisės' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Vartotojas neturi teisių ir nemato jokių duomenų.')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Vietovės' }).fill(street!.Name);
    await page.getByTitle(`${street!.Name} · gatvė`, { exact: true }).click();
    await dialog.getByRole('combobox', { name: 'Vietovės' }).press('Escape'); // closes the list, not the dialog
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Išsaugoti' }).click();
    await expect(page.getByText('Teisės išsaugotos')).toBeVisible();

    const rights = (await api(userLocationRights, { params: { userId: user.id }, token: operator.Token })).body;
    expect(rights.length).toBe(buildings.length + 1);
    await userPage.reload();
    const locationTable = userPage.getByRole('table').first();
    await expect(locationTable.getByRole('row').filter({ hasText: street!.Name })).toHaveCount(rights.length);
    for (const right of rights.filter((r) => r.VisibleLocationId !== 0)) {
      await expect(userPage.getByRole('button', { name: `Pasirinkti: ${right.VisibleLocationPath}` })).toBeVisible();
    }
    await userPage.close();
  });
});

test.describe('profile', () => {
  test('the user edits names and changes the password (the current one required)', async ({ page }) => {
    const user = await newUser('prof');
    await signIn(page, user);
    await page.getByRole('button', { name: 'Paskyra' }).click();
    await page.getByRole('menuitem', { name: 'Profilis' }).click();
    await page.getByLabel('Vardas', { exact: true }).fill('Naujas');
    await page.getByLabel('El. paštas').fill('naujas@example.com');
    await page.getByRole('button', { name: 'Išsaugoti' }).click();
    await expect(page.getByText('Duomenys išsaugoti')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Paskyra' })).toContainText(`Naujas ${user.lastName}`);

    await page.getByRole('button', { name: 'Keisti slaptažodį' }).click();
    await expect(page.getByText('Įveskite dabartinį slaptažodį')).toBeVisible();
    await page.getByLabel('Dabartinis slaptažodis').fill('neteisingas');
    await page.getByLabel('Naujas slaptažodis').fill('naujas123');
    await page.getByLabel('Pakartokite naują slaptažodį').fill('naujas123');
    await page.getByRole('button', { name: 'Keisti slaptažodį' }).click();
    // The server's message in Lithuanian (its code translated), not in English.
    await expect(page.getByText('Dabartinis slaptažodis neteisingas')).toBeVisible();
    await page.getByLabel('Dabartinis slaptažodis').fill(user.password);
    await page.getByRole('button', { name: 'Keisti slaptažodį' }).click();
    await expect(page.getByText('Slaptažodis pakeistas')).toBeVisible();
    // The old session ended with the change; this page signed in again and stays signed in.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Profilis' })).toBeVisible();
    expect((await api(authenticate, { body: { username: user.username, password: 'naujas123' } })).status).toBe(200);
  });

  test('the user signs out everywhere: every session ends, this one too', async ({ page }) => {
    const user = await newUser('everywhere');
    const other = await session(user);
    await signIn(page, user);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Atjungti visur' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Atjungti visur' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect((await api(getUser, { params: { id: user.id }, token: other.Token })).status).toBe(401);
    expect((await api(logout, { token: other.Token })).status).toBe(401);
  });
});
