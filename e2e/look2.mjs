import { chromium } from 'playwright-core';
const base = 'http://127.0.0.1:18500';
const r0 = await fetch(`${base}/api/users/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'operator', password: 'demo1234' }) });
const token = (await r0.json()).Token;
const api = async (path, init = {}) => {
  const r = await fetch(`${base}/api${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  return r.json();
};
const fig = await api(`/statements/figures?month=2026-10`);
const row = fig.Rows.find((r) => r.Street.includes('Stepono') && r.Flat === '1');
const occ = await api(`/occupancies/flats/${row.FlatId}`);
const o = occ.Occupancies.find((x) => x.MoveOut === null);
const sec = await api(`/occupancies/${o.Id}/access/reissue`, { method: 'POST', body: '{}' });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const lang of ['lt', 'en']) {
  const ctx = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: lang === 'lt' ? 'lt-LT' : 'en-GB', timezoneId: 'Europe/Vilnius' });
  const page = await ctx.newPage();
  await page.goto(`${base}/occupant/open#${sec.Token}`);
  await page.waitForTimeout(2500);
  if (lang === 'en') { const b = page.getByRole('button', { name: /EN/ }); if (await b.count()) await b.first().click(); await page.waitForTimeout(1000); }
  await page.screenshot({ path: `/tmp/shots/occ-months-${lang}.png`, fullPage: true });
  await page.goto(`${base}/occupant/declare`);
  await page.waitForTimeout(2500);
  await page.screenshot({ path: `/tmp/shots/occ-declare-${lang}.png`, fullPage: true });
  await ctx.close();
}
await browser.close();
console.log('ok', o.Id);
