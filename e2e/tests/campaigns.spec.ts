import { deleteCampaign, getDueDevices, listCampaigns } from '@rodmenys/contract';
import { api, DEMO, expect, session, tabTo, test } from './fixtures';
import { dialogSettled, fill, screenReady, seriousViolations, settle, signInAs, startCampaign, TEXTS } from './screens';

// Exchange campaigns (docs/device-lifetime.md, "Exchange campaigns"): two devices selected on the
// due list become a campaign, a building's visit day is planned and a visit without access
// recorded, all by keyboard, in both languages; axe on the tab and every dialog.

const NAMES = { lt: 'Vandens skaitiklių keitimas (e2e)', en: 'Water meter exchange (e2e)' } as const;

test.describe('exchange campaigns', () => {
  test.afterAll(async () => {
    const operator = await session(DEMO.operator);
    const campaigns = await api(listCampaigns, { token: operator.Token });
    for (const c of campaigns.body.filter((x) => Object.values(NAMES).includes(x.Name as never)))
      await api(deleteCampaign, { token: operator.Token, params: { id: c.Id } });
  });

  for (const language of ['lt', 'en'] as const) {
    test(`a campaign from the due list, its visit day and progress by keyboard, ${language}`, async ({ page }) => {
      test.setTimeout(180_000);
      const t = TEXTS[language];
      const c = t.campaigns;
      const operator = await session(DEMO.operator);
      const due = await api(getDueDevices, { token: operator.Token, query: { months: 3 } });
      const [first, second] = due.body.Rows;
      expect(second).toBeDefined();

      await signInAs(page, 'operator', language);
      await tabTo(page, page.getByRole('navigation').getByRole('link', { name: t.nav.devices }));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1, name: t.nav.devices })).toBeVisible();
      await screenReady(page);

      // Two due devices selected by keyboard, then "New campaign".
      let dialog = await startCampaign(page, t, [first!.DeviceCode, second!.DeviceCode]);
      expect(await seriousViolations(page, '.ant-modal')).toEqual([]);
      await page.keyboard.type(NAMES[language]);
      await tabTo(page, dialog.getByRole('button', { name: t.common.save }));
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();

      // The new campaign opens on its tab with its progress.
      await expect(page.getByRole('tab', { name: c.tab })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('heading', { level: 2, name: NAMES[language] })).toBeVisible();
      const panel = page.getByRole('tabpanel');
      await expect(
        panel.getByText(fill(c.progress, { planned: 2, done: 0, noAccess: 0, open: 2 })).first(),
      ).toBeVisible();
      await settle(page);
      expect(await seriousViolations(page)).toEqual([]);

      // The first building's visit day, typed by keyboard.
      await tabTo(page, page.getByRole('button', { name: fill(c.planOf, { address: first!.Address }) }));
      await page.keyboard.press('Enter');
      dialog = page.getByRole('dialog');
      await dialogSettled(page, dialog);
      expect(await seriousViolations(page, '.ant-modal')).toEqual([]);
      await page.keyboard.type('2030-03-05');
      await page.keyboard.press('Tab');
      await page.keyboard.type('09:00');
      await page.keyboard.press('Tab');
      await page.keyboard.type('12:00');
      await tabTo(page, dialog.getByRole('button', { name: t.common.save }));
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      await expect(panel.getByText(`${c.visit}: 2030-03-05 09:00–12:00`)).toBeVisible();

      // A visit without access to the first device.
      await tabTo(page, page.getByRole('button', { name: fill(c.recordNoAccessNamed, { serial: first!.DeviceCode }) }));
      await page.keyboard.press('Enter');
      dialog = page.getByRole('dialog');
      await dialogSettled(page, dialog);
      expect(await seriousViolations(page, '.ant-modal')).toEqual([]);
      const reason = language === 'lt' ? 'Niekas neatidarė' : 'Nobody home';
      await page.keyboard.type(reason);
      await tabTo(page, dialog.getByRole('button', { name: t.common.save }));
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      await expect(
        panel.getByText(fill(c.progress, { planned: 2, done: 0, noAccess: 1, open: 1 })).first(),
      ).toBeVisible();
      await expect(panel.getByRole('row').filter({ hasText: first!.DeviceCode })).toContainText(reason);
      await expect(panel.getByRole('row').filter({ hasText: first!.DeviceCode })).toContainText(c.states.noAccess);
      await settle(page);
      expect(await seriousViolations(page)).toEqual([]);

      // Back to the list: the campaign with its counts.
      await tabTo(page, page.getByRole('button', { name: c.back }), { back: true });
      await page.keyboard.press('Enter');
      const listed = panel.getByRole('row').filter({ hasText: NAMES[language] });
      await expect(listed).toBeVisible();
      await expect(listed.getByRole('cell')).toHaveText([
        NAMES[language],
        /\d{4}-\d{2}-\d{2}/,
        /.*/,
        /^[12]$/,
        '2',
        '0',
        '1',
        '1',
      ]);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
