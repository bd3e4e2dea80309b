import { getDueDevices, getRemoteRegister, setRemoteException } from '@rodmenys/contract';
import { api, DEMO, expect, session, tabTo, test } from './fixtures';
import { dialogSettled, screenReady, seriousViolations, settle, signInAs, TEXTS } from './screens';

// Devices over their lifetime (docs/device-lifetime.md): the due list, the remote-reading register
// with an exception note written by keyboard, and the walk-by list, in both languages, axe clean.
// The demo carries overdue devices and non-remote ones (server/src/demo/generate.ts).

test.describe('devices over their lifetime', () => {
  test.afterAll(async () => {
    const operator = await session(DEMO.operator);
    const register = await api(getRemoteRegister, { token: operator.Token });
    for (const b of register.body.Buildings.filter((x) => x.Exception)) {
      await api(setRemoteException, {
        token: operator.Token,
        params: { buildingId: b.BuildingId },
        body: { note: null },
      });
    }
  });

  for (const language of ['lt', 'en'] as const) {
    test(`due list, register and walk-by list by keyboard, ${language}`, async ({ page }) => {
      test.setTimeout(180_000);
      const t = TEXTS[language];
      const operator = await session(DEMO.operator);
      const due = await api(getDueDevices, { token: operator.Token, query: { months: 3 } });
      expect(due.body.Rows.some((r) => r.Bucket === 'overdue')).toBe(true);
      const register = await api(getRemoteRegister, { token: operator.Token });
      expect(register.body.Summary.Devices).toBeGreaterThan(register.body.Summary.Remote);
      expect(register.body.Summary.LateNotRemote).toBeGreaterThan(0);

      await signInAs(page, 'operator', language);
      await tabTo(page, page.getByRole('navigation').getByRole('link', { name: t.nav.devices }));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1, name: t.nav.devices })).toBeVisible();
      await screenReady(page);

      // The due list: the first due device of the demo, its bucket in the UI language.
      const first = due.body.Rows[0]!;
      const row = page.getByRole('tabpanel').getByRole('row').filter({ hasText: first.DeviceCode });
      await expect(row).toContainText(first.DueDate);
      await expect(page.getByRole('table').first()).toContainText(t.lifetime.buckets.overdue);
      expect(await seriousViolations(page)).toEqual([]);

      // One building's due devices: chosen by typing its address in the building box.
      const other = due.body.Rows.find((r) => r.BuildingId !== first.BuildingId);
      await page.getByRole('combobox', { name: t.lifetime.building }).focus();
      await page.keyboard.type(first.Address);
      await page.keyboard.press('Enter');
      await expect(row).toBeVisible();
      if (other)
        await expect(page.getByRole('tabpanel').getByRole('cell', { name: other.Address, exact: true })).toHaveCount(0);

      // The register tab, by keyboard.
      await page.getByRole('tab', { name: t.lifetime.dueTab }).focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('tab', { name: t.lifetime.registerTab })).toHaveAttribute('aria-selected', 'true');
      const building = register.body.Buildings[0]!;
      const panel = page.getByRole('tabpanel');
      await expect(panel.getByText(building.Address, { exact: true }).first()).toBeVisible();
      await settle(page);
      expect(await seriousViolations(page)).toEqual([]);

      // An exception note for the first building, typed and saved by keyboard.
      const note = language === 'lt' ? 'Radijo moduliai brangesni už sutaupomą šilumą' : 'Radio modules cost more';
      await tabTo(page, page.getByRole('button', { name: `${t.lifetime.editException}: ${building.Address}` }));
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialogSettled(page, dialog);
      expect(await seriousViolations(page, '.ant-modal')).toEqual([]);
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type(note);
      await dialog.getByRole('button', { name: t.common.save }).focus();
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      await expect(panel.getByRole('row').filter({ hasText: building.Address }).first()).toContainText(note);

      // The walk-by list tab.
      await page.getByRole('tab', { name: t.lifetime.registerTab }).focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await expect(page.getByLabel(t.lifetime.walkByMonths)).toBeVisible();
      await settle(page);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
