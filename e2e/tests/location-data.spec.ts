import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { getAllObjects, getDevicesByLocationId, getDeviceTypeLookUp } from '@rodmenys/contract';
import ExcelJS from 'exceljs';
import { api, DEMO, expect, session, signIn, test } from './fixtures';

async function openLocationData(page: Page) {
  await page.getByRole('navigation').getByRole('link', { name: 'Vietovių duomenys' }).click();
  await expect(page.getByRole('heading', { name: 'Vietovių duomenys' })).toBeVisible();
}
const bodyRows = (page: Page) => page.getByRole('table').first().locator('tbody tr.ant-table-row');

test.describe('location data', () => {
  test('server-paged buildings, default page size 5', async ({ page }) => {
    const me = await session(DEMO.operator);
    const all = (await api(getAllObjects, { query: { page: 1, pageSize: 5 }, token: me.Token })).body;
    await signIn(page, DEMO.operator);
    await openLocationData(page);
    for (const header of ['Šalis', 'Apskritis', 'Savivaldybė', 'Miestas', 'Gatvė', 'Pastatas', 'Veiksmai']) {
      await expect(page.getByRole('columnheader', { name: header })).toBeVisible();
    }
    await expect(bodyRows(page)).toHaveCount(Math.min(5, all.Total));
    await expect(page.getByText(`1–${all.To} iš ${all.Total}`)).toBeVisible();
    await expect(page.getByText('5 / psl.')).toBeVisible();
    await expect(bodyRows(page).first()).toContainText(all.Data[0]!.Street ?? '');
  });

  test('type-ahead filters: 2 characters (Building 1), 500 ms, "Ieškoma..." and "Nerasta"', async ({ page }) => {
    const me = await session(DEMO.operator);
    const city = (await api(getAllObjects, { query: { page: 1, pageSize: 1 }, token: me.Token })).body.Data[0]!.City!;
    const inCity = (await api(getAllObjects, { query: { page: 1, pageSize: 5, city }, token: me.Token })).body;
    const asked: string[] = [];
    page.on('request', (r) => r.url().includes('/api/locationData/') && asked.push(new URL(r.url()).pathname));
    await signIn(page, DEMO.operator);
    await openLocationData(page);
    await page.route('**/api/locationData/City?**', async (route) => {
      await new Promise((r) => setTimeout(r, 700));
      await route.fallback();
    });

    const cityBox = page.getByRole('combobox', { name: 'Miestas' });
    await cityBox.fill(city.slice(0, 1));
    await page.waitForTimeout(800);
    expect(asked.filter((p) => p.endsWith('/City'))).toHaveLength(0);
    await cityBox.fill(city.slice(0, 2));
    await expect(page.getByText('Ieškoma...')).toBeVisible();
    const option = page.locator('.ant-select-item-option', { hasText: city }).first();
    await expect(option).toBeVisible();
    expect(await page.locator('.ant-select-item-option').count()).toBeLessThanOrEqual(10);
    await option.click();
    await expect(page.getByText(`1–${inCity.To} iš ${inCity.Total}`)).toBeVisible();
    for (const row of await bodyRows(page).all()) await expect(row).toContainText(city);

    await page.getByRole('combobox', { name: 'Gatvė' }).fill('Zzzzzz');
    await expect(page.getByText('Nerasta')).toBeVisible();

    const before = asked.filter((p) => p.endsWith('/Building')).length;
    await page.getByRole('combobox', { name: 'Pastatas' }).fill('1');
    await expect.poll(() => asked.filter((p) => p.endsWith('/Building')).length).toBeGreaterThan(before);
  });

  test('one row open at a time; its devices below with a loader; a filter change hides them', async ({ page }) => {
    const me = await session(DEMO.operator);
    const [first, second] = (await api(getAllObjects, { query: { page: 1, pageSize: 5 }, token: me.Token })).body.Data;
    const devices = (await api(getDevicesByLocationId, { query: { locationId: first!.LocationId }, token: me.Token }))
      .body;
    await signIn(page, DEMO.operator);
    await openLocationData(page);
    await page.route('**/api/devices/GetDevicesByLocationId**', async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      await route.fallback();
    });

    const expanded = page.locator('tr.ant-table-expanded-row:visible');
    await bodyRows(page).nth(0).click();
    await expect(expanded).toHaveCount(1);
    await expect(expanded).toContainText(first!.ObjectCode ?? '');
    const box = page.locator('.ant-collapse');
    await expect(box).toContainText('Įrenginiai:');
    await expect(box.locator('.ant-spin-spinning')).toBeVisible();
    await expect(box.locator('tbody tr.ant-table-row')).toHaveCount(Math.min(10, devices.length));
    await expect(box.locator('tbody tr.ant-table-row').first()).toContainText(devices[0]!.DeviceCode);

    await bodyRows(page).nth(1).click();
    await expect(expanded).toHaveCount(1);
    await expect(expanded).toContainText(second!.ObjectCode ?? '');
    await bodyRows(page).nth(1).click();
    await expect(expanded).toHaveCount(0);
    await expect(box).toHaveCount(0);

    await bodyRows(page).nth(0).click();
    await expect(box).toBeVisible();
    await page.getByRole('combobox', { name: 'Šalis' }).fill('Li');
    await expect(box).toHaveCount(0);
    await expect(expanded).toHaveCount(0);
  });

  for (const language of ['lt', 'en'] as const) {
    test(`exports deviceInfo.xlsx with typed cells and the header in the UI language, and CSV (${language})`, async ({
      page,
    }) => {
      const me = await session(DEMO.operator);
      const building = (await api(getAllObjects, { query: { page: 1, pageSize: 1 }, token: me.Token })).body.Data[0]!;
      const devices = (
        await api(getDevicesByLocationId, { query: { locationId: building.LocationId }, token: me.Token })
      ).body;
      const types = (await api(getDeviceTypeLookUp, { token: me.Token })).body;
      expect(devices.length).toBeGreaterThan(0);
      await signIn(page, DEMO.operator);
      if (language === 'en') await page.getByRole('link', { name: 'EN', exact: true }).click();
      await page
        .getByRole('navigation')
        .getByRole('link', { name: language === 'en' ? 'Location data' : 'Vietovių duomenys' })
        .click();
      await bodyRows(page).first().click();
      await expect(page.locator('.ant-collapse tbody tr.ant-table-row').first()).toBeVisible();

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Excel' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('deviceInfo.xlsx');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile((await download.path())!);
      const sheet = workbook.worksheets[0]!;
      const header = (sheet.getRow(1).values as unknown[]).slice(1);
      expect(header).toEqual(
        language === 'lt'
          ? [
              'Butas',
              'Įrenginio nr.',
              'Skaitiklio kodas',
              'Tipas',
              'Aprašymas',
              'Objekto kodas',
              'Kliento kodas',
              'Koeficientas',
              'Įrengtas',
              'Nuimtas',
              'Paskutinis ryšys',
            ]
          : [
              'Flat',
              'Device no.',
              'Counter code',
              'Type',
              'Description',
              'Object code',
              'Client code',
              'Rating factor',
              'Installed',
              'Removed',
              'Last reported',
            ],
      );
      expect(sheet.rowCount).toBe(devices.length + 1);
      devices.forEach((device, i) => {
        const row = sheet.getRow(i + 2);
        expect(row.getCell(1).value).toBe(device.Flat);
        expect(row.getCell(2).value).toBe(device.DeviceCode);
        expect(row.getCell(3).value).toBe(device.CounterCode);
        const type = types.find((t) => t.Id === device.DeviceTypeId)!;
        expect(row.getCell(4).value).toBe(language === 'en' ? type.DeviceTypeNameEn : type.DeviceTypeName);
        expect(row.getCell(8).value).toBe(device.RatingFactor);
        if (device.RatingFactor !== null) expect(typeof row.getCell(8).value).toBe('number');
        const installed = row.getCell(9).value;
        if (device.InstalledAt) {
          expect(installed).toBeInstanceOf(Date);
          // The provider's wall-clock time, as the screen shows it.
          expect((installed as Date).toISOString().slice(0, 16)).toBe(device.InstalledAt.slice(0, 16));
        } else {
          expect(installed).toBeNull();
        }
        // When the device last reported: a date cell, or empty for a device that never did.
        const lastSeen = row.getCell(11).value;
        if (device.LastSeen) expect((lastSeen as Date).toISOString().slice(0, 16)).toBe(device.LastSeen.slice(0, 16));
        else expect(lastSeen).toBeNull();
      });

      const [csv] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'CSV' }).click(),
      ]);
      expect(csv.suggestedFilename()).toBe('deviceInfo.csv');
      const lines = (await readFile((await csv.path())!, 'utf8'))
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines).toHaveLength(devices.length + 1);
      // Lithuanian Excel reads `;` and a decimal comma; English `,` and a point.
      expect(lines[0]).toBe(header.join(language === 'lt' ? ';' : ','));
      expect(lines[1]).toContain(devices[0]!.DeviceCode);
    });
  }
});
