import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import {
  addDevice,
  type DeviceTypeInSelection,
  getDeviceDataByUserId,
  getDevicesData,
  getDeviceTypesInSelection,
  getMonthEnds,
  getUnmeasuredMonthEnds,
  type ReadingColumn,
  type ReadingRow,
  readingColumns,
  type UserSession,
  userLocationRights,
} from '@rodmenys/contract';
import ExcelJS from 'exceljs';
import en from '../../web/src/i18n/en.json' with { type: 'json' };
import lt from '../../web/src/i18n/lt.json' with { type: 'json' };
import { api, baseURL, DEMO, expect, session, signIn, test } from './fixtures';

// The device data screen (docs/device-data.md) walked in Chromium on the demo data: the
// manager (group 3) and the administrator (group 2) see the manager's building,
// which holds every device type and the demo's special cases.

/** A day as YYYY-MM-DD in a zone (the provider's by default: the demo server runs in Europe/Vilnius). */
const dayIn = (d: Date, timeZone = 'Europe/Vilnius') => new Intl.DateTimeFormat('en-CA', { timeZone }).format(d);
/** The default period (first of this month to today, on the provider's clock), as the screen sends it. */
const period = () => {
  const today = dayIn(new Date());
  return { dateFrom: `${today.slice(0, 8)}01 00:00:00`, dateTill: `${today} 23:59:59` };
};
const columnTitle = (c: ReadingColumn, texts = lt) =>
  texts.deviceData.columns[c.key as keyof typeof lt.deviceData.columns];
const fixed = (n: number | null | undefined) => (n === null || n === undefined ? '' : n.toFixed(3));
const shownTime = (s: string | null) => (s ? `${s.slice(0, 10)} ${s.slice(11, 16)}` : '');

interface Place {
  me: UserSession;
  buildingId: number;
  /** The building's node in the tree: "Street No., City". */
  title: string;
  types: DeviceTypeInSelection[];
}

/** The signed-in user's first building, as the tree shows it, and the device types in it. */
async function place(account: { username: string; password: string }): Promise<Place> {
  const me = await session(account);
  const rights = (await api(userLocationRights, { params: { userId: me.Id }, token: me.Token })).body;
  const devices = (await api(getDeviceDataByUserId, { token: me.Token })).body;
  const buildingIds = new Set(rights.map((r) => r.VisibleLocationId).filter((id) => id !== 0));
  // The manager's building is the demo's case building; for the administrator, the one holding the most types.
  const candidates = [...buildingIds].map((id) => {
    const inside = devices.filter((d) => (d.Flat === null ? d.LocationId : d.ParentLocationId) === id);
    return { id, inside, typeCount: new Set(inside.map((d) => d.DeviceTypeId)).size };
  });
  candidates.sort((a, b) => b.typeCount - a.typeCount);
  const best = candidates[0]!;
  const sample = best.inside[0]!;
  const title = `${sample.Street} ${sample.Building}, ${sample.City}`;
  const types = (
    await api(getDeviceTypesInSelection, {
      query: { locationParentId: String(best.id), ...period() },
      token: me.Token,
    })
  ).body;
  return { me, buildingId: best.id, title, types };
}

async function readings(p: Place, deviceTypeId: number): Promise<ReadingRow[]> {
  const res = await api(getDevicesData, {
    query: { deviceTypeId, locationParentId: String(p.buildingId), ...period() },
    token: p.me.Token,
  });
  expect(res.status).toBe(200);
  return res.body;
}

async function openScreen(page: Page, texts = lt) {
  await page.getByRole('navigation').getByRole('link', { name: texts.nav.deviceData }).click();
  await expect(page.getByRole('heading', { name: texts.nav.deviceData })).toBeVisible();
}

/** Ticks a building in the location tree (searching for it, as with thousands of flats). */
async function tickBuilding(page: Page, title: string, texts = lt) {
  const box = page.getByRole('combobox', { name: texts.deviceData.tree.label });
  await box.click();
  await box.fill(title.split(',')[0]!);
  await page
    .locator('.ant-select-tree-treenode', { hasText: title })
    .first()
    .locator('.ant-select-tree-checkbox')
    .click();
  await page.keyboard.press('Escape');
  await expect(page.locator('.ant-select-selection-item', { hasText: title })).toBeVisible();
}

const typesTable = (page: Page, texts = lt) =>
  page.locator('.ant-card', { hasText: texts.deviceData.types.title }).getByRole('table');
/**
 * A device's meter status as the table shows it (tags side by side) or the export writes it (`, `):
 * its translated status flags, else "unknown" for a silent row (NO_READING, STALE), else "OK".
 */
const statusText = (row: ReadingRow, separator = '') =>
  row.StatusFlags.length > 0
    ? row.StatusFlags.map((f) => (lt.statusFlags as Record<string, string>)[f] ?? f).join(separator)
    : row.Flags.includes('NO_READING') || row.Flags.includes('STALE')
      ? lt.deviceStatus.silent
      : lt.deviceStatus.ok;
const detail = (page: Page, texts = lt) => page.getByRole('region', { name: texts.deviceData.detail.title });
const detailRows = (page: Page) => page.locator('.readings-table .ant-table-row');
const detailRow = (page: Page, code: string) => detailRows(page).filter({ hasText: code });

const typeRow = (page: Page, typeId: number, texts = lt) =>
  typesTable(page, texts).locator(`.ant-table-row[data-row-key="${typeId}"]`);

async function pickType(page: Page, typeId: number, expected: number, texts = lt) {
  await typeRow(page, typeId, texts).click();
  await expect(page.getByText(texts.deviceData.found.title.replace('{{count}}', String(expected)))).toBeVisible();
}

async function selectAll(page: Page, texts = lt) {
  await page.getByRole('button', { name: texts.deviceData.found.selectAll }).click();
  await expect(detail(page, texts)).toBeVisible();
}

/** The header texts of the detail table, in order (each header holds its title and a filter box). */
async function headerTitles(page: Page): Promise<string[]> {
  return (await page.locator('.readings-table .column-title').allTextContents()).map((s) => s.trim());
}

/** Detail rows are virtual: scroll the table body so that a row is drawn. */
async function scrollDetailToTop(page: Page) {
  await page.locator('.readings-table .ant-table-tbody-virtual-holder').evaluate((el) => el.scrollTo(0, 0));
}

test.describe('device data', () => {
  test('group 3 walks every device type: types, tree, found devices, detail with the exact column set', async ({
    page,
  }) => {
    const p = await place(DEMO.manager);
    expect(p.types.map((t) => t.Id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 11]);
    await signIn(page, DEMO.manager);
    await openScreen(page);
    // Nothing selected yet: the hint, no period, no found devices.
    await expect(page.getByText(lt.deviceData.tree.hint)).toBeVisible();
    await expect(page.locator('.ant-picker-range')).toHaveCount(0);
    await tickBuilding(page, p.title);
    // The default period: the first of this month to today.
    const { dateFrom, dateTill } = period();
    await expect(page.locator('.ant-picker-range input').first()).toHaveValue(dateFrom.slice(0, 10));
    await expect(page.locator('.ant-picker-range input').last()).toHaveValue(dateTill.slice(0, 10));
    const typeRows = typesTable(page).locator('.ant-table-row');
    await expect(typeRows).toHaveCount(p.types.length);
    for (const type of p.types) {
      await expect(typeRow(page, type.Id)).toContainText(type.DeviceTypeCode);
      await expect(typeRow(page, type.Id)).toContainText(type.DeviceTypeName);
      await expect(typeRow(page, type.Id)).toContainText(String(type.DeviceCount));
    }

    for (const type of p.types) {
      const rows = await readings(p, type.Id);
      await pickType(page, type.Id, rows.length);
      await selectAll(page);
      const expected = readingColumns(type, 3).filter((c) => c.visible);
      expect(await headerTitles(page)).toEqual(expected.map((c) => columnTitle(c)));
      await expect(detail(page)).toContainText(`Rodoma nuo 1 iki ${rows.length} iš ${rows.length}`);
      // The first row as the API answered it: 3 decimals, times to the minute.
      await scrollDetailToTop(page);
      const first = rows[0]!;
      const cells = await detailRow(page, first.DeviceCode).first().locator('.ant-table-cell').allTextContents();
      expect(cells.slice(1)).toEqual(
        expected.map((c) => {
          const v = first[c.key];
          if (c.kind === 'tags') return statusText(first);
          return c.kind === 'number'
            ? fixed(v as number | null)
            : c.kind === 'datetime'
              ? shownTime(v as string)
              : (v ?? '').toString();
        }),
      );
    }
    // The allocator set has no FlatDifference and no Qrad for group 3.
    await pickType(page, 1, (await readings(p, 1)).length);
    await selectAll(page);
    const titles = await headerTitles(page);
    expect(titles).not.toContain(lt.deviceData.columns.FlatDifference);
    expect(titles).not.toContain(lt.deviceData.columns.QradFrom);
  });

  test("the default period follows the provider's clock, wherever the browser is", async ({ browser }) => {
    // A browser zone whose date differs from the provider's right now (one of the two always does).
    const now = new Date();
    const timezoneId = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find((zone) => dayIn(now, zone) !== dayIn(now))!;
    const context = await browser.newContext({ baseURL: baseURL(), locale: 'lt-LT', timezoneId });
    try {
      const page = await context.newPage();
      const browserToday = await page.evaluate(() => new Date().toLocaleDateString('en-CA'));
      expect(browserToday).not.toBe(dayIn(new Date()));
      const p = await place(DEMO.manager);
      await signIn(page, DEMO.manager);
      await openScreen(page);
      await tickBuilding(page, p.title);
      const { dateFrom, dateTill } = period();
      await expect(page.locator('.ant-picker-range input').first()).toHaveValue(dateFrom.slice(0, 10));
      await expect(page.locator('.ant-picker-range input').last()).toHaveValue(dateTill.slice(0, 10));
    } finally {
      await context.close();
    }
  });

  test('group 2 sees the extra columns of types 1 and 2', async ({ page }) => {
    const p = await place(DEMO.admin);
    await signIn(page, DEMO.admin);
    await openScreen(page);
    await tickBuilding(page, p.title);
    for (const type of p.types.filter((t) => t.Id === 1 || t.Id === 2)) {
      await pickType(page, type.Id, (await readings(p, type.Id)).length);
      await selectAll(page);
      const titles = await headerTitles(page);
      expect(titles).toEqual(
        readingColumns(type, 2)
          .filter((c) => c.visible)
          .map((c) => columnTitle(c)),
      );
      const extras =
        type.Id === 1 ? ['QradFrom', 'QradTill', 'DifferenceQrad', 'FlatDifferenceQrad'] : ['FlatDifference'];
      for (const key of extras) expect(titles).toContain(lt.deviceData.columns[key as 'QradFrom']);
    }
    expect(p.types.some((t) => t.Id === 1)).toBe(true);
  });

  test('flags a silent device and a negative difference from the demo data, with the reason', async ({ page }) => {
    const p = await place(DEMO.manager);
    const byType = await Promise.all(p.types.map(async (t) => ({ type: t, rows: await readings(p, t.Id) })));
    const find = (flag: ReadingRow['Flags'][number]) => {
      for (const { type, rows } of byType) {
        const row = rows.find((r) => r.Flags.includes(flag));
        if (row) return { type, row, count: rows.length };
      }
      throw new Error(`no ${flag} row in the demo building`);
    };
    const silent = find('STALE');
    const negative = find('NEGATIVE');
    expect(negative.row.Difference!).toBeLessThan(0);
    await signIn(page, DEMO.manager);
    await openScreen(page);
    await tickBuilding(page, p.title);
    for (const { type, row, count } of [silent, negative]) {
      await pickType(page, type.Id, count);
      // Found devices mark it already.
      const found = page.locator('.ant-table-row.reading-danger', { hasText: row.DeviceCode });
      await expect(found).toBeVisible();
      await selectAll(page);
      // Filter to it, so that the virtual table draws it.
      await detail(page)
        .getByRole('textbox', {
          name: lt.deviceData.detail.filter.replace('{{column}}', lt.deviceData.columns.DeviceCode),
        })
        .fill(row.DeviceCode);
      const line = detailRow(page, row.DeviceCode);
      await expect(line).toHaveCount(1);
      await expect(line).toHaveClass(/reading-danger/);
      for (const flag of row.Flags) {
        await expect(line.getByRole('img', { name: new RegExp(lt.deviceData.flags[flag]) })).toBeVisible();
      }
      await line.getByRole('img', { name: new RegExp(lt.deviceData.flags[row.Flags[0]!]) }).hover();
      await expect(page.getByRole('tooltip', { name: lt.deviceData.flags[row.Flags[0]!] })).toBeVisible();
      // The flag and the meter status agree: a silent device is never "OK".
      await expect(line.locator('.status-tag')).toHaveText(statusText(row));
      if (row === silent.row) await expect(line.locator('.status-tag')).not.toHaveText(lt.deviceStatus.ok);
    }
  });

  test('filter, sort, page size, column toggle, export to xlsx and CSV matching the API, history chart', async ({
    page,
  }) => {
    const p = await place(DEMO.manager);
    const type = p.types.find((t) => t.Id === 1)!;
    const rows = await readings(p, 1);
    expect(rows.length).toBeGreaterThan(5);
    await signIn(page, DEMO.manager);
    await openScreen(page);
    await tickBuilding(page, p.title);
    await pickType(page, type.Id, rows.length);
    await selectAll(page);
    const panel = detail(page);

    // Page size 5: five rows, and the pagination info says so.
    await panel.getByRole('combobox', { name: lt.deviceData.detail.pageSize }).click();
    await page.locator('.ant-select-item-option', { hasText: /^5$/ }).click();
    await expect(detailRows(page)).toHaveCount(5);
    await expect(panel).toContainText(`Rodoma nuo 1 iki 5 iš ${rows.length}`);

    // Sort by difference, descending (a second click): the largest first, empty last.
    const diffHeader = page.locator('.readings-table th', { hasText: lt.deviceData.columns.Difference }).first();
    await diffHeader.locator('.column-title').click();
    await diffHeader.locator('.column-title').click();
    const byDiff = [...rows].sort((a, b) => (b.Difference ?? -Infinity) - (a.Difference ?? -Infinity));
    await expect(detailRows(page).first()).toContainText(byDiff[0]!.DeviceCode);

    // Filter by a flat: only its devices.
    const flat = rows[0]!.Flat!;
    const inFlat = rows.filter((r) => r.Flat === flat);
    await panel
      .getByRole('textbox', { name: lt.deviceData.detail.filter.replace('{{column}}', lt.deviceData.columns.Flat) })
      .fill(flat);
    const flatMatches = rows.filter((r) => (r.Flat ?? '').toLowerCase().includes(flat.toLowerCase()));
    expect(flatMatches.length).toBeGreaterThanOrEqual(inFlat.length);
    await expect(panel).toContainText(`iš ${flatMatches.length}`);

    // Hide the description column.
    await panel.getByRole('button', { name: lt.deviceData.detail.columns }).click();
    await page.getByRole('checkbox', { name: lt.deviceData.columns.DeviceDescription }).uncheck();
    await page.keyboard.press('Escape');
    await expect.poll(() => headerTitles(page)).not.toContain(lt.deviceData.columns.DeviceDescription);
    const visible = readingColumns(type, 3).filter((c) => c.visible && c.key !== 'DeviceDescription');
    expect(await headerTitles(page)).toEqual(visible.map((c) => columnTitle(c)));

    // Export: every filtered and sorted row (not just the page), visible columns, typed cells.
    const expected = flatMatches.sort((a, b) => (b.Difference ?? -Infinity) - (a.Difference ?? -Infinity));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: /Excel|xlsx/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('deviceData.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path())!);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe(lt.deviceData.sheetName);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual([...visible.map((c) => columnTitle(c)), lt.deviceData.flags.title]);
    expect(sheet.rowCount).toBe(expected.length + 1);
    for (const [i, row] of expected.entries()) {
      const cells = (sheet.getRow(i + 2).values as unknown[]).slice(1);
      for (const [j, c] of visible.entries()) {
        const value = row[c.key];
        const cell = cells[j];
        if (c.kind === 'tags') expect(cell, c.key).toBe(statusText(row, ', '));
        else if (value === null || value === undefined) expect(cell ?? null, c.key).toBeNull();
        else if (c.kind === 'number') {
          expect(cell, c.key).toBe(value);
          expect(sheet.getRow(i + 2).getCell(j + 1).numFmt, c.key).toBe('0.000');
        } else if (c.kind === 'datetime') {
          expect(cell, c.key).toBeInstanceOf(Date);
          expect((cell as Date).toISOString().slice(0, 16).replace('T', ' '), c.key).toBe(shownTime(value as string));
        } else expect(String(cell), c.key).toBe(String(value));
      }
      const note = cells[visible.length];
      expect(note ?? '').toBe(row.Flags.map((f) => lt.deviceData.flags[f]).join('; '));
    }

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: /CSV|csv/ }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe('deviceData.csv');
    const lines = (await readFile((await csv.path())!, 'utf8')).trim().split(/\r\n/);
    expect(lines).toHaveLength(expected.length + 1);
    // Lithuanian CSV: `;` between fields and a decimal comma, as Lithuanian Excel reads it.
    expect(lines[0]).toBe([...visible.map((c) => columnTitle(c)), lt.deviceData.flags.title].join(';'));
    const diffAt = visible.findIndex((c) => c.key === 'Difference');
    expect(diffAt).toBeGreaterThanOrEqual(0);
    expect(lines[1]!.split(';')[diffAt]).toBe(String(expected[0]!.Difference ?? '').replace('.', ','));

    // The history chart of a row: consumption per day, reading times on hover.
    const chartButton = detailRows(page)
      .first()
      .getByRole('button', { name: lt.deviceData.history.open.replace('{{code}}', expected[0]!.DeviceCode) });
    await chartButton.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(expected[0]!.DeviceCode);
    await expect(dialog).toContainText(lt.deviceData.history.bucket.day);
    const chart = dialog.getByRole('application');
    await expect(chart).toBeVisible();
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await expect(dialog.locator('.history-tooltip')).toContainText(lt.deviceData.history.lastReading);
    await expect(dialog).toContainText(`${lt.deviceData.history.consumption}, ${lt.deviceData.units.allocator}`);
    // The month end inside the period (the first instant of this month) is marked by its source,
    // named in the legend.
    const dayOfMonth = Number(dayIn(new Date()).slice(8, 10));
    const lastMonth = dayIn(new Date(Date.now() - dayOfMonth * 86_400_000)).slice(0, 7);
    const monthEnds = await api(getMonthEnds, {
      params: { deviceId: expected[0]!.DeviceId },
      query: { from: lastMonth, till: lastMonth },
      token: p.me.Token,
    });
    expect(monthEnds.body).toHaveLength(1);
    const source = lt.anomalies.sources[monthEnds.body[0]!.Source];
    await expect(dialog.locator('.recharts-legend-wrapper')).toContainText(
      lt.deviceData.history.monthEnd.replace('{{source}}', source),
    );
  });

  test('a period ending at a month end without a measured reading marks the row with the month-end value', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    // A cold water meter installed on the 3rd of last month with one reading then: its value at the
    // end of last month is estimated by the scheduled run (the reading is weeks older than the month end).
    const p = await place(DEMO.manager);
    const operator = await session(DEMO.operator);
    const flat = (await api(getDeviceDataByUserId, { token: p.me.Token })).body.find(
      (d) => d.Flat !== null && d.ParentLocationId === p.buildingId,
    )!;
    const today = dayIn(new Date());
    const lastMonth = dayIn(new Date(Date.now() - Number(today.slice(8, 10)) * 86_400_000)).slice(0, 7);
    const serial = `E2E-ME-${Date.now()}`;
    const added = await api(addDevice, {
      token: operator.Token,
      body: {
        locationId: flat.LocationId,
        deviceTypeId: 3,
        deviceCode: serial,
        installedAt: `${lastMonth}-03T12:00`,
        initialReading: 7.25,
      },
    });
    expect(added.status).toBe(201);
    let monthEnd: { Value: number; Source: keyof typeof lt.anomalies.sources } | undefined;
    await expect
      .poll(
        async () => {
          const res = await api(getUnmeasuredMonthEnds, {
            query: { month: lastMonth, deviceTypeId: 3, locationParentId: String(p.buildingId) },
            token: p.me.Token,
          });
          monthEnd = res.body.find((m) => m.DeviceId === added.body.DeviceId);
          return monthEnd?.Source;
        },
        { timeout: 150_000, intervals: [2_000] },
      )
      .toBeTruthy();

    await signIn(page, DEMO.manager);
    await openScreen(page);
    await tickBuilding(page, p.title);
    const preset = page.getByRole('combobox', { name: lt.deviceData.period.preset });
    await preset.click();
    await page.locator('.ant-select-item-option', { hasText: lt.deviceData.period.lastMonth }).click();
    await typeRow(page, 3).click();
    await selectAll(page);
    await detail(page)
      .getByRole('textbox', {
        name: lt.deviceData.detail.filter.replace('{{column}}', lt.deviceData.columns.DeviceCode),
      })
      .fill(serial);
    await expect(detailRows(page)).toHaveCount(1);
    const mark = detailRow(page, serial).getByRole('img', {
      name: lt.deviceData.monthEnd.end
        .replace('{{month}}', lastMonth)
        .replace('{{value}}', monthEnd!.Value.toFixed(3))
        .replace('{{source}}', lt.anomalies.sources[monthEnd!.Source]),
    });
    await expect(mark).toBeVisible();
  });

  test('in English: headings, columns, presets, a Monday-first calendar', async ({ page }) => {
    const p = await place(DEMO.manager);
    const rows = await readings(p, 3);
    await signIn(page, DEMO.manager);
    await page.getByRole('link', { name: 'EN', exact: true }).click();
    await openScreen(page, en);
    await expect(page.getByText(en.deviceData.types.title)).toBeVisible();
    await tickBuilding(page, p.title, en);
    await pickType(page, 3, rows.length, en);
    await selectAll(page, en);
    expect(await headerTitles(page)).toEqual(
      readingColumns(p.types.find((t) => t.Id === 3)!, 3)
        .filter((c) => c.visible)
        .map((c) => columnTitle(c, en)),
    );
    await expect(detail(page, en)).toContainText(`Showing 1 to ${rows.length} of ${rows.length}`);
    await expect(typesTable(page, en)).toContainText('Cold water meter');

    await page.locator('.ant-picker-range').click();
    for (const preset of ['today', 'yesterday', 'currentMonth', 'currentYear', 'lastMonth'] as const) {
      await expect(page.locator('.ant-picker-presets')).toContainText(en.deviceData.period[preset]);
    }
    const weekdays = await page.locator('.ant-picker-panel').first().locator('thead th').allTextContents();
    expect(weekdays).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);

    // Back to Lithuanian: Monday first too, Lithuanian presets.
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'LT', exact: true }).click();
    await page.locator('.ant-picker-range').click();
    await expect(page.locator('.ant-picker-presets')).toContainText(lt.deviceData.period.lastMonth);
    const ltWeekdays = await page.locator('.ant-picker-panel').first().locator('thead th').allTextContents();
    // Pirmadienis, antradienis, … sekmadienis.
    expect(ltWeekdays.map((d) => d.toLowerCase())).toEqual(['p', 'a', 't', 'k', 'pn', 'š', 's']);
  });
});
