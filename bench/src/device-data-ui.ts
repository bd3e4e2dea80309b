/// <reference lib="dom" />
/**
 * `npm run bench:ui -w bench`: the device data screen in Chromium (docs/device-data.md, "Benchmark").
 *
 * The built web app and the real API over an in-memory PGlite with one
 * building of 1,000 flats holding 5,000 cold water meters and 50,000 hot water
 * meters. Signed in as an operator with that building chosen as the object:
 * 1. picking the device type until the found devices are drawn (and how much of
 *    that came after the data arrived), and "select all" until the detail table
 *    of 5,000 rows is drawn;
 * 2. a keyup in a column filter until the table is redrawn;
 * 3. the export of all rows (5,000 and 50,000) to xlsx: time to the download,
 *    and the longest main-thread task meanwhile (the page staying responsive).
 *
 * BENCH_UI_RUNS overrides the number of filter keystrokes measured.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPglite } from '@rodmenys/server/db/pglite.js';
import { locationInsert, placeLocations } from '@rodmenys/server/services/locations/insert-locations.js';
import { makePlace } from '@rodmenys/server/services/locations/make-place.js';
import { chromium, type Page } from 'playwright-core';
import { machineInfo } from './lib/machine.js';
import { startServer } from './lib/server.js';
import { envInt, fmtMs, summarise } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const FLATS = 1_000;
const SMALL_PER_FLAT = 5; // type 3: 5,000 rows
const LARGE_PER_FLAT = 50; // type 4: 50,000 rows
const RUNS = envInt('BENCH_UI_RUNS', 12);
const WEB_DIR = path.resolve(import.meta.dirname, '../../web/dist');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** One building of FLATS flats with devices of types 3 and 4, two readings each this month; returns its id. */
async function createData(db: Db): Promise<number> {
  const names = ['Lietuva', 'Vilniaus apskritis', 'Vilniaus m. sav.', 'Vilnius', 'Bandymų g.', '1'];
  const building = await makePlace(db, names);
  await db.query(`INSERT INTO object (location_id, code, name) VALUES ($1, 'OBJ-BENCH', 'Bandymų g. 1')`, [
    building.id,
  ]);
  // The flats through the server's location insert (ids first, paths built in it), in one statement.
  const flats = Array.from({ length: FLATS }, (_, i) => ({ names: [...names, String(i + 1)], flatOrder: i + 1 }));
  const { sql, params } = locationInsert(await placeLocations(db, flats, () => building));
  await db.query(sql, params);
  await db.query(
    `INSERT INTO device (device_type_id, location_id, device_code, counter_code, description)
     SELECT t.type, l.id, concat(t.prefix, l.flat_order, '-', k), concat('C', l.flat_order, k), concat('Stovas ', k)
       FROM location l,
            (VALUES (3, 'CWM-', $2::int), (4, 'HWM-', $3::int)) AS t(type, prefix, n),
            LATERAL generate_series(1, t.n) k
      WHERE l.parent_id = $1
      ORDER BY l.flat_order, t.type, k`,
    [building.id, SMALL_PER_FLAT, LARGE_PER_FLAT],
  );
  // A start before the month and an end today; every 97th device goes backwards (a flagged row).
  await db.query(
    `INSERT INTO reading (device_id, ts, value, meter_ts)
     SELECT d.id, r.ts, r.value, r.ts - interval '2 minutes'
       FROM device d,
            LATERAL (VALUES
              (date_trunc('month', now()) - interval '6 hours', (d.id % 500) * 1.25),
              (now() - interval '3 hours', (d.id % 500) * 1.25 + CASE WHEN d.id % 97 = 0 THEN -2 ELSE (d.id % 13) * 0.111 END)
            ) AS r(ts, value)`,
  );
  await db.query('SELECT keep_last_seen(array(SELECT id FROM device))');
  await db.exec('ANALYZE');
  return building.id;
}

/** What to wait for in the page: the text of an element containing, ending with, or differing from a text. */
interface Condition {
  selector: string;
  includes?: string;
  endsWith?: string;
  notEqual?: string;
}
type BenchWindow = Window & { benchWait: (c: Condition) => Promise<number> };

/**
 * Installed in the page: waits for a condition, checked every frame; resolves one frame later
 * (drawn). Plain JavaScript text: tsx's name helpers do not exist in the page.
 */
const INSTALL_WAIT = `window.benchWait = (c) => new Promise((resolve) => {
  const holds = () => {
    const text = document.querySelector(c.selector)?.textContent ?? '';
    if (c.includes !== undefined) return text.includes(c.includes);
    if (c.endsWith !== undefined) return text.endsWith(c.endsWith);
    return text !== c.notEqual;
  };
  const check = () => (holds() ? requestAnimationFrame(() => resolve(performance.now())) : requestAnimationFrame(check));
  check();
});`;

const TOTAL = '.readings-table .ant-pagination-total-text';
const totalText = (page: Page) => page.evaluate((s) => document.querySelector(s)?.textContent ?? '', TOTAL);

/** Clicks a selector inside the page and returns the ms until the condition holds and a frame is drawn. */
async function clickAndWait(page: Page, selector: string, condition: Condition): Promise<{ ms: number; at: number }> {
  return page.evaluate(
    async ({ selector, condition }) => {
      const start = performance.now();
      (document.querySelector(selector) as HTMLElement).click();
      const end = await (window as unknown as BenchWindow).benchWait(condition);
      return { ms: end - start, at: end };
    },
    { selector, condition },
  );
}

/** When the last GetDevicesData answer finished arriving (performance.now() clock). */
const dataArrivedAt = (page: Page) =>
  page.evaluate(() => {
    const entries = performance.getEntriesByType('resource').filter((e) => e.name.includes('GetDevicesData'));
    return (entries.at(-1) as PerformanceResourceTiming | undefined)?.responseEnd ?? Number.NaN;
  });

async function openWithObject(page: Page, base: string, session: object, objectId: number) {
  await page.goto(`${base}/login`);
  await page.evaluate(
    ({ session, objectId }) => {
      localStorage.setItem('rodmenys.user', JSON.stringify(session));
      localStorage.setItem('rodmenys.object', 'Vilnius, Bandymų g. 1');
      localStorage.setItem('rodmenys.objectId', String(objectId));
      localStorage.setItem('rodmenys.language', 'en');
    },
    { session, objectId },
  );
  await page.goto(`${base}/deviceData`);
  // The tree's device list has loaded (the page is idle) before anything is timed.
  await page.waitForSelector('.ant-table-row[data-row-key="3"]');
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
}

/** Picks a type, selects every found device; returns the timings. */
async function loadType(page: Page, typeId: number, rows: number) {
  const pick = await clickAndWait(page, `.ant-table-row[data-row-key="${typeId}"]`, {
    selector: '.device-data',
    includes: `Found devices: ${rows}`,
  });
  const arrived = await dataArrivedAt(page);
  const buttons = await page.$$eval('button', (b) => b.map((x) => x.textContent));
  const selectAllIndex = buttons.indexOf('Select all');
  await page.evaluate(
    (i) => document.querySelectorAll('button')[i]?.setAttribute('data-bench', 'select-all'),
    selectAllIndex,
  );
  const detail = await clickAndWait(page, 'button[data-bench="select-all"]', {
    selector: TOTAL,
    endsWith: `of ${rows.toLocaleString('en-US')}`,
  });
  return { pickMs: pick.ms, afterDataMs: pick.at - arrived, detailMs: detail.ms };
}

/** Types one key into the DeviceCode filter; ms from the keydown to the table redrawn with a new total. */
async function filterKey(page: Page, key: string): Promise<number> {
  const before = await totalText(page);
  const measured = page.evaluate(
    async ({ before, selector }) => {
      const start = await new Promise<number>((resolve) =>
        document.addEventListener('keydown', (e) => resolve(e.timeStamp), { capture: true, once: true }),
      );
      const end = await (window as unknown as BenchWindow).benchWait({ selector, notEqual: before });
      return end - start;
    },
    { before, selector: TOTAL },
  );
  await page.getByRole('textbox', { name: 'Filter Device code' }).press(key);
  return measured;
}

/** Long tasks are reported from 50 ms on: none seen means every task was shorter. */
const fmtLongest = (ms: number) => (ms === 0 ? '< 50' : fmtMs(ms));

/** Clicks the Excel button; ms to the download and the longest main-thread task meanwhile. */
async function exportAll(page: Page): Promise<{ ms: number; longestTaskMs: number }> {
  await page.evaluate(() => {
    const w = window as unknown as { longest: number; observer?: PerformanceObserver };
    w.longest = 0;
    w.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longest = Math.max(w.longest, e.duration);
    });
    w.observer.observe({ type: 'longtask' });
  });
  const start = Date.now();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 120_000 }),
    page.getByRole('button', { name: /Excel|xlsx/ }).click(),
  ]);
  const ms = Date.now() - start;
  if (!download.suggestedFilename().endsWith('.xlsx'))
    throw new Error(`unexpected file ${download.suggestedFilename()}`);
  const longestTaskMs = await page.evaluate(() => {
    const w = window as unknown as { longest: number; observer?: PerformanceObserver };
    w.observer?.disconnect();
    return w.longest;
  });
  return { ms, longestTaskMs };
}

async function main() {
  if (!existsSync(path.join(WEB_DIR, 'index.html'))) throw new Error('web/dist is missing: run `npm run build` first');
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install -y chromium)`);
  const db = await openPglite(undefined, 'Europe/Vilnius');
  await migrate(db);
  const loadStart = performance.now();
  const building = await createData(db);
  console.log(
    `Data: ${FLATS} flats, ${FLATS * (SMALL_PER_FLAT + LARGE_PER_FLAT)} devices, loaded in ${fmtMs(performance.now() - loadStart)} ms`,
  );
  const server = await startServer(db, 'Europe/Vilnius', { webDir: WEB_DIR });
  const base = server.api.replace(/\/api$/, '');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  const rows: string[][] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 }, acceptDownloads: true });
    await page.addInitScript({ content: INSTALL_WAIT });
    await openWithObject(page, base, server.session, building);

    const small = await loadType(page, 3, FLATS * SMALL_PER_FLAT);
    rows.push(['Pick type → found devices drawn (5,000 rows)', fmtMs(small.pickMs), '']);
    rows.push(['└ of which after the data arrived', fmtMs(small.afterDataMs), '≤ 1,000']);
    rows.push(['Select all → detail table drawn (5,000 rows)', fmtMs(small.detailMs), '≤ 1,000']);

    const keys: number[] = [];
    const input = page.getByRole('textbox', { name: 'Filter Device code' });
    for (let i = 0; i < RUNS; i++) {
      await input.fill('');
      await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '').endsWith('of 5,000'), TOTAL);
      // "CWM-1" narrows step by step: every key changes the row count.
      for (const key of ['1', '2']) keys.push(await filterKey(page, key));
    }
    const filter = summarise(keys);
    rows.push([`Filter keyup → table redrawn (5,000 rows, median of ${filter.runs})`, fmtMs(filter.medianMs), '≤ 100']);
    rows.push(['└ p95', fmtMs(filter.p95Ms), '']);
    await input.fill('');
    await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '').endsWith('of 5,000'), TOTAL);
    const exportSmall = await exportAll(page);
    rows.push(['Export xlsx, 5,000 rows', fmtMs(exportSmall.ms), '']);
    rows.push(['└ longest main-thread task meanwhile', fmtLongest(exportSmall.longestTaskMs), '']);

    const large = await loadType(page, 4, FLATS * LARGE_PER_FLAT);
    rows.push(['Pick type → found devices drawn (50,000 rows)', fmtMs(large.pickMs), '']);
    rows.push(['└ of which after the data arrived', fmtMs(large.afterDataMs), '']);
    rows.push(['Select all → detail table drawn (50,000 rows)', fmtMs(large.detailMs), '']);
    const exportLarge = await exportAll(page);
    rows.push(['Export xlsx, 50,000 rows', fmtMs(exportLarge.ms), '≤ 3,000']);
    rows.push(['└ longest main-thread task meanwhile', fmtLongest(exportLarge.longestTaskMs), '']);
  } finally {
    await browser.close();
    await server.close();
    await db.close();
  }
  console.log(`\nDevice data screen in Chromium (${(await chromiumVersion()).trim()}), times in ms\n`);
  console.log(formatTable(['Measure', 'ms', 'Aim'], rows));
  console.log(`\n${machineInfo('not used (embedded PGlite)').join('\n')}`);
  // Other work on the machine skews browser timings: say how busy it was.
  console.log(
    `Load average (1, 5, 15 min): ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
}

async function chromiumVersion(): Promise<string> {
  const { execFileSync } = await import('node:child_process');
  return execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8' });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
