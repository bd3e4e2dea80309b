import { chromium } from 'playwright-core';
const base = 'http://127.0.0.1:18500';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const auth = async () => {
  const r = await fetch(`${base}/api/users/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'operator', password: 'demo1234' }) });
  return (await r.json()).Token;
};
const token = await auth();
const api = async (path, init = {}) => {
  const r = await fetch(`${base}/api${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  return r.json();
};
const month = '2026-10';
const fig = await api(`/statements/figures?month=${month}`);
const stepono = fig.Rows.filter((r) => r.Street.includes('Stepono'));
console.log('Stepono rows', stepono.length, stepono.slice(0, 3).map((r) => [r.Flat, r.Kinds.map((k) => [k.Kind, k.Current.Value, k.Current.Sources.join('/'), (k.Markers ?? []).join('/'), (k.LateDeclarations ?? []).join('/')])]));
for (const lang of ['lt', 'en']) {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'lt-LT', timezoneId: 'Europe/Vilnius' });
  const page = await ctx.newPage();
  await page.goto(`${base}/login`);
  await page.getByRole('link', { name: lang.toUpperCase(), exact: true }).click();
  await page.locator('input').first().fill('operator');
  await page.locator('input[type=password]').fill('demo1234');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/$/);
  await page.goto(`${base}/devices`);
  await page.waitForTimeout(1500);
  await page.getByRole('tab').nth(4).click();
  await page.waitForTimeout(2500);
  await page.screenshot({ path: `/tmp/shots/declarations-${lang}.png`, fullPage: false });
  await page.goto(`${base}/statements?month=${month}`);
  await page.waitForTimeout(3000);
  await page.screenshot({ path: `/tmp/shots/statements-${lang}.png`, fullPage: false });
  await ctx.close();
}
await browser.close();
