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
import { api, DEMO, expect, session, tabTo, test } from './fixtures';
import { settle, TEXTS } from './screens';

// Declaring meter readings on the occupant's pages (docs/declared-readings.md) on a 360 × 740
// phone, by keyboard, in both languages: from the months page to the declaring page, a value
// with a photo, the receipt on screen; axe on the page; nothing to scroll sideways.

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
  const code = `DECL-${language.toUpperCase()}-${Date.now() % 1_000_000}`;
  const added = await api(addDevice, {
    token: operator.Token,
    body: {
      locationId: flatId,
      deviceTypeId: DEVICE_TYPE.coldWaterMeter,
      deviceCode: code,
      counterCode: null,
      installedAt: new Date(Date.now() - 40 * 86_400_000).toISOString(),
      initialReading: 10,
      readMethod: 'manual',
    },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
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
  return { code, token: secrets.body.Token };
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

  test(`the occupant declares a reading on a phone, by keyboard, ${language}`, async ({ page }) => {
    test.setTimeout(120_000);
    const o = await declaringOccupant(language, index);
    await page.goto(`/occupant/open#${o.token}`);
    await expect(page.getByRole('heading', { level: 1, name: t.months.title })).toBeVisible();

    // From the months page to the declaring page by keyboard.
    const link = page.getByRole('link', { name: t.declare.link });
    await tabTo(page, link);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: t.declare.title })).toBeVisible();
    const card = page.locator('.occupant-section').filter({
      has: page.getByRole('heading', { level: 2, name: `${t.declare.types['3']} ${o.code}` }),
    });
    await expect(card).toBeVisible();
    await expect(card.getByText(t.declare.previous.split(':')[0]!)).toBeVisible();
    await axe(page, 'declare');

    // The value (with the language's decimal separator), a photo, declared with Enter.
    const value = card.getByLabel(t.declare.value);
    await tabTo(page, value);
    await page.keyboard.type(language === 'lt' ? '12,5' : '12.5');
    await card.locator('input[type="file"]').setInputFiles({ name: 'meter.jpg', mimeType: 'image/jpeg', buffer: PNG });
    await value.focus();
    await page.keyboard.press('Enter');
    const status = card.getByRole('status');
    await expect(status).toContainText(o.code);
    await expect(status).toContainText(language === 'lt' ? '12,5' : '12.5');
    // It counts, with its photo, as the server now has it.
    const token = await page.evaluate(
      () => (JSON.parse(sessionStorage.getItem('rodmenys.occupant') ?? '{}') as { Token?: string }).Token,
    );
    const mine = (await api(getOccupantDeclarations, { token })).body.Devices.find((d) => d.DeviceCode === o.code)!;
    expect(mine.Declarations[0]).toMatchObject({ Value: 12.5, Counts: true, Status: 'accepted' });
    expect(mine.Declarations[0]!.PhotoId).not.toBeNull();
    await expect(card.getByText(t.declare.declared)).toBeVisible();
    await axe(page, 'receipt');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
}
