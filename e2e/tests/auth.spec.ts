import { authenticate, getAllUsers, updateUser } from '@rodmenys/contract';
import lt from '../../web/src/i18n/lt.json' with { type: 'json' };
import { api, DEMO, EN, expect, LT, newUser, session, signIn, test } from './fixtures';

test.describe('route guard', () => {
  test('sends a visitor without a session to /login from every screen', async ({ page }) => {
    for (const path of ['/', '/users', '/locationData', '/deviceData', '/myObjects', '/profile', '/dashboard/v1']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
    await page.goto('/register');
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByRole('heading', { name: 'Registracija' })).toBeVisible();
  });

  test('template demo routes lead to the not-found page', async ({ page }) => {
    await signIn(page, DEMO.operator);
    for (const path of [
      '/dashboard/v1',
      '/examples/chart',
      '/ui-elements/icons',
      '/forms/general-elements',
      '/sample',
    ]) {
      await page.goto(path);
      await expect(page.getByText('Puslapis nerastas')).toBeVisible();
    }
    await page.getByRole('button', { name: 'Į pradžią' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('back to work after sign-in', () => {
  test('returns to the page asked for after the redirect to sign-in', async ({ page }) => {
    await page.goto('/locationData?x=1');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel(LT.username).fill(DEMO.operator.username);
    await page.getByLabel(LT.password, { exact: true }).fill(DEMO.operator.password);
    await page.getByRole('button', { name: LT.login }).click();
    await expect(page).toHaveURL(/\/locationData\?x=1$/);
  });

  test('a deactivated user is signed out with the reason, in Lithuanian', async ({ page }) => {
    const user = await newUser('off');
    await signIn(page, user);
    const operator = await session(DEMO.operator);
    const off = await api(updateUser, { params: { id: user.id }, body: { active: false }, token: operator.Token });
    expect(off.status).toBe(200);
    // The page's next request ends the session: a click, or one of its own background refreshes,
    // which may already have taken it to the sign-in page.
    await page
      .getByRole('navigation')
      .getByRole('link', { name: 'Mano objektai' })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('alert')).toContainText(lt.serverErrors.accountDeactivated);
    // Signing in again is refused like a wrong password (docs/security.md), in Lithuanian.
    await page.getByLabel(LT.username).fill(user.username);
    await page.getByLabel(LT.password, { exact: true }).fill(user.password);
    await page.getByRole('button', { name: LT.login }).click();
    await expect(page.getByRole('alert')).toContainText(lt.login.refused);
  });
});

test.describe('sign-in', () => {
  test('shows messages only after a submit attempt and calls the server only when valid', async ({ page }) => {
    const calls: string[] = [];
    page.on('request', (r) => r.url().includes('/api/users/authenticate') && calls.push(r.url()));
    await page.goto('/login');
    await expect(page.getByText('Įveskite vartotojo vardą')).toHaveCount(0);
    await page.getByLabel(LT.username).fill('x');
    await page.getByLabel(LT.username).fill('');
    await expect(page.getByText('Įveskite vartotojo vardą')).toHaveCount(0);
    await page.getByRole('button', { name: LT.login }).click();
    await expect(page.getByText('Įveskite vartotojo vardą')).toBeVisible();
    await expect(page.getByText('Įveskite slaptažodį')).toBeVisible();
    await page.getByLabel(LT.username).fill('operator');
    await page.getByRole('button', { name: LT.login }).click();
    await expect(page.getByText('Įveskite slaptažodį')).toBeVisible();
    expect(calls).toHaveLength(0);
  });

  test('a wrong password shows the server error as a danger alert, cleared on route change', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel(LT.username).fill(DEMO.operator.username);
    await page.getByLabel(LT.password, { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: LT.login }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toBeVisible();
    await expect(alert).toHaveClass(/ant-alert-error/);
    // In the UI language.
    await expect(alert).toContainText(lt.login.refused);
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('rodmenys.user'))).toBeNull();
    await page.getByRole('link', { name: 'Registruotis' }).click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('a refused sign-in says one translated thing, also for a deactivated account (lt and en)', async ({ page }) => {
    const user = await newUser('refused');
    const operator = await session(DEMO.operator);
    await page.goto('/login');
    await page.getByLabel(LT.username).fill(user.username);
    await page.getByLabel(LT.password, { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: LT.login }).click();
    const refusedLt = 'Neteisingas vartotojo vardas arba slaptažodis, arba paskyra išjungta.';
    await expect(page.getByRole('alert')).toHaveText(refusedLt);
    expect(
      (await api(updateUser, { params: { id: user.id }, body: { active: false }, token: operator.Token })).status,
    ).toBe(200);
    // The right password of a deactivated account: the same answer, in English too.
    await page.getByRole('link', { name: 'EN', exact: true }).click();
    await page.getByLabel(EN.password, { exact: true }).fill(user.password);
    await page.getByRole('button', { name: EN.login }).click();
    await expect(page.getByRole('alert')).toHaveText('Incorrect username or password, or the account is deactivated.');
  });

  test('repeated failures are held back with a translated "try again in" message', async ({ page }) => {
    const user = await newUser('held');
    // Fail from this address until the delay has grown past a few seconds (each delay waited out).
    let retryAfter = 0;
    for (let i = 0; i < 20 && retryAfter < 4; i++) {
      const res = await fetch(`${process.env.E2E_BASE_URL}/api${authenticate.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: user.username, password: 'wrong-password' }),
      });
      if (res.status === 429) {
        retryAfter = Number(res.headers.get('retry-after'));
        if (retryAfter < 4) await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
      }
    }
    expect(retryAfter).toBeGreaterThanOrEqual(4);
    await page.goto('/login');
    await page.getByLabel(LT.username).fill(user.username);
    await page.getByLabel(LT.password, { exact: true }).fill(user.password);
    await page.getByRole('button', { name: LT.login }).click();
    await expect(page.getByRole('alert')).toHaveText(/^Per daug bandymų\. Pabandykite po \d+ s\.$/);
  });

  test('disables the button and shows a spinner while signing in; success leads home with the greeting', async ({
    page,
  }) => {
    const me = await session(DEMO.operator);
    await page.route('**/api/users/authenticate', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.goto('/login');
    await page.getByLabel(LT.username).fill(DEMO.operator.username);
    await page.getByLabel(LT.password, { exact: true }).fill(DEMO.operator.password);
    const button = page.getByRole('button', { name: LT.login });
    await button.click();
    await expect(button).toBeDisabled();
    await expect(button.locator('.ant-btn-loading-icon')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: `Sveiki, ${me.FirstName}!` })).toBeVisible();
    await expect(page.getByText('Jūs prisijungę prie nuotolinių rodmenų sistemos.')).toBeVisible();
  });

  test('opening /login signs the current user out (the token stops working)', async ({ page }) => {
    await signIn(page, DEMO.operator);
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('rodmenys.user')!).Token as string);
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Prisijungimas' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('rodmenys.user'))).toBeNull();
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(async () => (await api(getAllUsers, { token })).status).toBe(401);
  });
});

test.describe('registration', () => {
  test('validates first, then registers and returns to /login with "Registracija sėkminga"', async ({ page }) => {
    const calls: string[] = [];
    page.on('request', (r) => r.url().includes('/api/users/register') && calls.push(r.url()));
    await page.goto('/register');
    await page.getByRole('button', { name: 'Registruotis' }).click();
    for (const text of ['Įveskite vardą', 'Įveskite pavardę', 'Įveskite vartotojo vardą', 'Įveskite slaptažodį']) {
      await expect(page.getByText(text)).toBeVisible();
    }
    await page.getByLabel('Vardas', { exact: true }).fill('Ona');
    await page.getByLabel('Pavardė').fill('Onaitė');
    const username = `ona${Date.now().toString(36)}`;
    await page.getByLabel('Vartotojo vardas').fill(username);
    await page.getByLabel('Slaptažodis').fill('12345');
    await page.getByRole('button', { name: 'Registruotis' }).click();
    await expect(page.getByText('Slaptažodį turi sudaryti bent 6 simboliai')).toBeVisible();
    expect(calls).toHaveLength(0);

    await page.getByLabel('Slaptažodis').fill('123456');
    await page.getByRole('button', { name: 'Registruotis' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('alert')).toContainText('Registracija sėkminga');
    await expect(page.getByRole('alert')).toHaveClass(/ant-alert-success/);
    expect(calls).toHaveLength(1);

    await signIn(page, { username, password: '123456' });
    await expect(page.getByRole('heading', { name: 'Sveiki, Ona!' })).toBeVisible();
  });

  test('a taken user name is shown as a danger alert; Cancel leads to /login', async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('Vardas', { exact: true }).fill('Kitas');
    await page.getByLabel('Pavardė').fill('Operatorius');
    await page.getByLabel('Vartotojo vardas').fill(DEMO.operator.username);
    await page.getByLabel('Slaptažodis').fill('123456');
    await page.getByRole('button', { name: 'Registruotis' }).click();
    await expect(page.getByRole('alert')).toHaveClass(/ant-alert-error/);
    await expect(page.getByRole('alert')).toContainText(`Vartotojo vardas „${DEMO.operator.username}“ jau užimtas`);
    await expect(page).toHaveURL(/\/register$/);
    await page.getByRole('link', { name: 'Atšaukti' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('English: registration validation and sign-in', async ({ page }) => {
    await page.goto('/register');
    await page.getByRole('link', { name: 'EN', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Registration' })).toBeVisible();
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByText('First name is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    const user = await newUser('en');
    await page.getByRole('link', { name: 'Cancel' }).click();
    // The registration form has a "Username" field too: wait for the sign-in form.
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await page.getByLabel(EN.username).fill(user.username);
    await page.getByLabel(EN.password, { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: EN.login }).click();
    await expect(page.getByRole('alert')).toHaveClass(/ant-alert-error/);
    await signIn(page, user, 'en');
    await expect(page.getByRole('heading', { name: `Hi, ${user.firstName}!` })).toBeVisible();
    await expect(page.getByText('You are logged in to the remote meter reading system.')).toBeVisible();
  });
});

test.describe('languages', () => {
  test('Lithuanian by default; English by the flag link, remembered after a reload', async ({ page }) => {
    await signIn(page, DEMO.operator);
    await expect(page.locator('html')).toHaveAttribute('lang', 'lt');
    await expect(page.getByRole('navigation').getByText('Įrenginių duomenys')).toBeVisible();
    await page.getByRole('link', { name: 'EN', exact: true }).click();
    await expect(page.getByRole('navigation').getByText('Device data')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.reload();
    await expect(page.getByRole('navigation').getByText('Device data')).toBeVisible();
    await expect(page.getByRole('navigation').getByText('Main navigation')).toBeVisible();
    // antd's own texts follow too (pagination).
    await page.goto('/locationData');
    await expect(page.getByText('5 / page')).toBeVisible();
    await page.getByRole('link', { name: 'LT', exact: true }).click();
    await expect(page.getByText('5 / psl.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Vietovių duomenys' })).toBeVisible();
  });
});
