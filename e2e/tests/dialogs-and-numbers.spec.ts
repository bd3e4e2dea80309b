import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import {
  deleteCampaign,
  type ErrorBody,
  enterPhoneDeclaration,
  getBuildingHeatMethods,
  getDueDevices,
  getLocation,
  getStatementFigures,
  listCampaigns,
  listDeclarationDevices,
  listDeclarations,
} from '@rodmenys/contract';
import { api, DEMO, expect, session, test } from './fixtures';
import {
  dialogSettled,
  fill,
  lastMonth,
  openBuilding,
  openFirstFlat,
  SCREENS,
  screenReady,
  seriousViolations,
  settle,
  signInAs,
  startCampaign,
  TEXTS,
} from './screens';

// The screens as people use them (docs/accessibility.md): a number outside its range refused at its field
// and nothing saved; the focus after a dialog closes; axe on the campaign and the publish dialog; numbers in
// the server's messages in the UI language; one name per thing; Statements drawn before its rows arrive.

/** The element that has the focus, as text for a failure message: its tag, name and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName} ${el.getAttribute('aria-label') ?? ''} ${el.textContent?.trim().slice(0, 60)}` : 'none';
  });

/** Waits until `target` has the focus. */
async function expectFocus(page: Page, target: Locator) {
  await expect(target)
    .toBeFocused({ timeout: 10_000 })
    .catch(async (e) => {
      throw new Error(`${e}\nthe focus is on: ${await focused(page)}`);
    });
}

/**
 * The message said at a form field (antd describes the field by it: `<id>_help`); while one message gives
 * way to the next, the one leaving is still there for its animation and is not what the field says.
 */
async function explainOf(field: Locator) {
  const id = await field.getAttribute('id');
  return field.page().locator(`[id="${id}_help"] .ant-form-item-explain-error:not(.ant-form-show-help-item-leave)`);
}

/** axe's serious findings inside `include`, with the experimental label-content-name-mismatch asked for by name. */
async function axeFindings(page: Page, include?: string) {
  const builder = new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } });
  if (include) builder.include(include);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A demo building under a heat method (a version kept), as Master data's search finds it. */
async function heatMethodBuilding(token: string) {
  const { body } = await api(getStatementFigures, { token, query: { month: lastMonth() } });
  const ids = [...new Set(body.Rows.map((r) => r.BuildingId))];
  for (const id of ids) {
    const methods = (await api(getBuildingHeatMethods, { params: { id }, token })).body;
    if (methods.Versions.length) {
      const row = body.Rows.find((r) => r.BuildingId === id)!;
      const location = (await api(getLocation, { params: { id }, token })).body;
      return { id, path: location.Location.Path, title: `${row.Street} ${row.Building}`, methods };
    }
  }
  throw new Error('no demo building under a heat method');
}

async function retype(page: Page, field: Locator, value: string) {
  await field.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(value);
}

test.describe('dialogs and number fields', () => {
  for (const language of ['lt', 'en'] as const) {
    test(`the heat method: a share, k_min and base share outside their range are refused at the field, nothing saved; the focus back after Save, ${language}`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const t = TEXTS[language];
      const h = t.masterData.heatMethod;
      const v = t.validation;
      const me = await session(DEMO.operator);
      const b = await heatMethodBuilding(me.Token);
      const latest = b.methods.Versions.at(-1)!;
      await signInAs(page, 'operator', language);
      await openBuilding(page, t, b);
      const edit = page.getByRole('button', { name: fill(h.editVersion, { month: latest.ValidFrom }) });
      await edit.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialogSettled(page, dialog);
      const point = language === 'lt' ? ',' : '.';
      for (const [label, typed, number, refusal] of [
        [h.commonShare, '60', '60', fill(v.numberBetween, { min: 0, max: 50 })],
        [h.baseShare, '70', '70', fill(v.numberBetween, { min: 0, max: 50 })],
        [h.minimumShare, `1${point}5`, '1.5', fill(v.numberBetween, { min: 0, max: 1 })],
      ] as const) {
        const field = dialog.getByLabel(label, { exact: true });
        await retype(page, field, typed);
        // Out of the field (antd's own range check would now have changed it), then Save.
        await page.keyboard.press('Tab');
        // The number the field holds (drawn with its step's decimals: "1,50").
        await expect(field).toHaveAttribute('aria-valuenow', number);
        await dialog.getByRole('button', { name: t.common.save }).focus();
        await page.keyboard.press('Enter');
        await expect(await explainOf(field)).toHaveText(refusal);
        await expect(field).toHaveAttribute('aria-invalid', 'true');
        await expect(field).toHaveAttribute('aria-valuenow', number);
        await expect(dialog).toBeVisible();
        // Put back, so that the next one is the only one refused.
        await retype(page, field, '0');
      }
      const after = (await api(getBuildingHeatMethods, { params: { id: b.id }, token: me.Token })).body;
      expect(after.Versions).toEqual(b.methods.Versions);

      // The version saved as it was: the dialog closes and the focus is back on its button.
      await dialog.getByRole('button', { name: t.common.cancel }).focus();
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      await expectFocus(page, edit);
      await page.keyboard.press('Enter');
      await dialogSettled(page, dialog);
      await dialog.getByRole('button', { name: t.common.save }).focus();
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      await expectFocus(page, edit);
      const saved = (await api(getBuildingHeatMethods, { params: { id: b.id }, token: me.Token })).body;
      // Saved as it was (the dialog lists every flat, a factor of 1 where the version named none).
      const strip = ({ ChangedAt: _a, ChangedBy: _b, Flats: _f, ...rest }: typeof latest) => rest;
      expect(strip(saved.Versions.at(-1)!)).toEqual(strip(latest));
      expect(
        saved.Versions.at(-1)!.Flats.every(
          (f) =>
            f.PositionFactor === 1 ||
            latest.Flats.some((l) => l.FlatId === f.FlatId && l.PositionFactor === f.PositionFactor),
        ),
      ).toBe(true);

      // A flat's occupants: "Record a move" and "Link and code" give the focus back when they close.
      await page.goto('/masterData');
      await screenReady(page);
      await page.getByRole('tab', { name: t.masterData.tabTree }).click();
      await openFirstFlat(page);
      const move = page.getByRole('button', { name: t.occupancies.recordMove });
      await move.focus();
      await page.keyboard.press('Enter');
      const moveDialog = page.getByRole('dialog');
      await dialogSettled(page, moveDialog);
      await moveDialog.getByRole('button', { name: t.common.cancel }).focus();
      await page.keyboard.press('Enter');
      await expect(moveDialog).toBeHidden();
      await expectFocus(page, move);
      const link = page.getByRole('button', { name: new RegExp(`^${t.occupantAccess.open}: `) }).first();
      if (await link.count()) {
        await link.focus();
        await page.keyboard.press('Enter');
        const access = page.getByRole('dialog');
        await dialogSettled(page, access);
        await access.getByRole('button', { name: t.common.close, exact: true }).last().focus();
        await page.keyboard.press('Enter');
        await expect(access).toBeHidden();
        await expectFocus(page, link);
      }
    });
  }

  for (const language of ['lt', 'en'] as const) {
    test(`a phone declaration: a value above the maximum refused at the field, a value below the previous refused in the language's numbers, named as its label; the focus back; ${language}`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const t = TEXTS[language];
      const d = t.declarationsOffice;
      const operator = await session(DEMO.operator);
      const devices = (await api(listDeclarationDevices, { token: operator.Token })).body;
      const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Vilnius' });
      const day = devices.Closes < today ? devices.Closes : today;
      // A declared meter whose previous value has decimals (the probe is refused, nothing stored).
      let device: (typeof devices.Rows)[number] | undefined;
      let previous = '';
      for (const r of devices.Rows.filter((x) => x.OccupancyId !== null && !x.Declared)) {
        const probe = await api(enterPhoneDeclaration, {
          token: operator.Token,
          body: { deviceId: r.DeviceId, value: 0, day, callerName: 'probe' },
        });
        expect(probe.status, 'a probe below every register').toBe(400);
        const p = (probe.body as unknown as ErrorBody).params?.previous ?? '';
        if (/\.\d/.test(p)) {
          device = r;
          previous = p;
          break;
        }
      }
      expect(device, 'a meter with a previous value with decimals').toBeTruthy();
      const month = devices.Month;
      const before = (await api(listDeclarations, { token: operator.Token, query: { month } })).body.Rows.length;

      await signInAs(page, 'operator', language);
      await page.goto('/devices');
      await screenReady(page);
      await page.getByRole('tab', { name: d.tab }).click();
      const phone = page.getByRole('tabpanel').getByRole('button', { name: d.phone });
      await phone.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialogSettled(page, dialog);
      await page.keyboard.type(device!.DeviceCode);
      await expect(page.locator('.ant-select-item-option').filter({ hasText: device!.DeviceCode })).toBeVisible();
      await page.keyboard.press('Enter');
      const value = dialog.getByLabel(d.value, { exact: true });
      await retype(page, dialog.getByLabel(d.day, { exact: true }), day);
      await page.keyboard.press('Enter');
      await dialog.getByLabel(d.callerName, { exact: true }).fill('E2E');

      // Above the maximum: refused at the field, as typed.
      await retype(page, value, '2000000000');
      await page.keyboard.press('Tab');
      await expect(value).toHaveValue('2000000000');
      await dialog.getByRole('button', { name: t.common.save }).focus();
      await page.keyboard.press('Enter');
      const explain = await explainOf(value);
      // Numbers as the language writes them (lt groups thousands with a no-break space).
      const said = async () => (await explain.textContent())?.replace(/\u00a0/g, ' ');
      const max = language === 'lt' ? '1 000 000 000' : '1,000,000,000';
      await expect.poll(said).toBe(fill(t.validation.numberBetween, { min: 0, max }));

      // Below the previous value: the server's refusal, at the field, named as the field is, in the language's numbers.
      const below = (Number(previous) - 1).toString().replace('.', language === 'lt' ? ',' : '.');
      await retype(page, value, below);
      await dialog.getByRole('button', { name: t.common.save }).focus();
      await page.keyboard.press('Enter');
      const shown = Number(previous)
        .toLocaleString(language, { maximumFractionDigits: 6 })
        .replace(/\u00a0/g, ' ');
      expect(shown).toContain(language === 'lt' ? ',' : '.');
      await expect.poll(said).toBe(fill(t.serverErrors.declarationBelowPrevious, { field: d.value, previous: shown }));
      await expect(dialog).toBeVisible();
      const after = (await api(listDeclarations, { token: operator.Token, query: { month } })).body.Rows.length;
      expect(after).toBe(before);

      await dialog.getByRole('button', { name: t.common.cancel }).focus();
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      await expectFocus(page, phone);
    });
  }

  for (const language of ['lt', 'en'] as const) {
    test(`a campaign: the focus on the new campaign, back on Plan and No access after their dialogs; axe clean with the name rule, ${language}`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const t = TEXTS[language];
      const c = t.campaigns;
      const name = `Fokusas ${language} ${Date.now()}`;
      const operator = await session(DEMO.operator);
      const due = await api(getDueDevices, { token: operator.Token, query: { months: 3 } });
      const [first, second] = due.body.Rows;
      try {
        await signInAs(page, 'operator', language);
        await page.goto('/devices');
        await screenReady(page);
        let dialog = await startCampaign(page, t, [first!.DeviceCode, second!.DeviceCode]);
        await page.keyboard.type(name);
        await page.keyboard.press('Enter');
        await expect(dialog).toBeHidden();
        // What the dialog made: the new campaign, its name focused.
        await expectFocus(page, page.getByRole('heading', { level: 2, name }));

        const plan = page.getByRole('button', { name: fill(c.planOf, { address: first!.Address }) });
        await plan.focus();
        await page.keyboard.press('Enter');
        dialog = page.getByRole('dialog');
        await dialogSettled(page, dialog);
        await page.keyboard.type('2030-03-05');
        await dialog.getByRole('button', { name: t.common.save }).focus();
        await page.keyboard.press('Enter');
        await expect(dialog).toBeHidden();
        await expectFocus(page, plan);

        const noAccess = page.getByRole('button', { name: fill(c.recordNoAccessNamed, { serial: first!.DeviceCode }) });
        await noAccess.focus();
        await page.keyboard.press('Enter');
        dialog = page.getByRole('dialog');
        await dialogSettled(page, dialog);
        await page.keyboard.type(language === 'lt' ? 'Niekas neatidarė' : 'Nobody home');
        await dialog.getByRole('button', { name: t.common.save }).focus();
        await page.keyboard.press('Enter');
        await expect(dialog).toBeHidden();
        await expectFocus(page, noAccess);
        await settle(page);
        expect(await axeFindings(page)).toEqual([]);
      } finally {
        const campaigns = await api(listCampaigns, { token: operator.Token });
        for (const x of campaigns.body.filter((x) => x.Name === name))
          await api(deleteCampaign, { token: operator.Token, params: { id: x.Id } });
      }
    });
  }

  for (const language of ['lt', 'en'] as const) {
    test(`one name per thing: every menu item opens a screen of the same name, ${language}`, async ({ page }) => {
      test.setTimeout(120_000);
      const t = TEXTS[language];
      await signInAs(page, 'operator', language);
      for (const screen of SCREENS) {
        if (!screen.label || screen.path === '/') continue;
        const label = screen.label(t);
        await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
        await expect(page.getByRole('heading', { level: 1 }), screen.path).toHaveText(label);
      }
    });
  }

  test('Statements: the table and its headers at once, its rows to come, never an empty page; the publish dialog axe clean', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const t = TEXTS.lt;
    await signInAs(page, 'operator', 'lt');
    // The figures held back until the frame has been looked at.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/statements/figures*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/statements?month=${lastMonth()}`);
    await expect(page.getByRole('heading', { level: 1, name: t.nav.statements })).toBeVisible();
    const table = page.locator('.statements-table');
    await expect(table.getByRole('columnheader', { name: t.statements.flat, exact: true }).first()).toBeVisible();
    await expect(table.getByRole('columnheader', { name: t.statements.kinds.heating }).first()).toBeVisible();
    await expect(table.getByRole('status', { name: t.statements.rowsComing })).toBeVisible();
    await expect(table).not.toContainText(t.statements.none);
    release();
    await expect(table.locator('.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
    await expect(table.getByRole('status', { name: t.statements.rowsComing })).toHaveCount(0);
    await page.unroute('**/api/statements/figures*');

    // The publish dialog and its pager: axe finds nothing serious.
    await page.getByRole('button', { name: t.statements.publish }).click();
    const dialog = page.getByRole('dialog');
    await dialogSettled(page, dialog);
    await page.waitForLoadState('networkidle');
    await settle(page);
    expect(await axeFindings(page, '.ant-modal')).toEqual([]);
    expect(await seriousViolations(page, '.ant-modal')).toEqual([]);
    await dialog.getByRole('button', { name: t.common.cancel }).click();
    await expect(dialog).toBeHidden();
  });
});
