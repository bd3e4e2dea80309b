import { type BrowserContext, test as base, expect, type Locator, type Page } from '@playwright/test';
import {
  authenticate,
  type BodyOf,
  type Endpoint,
  fillPath,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
  register,
  type UserSession,
} from '@rodmenys/contract';

export { expect };

/**
 * Presses Tab (or Shift+Tab) until `target` or something inside it has the focus. Fails, naming it,
 * after `max` presses, or when it leaves the page on the way (a list that reloaded under the test).
 */
export async function tabTo(page: Page, target: Locator, { back = false, max = 300 } = {}) {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i++) {
    const has = (el: Element) => el === document.activeElement || el.contains(document.activeElement);
    if (await target.evaluate(has, undefined, { timeout: 5_000 })) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

/** The demo accounts seeded on first start (password demo1234): groups 1, 2 and 3. */
export const DEMO = {
  operator: { username: 'operator', password: 'demo1234' },
  admin: { username: 'admin', password: 'demo1234' },
  manager: { username: 'manager', password: 'demo1234' },
} as const;

export const baseURL = () => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: the global setup did not run');
  return url;
};

/** Calls the API directly (to prepare data and to check what the screens show). */
export async function api<E extends Endpoint>(
  endpoint: E,
  args: { params?: ParamsOf<E>; query?: QueryOf<E>; body?: BodyOf<E>; token?: string } = {},
): Promise<{ status: number; body: ResponseOf<E> }> {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries((args.query ?? {}) as Record<string, unknown>)) {
    if (v !== undefined && v !== null) search.set(k, String(v));
  }
  const qs = search.toString();
  const response = await fetch(
    `${baseURL()}/api${fillPath(endpoint.path, args.params as Record<string, string | number> | undefined)}${qs ? `?${qs}` : ''}`,
    {
      method: endpoint.method,
      headers: {
        ...(args.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(args.token ? { authorization: `Bearer ${args.token}` } : {}),
      },
      body: args.body === undefined ? undefined : JSON.stringify(args.body),
    },
  );
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as ResponseOf<E> };
}

/** Signs in through the API and returns the session (token and account). */
export async function session(account: { username: string; password: string }): Promise<UserSession> {
  const { status, body } = await api(authenticate, { body: account });
  expect(status, `sign-in of ${account.username}`).toBe(200);
  return body;
}

let counter = 0;
/** Registers a fresh group 3 account through the API. */
export async function newUser(prefix = 'user') {
  counter += 1;
  const username = `${prefix}${Date.now().toString(36)}${counter}`;
  const account = { username, password: 'slaptas1', firstName: `Vardenis${counter}`, lastName: `Pavardenis${counter}` };
  const { status, body } = await api(register, { body: account });
  expect(status).toBe(201);
  return { ...account, id: body.Id };
}

/** Signs in through the sign-in page, in Lithuanian (the default) or English. */
export async function signIn(
  page: Page,
  account: { username: string; password: string },
  language: 'lt' | 'en' = 'lt',
) {
  const text = language === 'lt' ? LT : EN;
  await page.goto('/login');
  await page.getByLabel(text.username).fill(account.username);
  await page.getByLabel(text.password, { exact: true }).fill(account.password);
  await page.getByRole('button', { name: text.login }).click();
  await expect(page).toHaveURL(/\/$/);
}

export const LT = { username: 'Vartotojo vardas', password: 'Slaptažodis', login: 'Prisijungti' };
export const EN = { username: 'Username', password: 'Password', login: 'Log in' };

/**
 * Collects the Content-Security-Policy violations of every page of a context: the
 * browser's console report ("Refused to … because it violates the following Content
 * Security Policy directive") and the page's own `securitypolicyviolation` events.
 */
export async function watchCsp(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('__cspViolation', (_source, text: string) => {
    violations.push(text);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(text: string): void }).__cspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  const watch = (page: Page) =>
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
  context.pages().forEach(watch);
  context.on('page', watch);
  return violations;
}

export const test = base.extend<{ cspViolations: string[] }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern
  baseURL: async ({}, use) => {
    await use(baseURL());
  },
  // Every test runs under the product's CSP and fails on a single violation.
  cspViolations: [
    async ({ context }, use) => {
      const violations = await watchCsp(context);
      await use(violations);
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});
