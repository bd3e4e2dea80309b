import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import {
  addDevice,
  DEVICE_TYPE,
  getFlatOccupancies,
  getOccupantDeclarations,
  LOCATION_LEVEL,
  listLocationChildren,
  reissueOccupantAccess,
  updateDqSetting,
  updateOccupancy,
} from '@rodmenys/contract';
import { api, baseURL, DEMO, expect, session, tabTo, test, watchCsp } from './fixtures';
import { seriousViolations, settle, signInAs, TEXTS } from './screens';

// Declaring meter readings on the occupant's pages (docs/declared-readings.md) on a 360 × 740
// phone, by keyboard, in both languages: from the months page to the declaring page, a value
// with a photo for two meters, the receipts on screen; axe on the page; nothing to scroll sideways;
// then the back office at a desk sees both declarations and opens a photo.

const PHONE = { width: 360, height: 740 };
test.use({ viewport: PHONE });

/** A 4 × 4 PNG, sent named .jpg (its type is read from the content): the meter's "photo". */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWMwXlUORwzEcQAkkhVBwsOfNAAAAABJRU5ErkJggg==',
  'base64',
);

/** A demo flat's current occupancy (the `n`-th from the end of the first building), given a new declared meter. */
async function declaringOccupant(language: 'lt' | 'en', n: number) {
  const operator = await session(DEMO.operator);
  let parentId: number | undefined;
  for (let level: number = LOCATION_LEVEL.country; level < LOCATION_LEVEL.flat; level++) {
    const { body } = await api(listLocationChildren, { query: { parentId }, token: operator.Token });
    parentId = body[0]!.Id;
  }
  const flats = (await api(listLocationChildren, { query: { parentId }, token: operator.Token })).body;
  // From the building's last flats: other specs take the first ones.
  const flatId = flats[flats.length - 1 - n]!.Id;
  // The window open whatever today is.
  for (const [key, value] of [
    ['declarations.windowStartDay', 1],
    ['declarations.windowEndDay', 31],
  ] as const) {
    const set = await api(updateDqSetting, { token: operator.Token, params: { key }, body: { value } });
    expect(set.status).toBe(200);
  }
  // Two meters read by hand: a cold and a hot water meter, each its own serial.
  const stamp = Date.now() % 1_000_000;
  const codes = { cold: `DECL-${language.toUpperCase()}-C${stamp}`, hot: `DECL-${language.toUpperCase()}-H${stamp}` };
  for (const [kind, typeId] of [
    ['cold', DEVICE_TYPE.coldWaterMeter],
    ['hot', DEVICE_TYPE.hotWaterMeter],
  ] as const) {
    const added = await api(addDevice, {
      token: operator.Token,
      body: {
        locationId: flatId,
        deviceTypeId: typeId,
        deviceCode: codes[kind],
        counterCode: null,
        installedAt: new Date(Date.now() - 40 * 86_400_000).toISOString(),
        initialReading: 10,
        readMethod: 'manual',
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
  }
  const o = (await api(getFlatOccupancies, { token: operator.Token, params: { id: flatId } })).body.Occupancies.find(
    (x) => x.MoveOut === null,
  )!;
  const updated = await api(updateOccupancy, {
    token: operator.Token,
    params: { id: o.Id },
    body: {
      clientCode: o.ClientCode,
      name: o.Name,
      email: o.Email,
      phone: o.Phone,
      language,
      consentAt: o.ConsentAt,
      consentChannel: o.ConsentChannel,
      moveIn: o.MoveIn,
      moveOut: o.MoveOut,
    },
  });
  expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  const secrets = await api(reissueOccupantAccess, { token: operator.Token, params: { id: o.Id } });
  expect(secrets.status).toBe(201);
  return { codes, token: secrets.body.Token };
}

async function axe(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton')).toHaveCount(0);
  await settle(page);
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${name}: ${v.id} ${v.nodes.map((x) => x.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}

for (const [index, language] of (['lt', 'en'] as const).entries()) {
  const t = TEXTS[language].occupant;

  test(`the occupant declares two meters on a phone, by keyboard; the back office sees them, ${language}`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const o = await declaringOccupant(language, index);
    await page.goto(`/occupant/open#${o.token}`);
    await expect(page.getByRole('heading', { level: 1, name: t.months.title })).toBeVisible();

    // From the months page to the declaring page by keyboard.
    const link = page.getByRole('link', { name: t.declare.link });
    await tabTo(page, link);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: t.declare.title })).toBeVisible();
    const cardOf = (type: '3' | '4', code: string) =>
      page.locator('.occupant-section').filter({
        has: page.getByRole('heading', { level: 2, name: `${t.declare.types[type]} ${code}` }),
      });
    const cold = cardOf('3', o.codes.cold);
    await expect(cold).toBeVisible();
    await expect(cold.getByText(t.declare.previous.split(':')[0]!)).toBeVisible();
    await axe(page, 'declare');

    // Each meter: the value (with the language's decimal separator), a photo, declared with Enter.
    const token = async () =>
      page.evaluate(
        () => (JSON.parse(sessionStorage.getItem('rodmenys.occupant') ?? '{}') as { Token?: string }).Token,
      );
    for (const [card, code, value] of [
      [cold, o.codes.cold, 12.5],
      [cardOf('4', o.codes.hot), o.codes.hot, 11.25],
    ] as const) {
      const shown = language === 'lt' ? String(value).replace('.', ',') : String(value);
      const field = card.getByLabel(t.declare.value);
      await tabTo(page, field);
      await page.keyboard.type(shown);
      await card
        .locator('input[type="file"]')
        .setInputFiles({ name: 'meter.jpg', mimeType: 'image/jpeg', buffer: PNG });
      await field.focus();
      await page.keyboard.press('Enter');
      const status = card.getByRole('status');
      await expect(status).toContainText(code);
      await expect(status).toContainText(shown);
      // It counts, with its photo, as the server now has it.
      const mine = (await api(getOccupantDeclarations, { token: await token() })).body.Devices.find(
        (d) => d.DeviceCode === code,
      )!;
      expect(mine.Declarations[0]).toMatchObject({ Value: value, Counts: true, Status: 'accepted' });
      expect(mine.Declarations[0]!.PhotoId).not.toBeNull();
      await expect(card.getByText(t.declare.declared)).toBeVisible();
    }
    await axe(page, 'receipt');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // The back office (at a desk) sees both declarations on the Declarations tab and opens a photo.
    const desk = await browser.newContext({
      baseURL: baseURL(),
      viewport: { width: 1366, height: 768 },
      locale: 'lt-LT',
      timezoneId: 'Europe/Vilnius',
    });
    const csp = await watchCsp(desk);
    try {
      const office = await desk.newPage();
      const d = TEXTS[language].declarationsOffice;
      await signInAs(office, 'operator', language);
      await office.goto('/devices');
      await office.getByRole('tab', { name: d.tab }).click();
      await expect(office.getByRole('tab', { name: d.tab })).toHaveAttribute('aria-selected', 'true');
      const panel = office.getByRole('tabpanel');
      for (const code of [o.codes.cold, o.codes.hot])
        await expect(panel.getByRole('row').filter({ hasText: code })).toContainText(d.statuses.accepted);
      await tabTo(office, panel.getByRole('button', { name: `${d.photo}: ${o.codes.hot}` }));
      await office.keyboard.press('Enter');
      const dialog = office.getByRole('dialog');
      // The photo is drawn (the browser decoded it), not only its text alternative.
      const photo = dialog.getByRole('img', { name: new RegExp(o.codes.hot) });
      await expect(photo).toBeVisible();
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      expect(await seriousViolations(office, '.ant-modal')).toEqual([]);
      expect(csp).toEqual([]);
      await tabTo(
        office,
        dialog.locator('.ant-modal-footer').getByRole('button', { name: TEXTS[language].common.close }),
      );
      await office.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
    } finally {
      await desk.close();
    }
  });
}
