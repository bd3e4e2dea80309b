import { readFile } from 'node:fs/promises';
import { getDeviceHistory, getMonthEnds, readingColumns } from '@rodmenys/contract';
import ExcelJS from 'exceljs';
import lt from '../../../web/src/i18n/lt.json' with { type: 'json' };
import { api, DEMO, expect, signIn, test } from '../fixtures';
import {
  columnTitle,
  dayIn,
  detail,
  detailRows,
  headerTitles,
  openScreen,
  pickType,
  place,
  readings,
  selectAll,
  shownTime,
  statusText,
  tickBuilding,
} from './screen';

// The device data screen (docs/device-data.md) walked in Chromium on the demo data: the
// manager (group 3) and the administrator (group 2) see the manager's building,
// which holds every device type and the demo's special cases. This file: filter, sort, paging, column toggle, the exports and the history chart.

test.describe('device data', () => {
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
    // The bucket follows the period's length (hours in the first week of a month, days after it):
    // the one the server chose for the period the title shows.
    await expect(dialog).toContainText(/\d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}/);
    const [, dateFrom, dateTill] = /(\d{4}-\d{2}-\d{2}) – (\d{4}-\d{2}-\d{2})/.exec((await dialog.textContent())!)!;
    const history = await api(getDeviceHistory, {
      params: { id: expected[0]!.DeviceId },
      query: { dateFrom: dateFrom!, dateTill: dateTill! },
      token: p.me.Token,
    });
    await expect(dialog).toContainText(lt.deviceData.history.bucket[history.body.Bucket]);
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
});
