import type { Page } from '@playwright/test';
import {
  getAuditLog,
  getFlatOccupancies,
  getLocation,
  LOCATION_LEVEL,
  listLocationChildren,
  signInOccupantByCode,
} from '@rodmenys/contract';
import { api, DEMO, expect, session, tabTo, test } from './fixtures';
import { dialogSettled, type Language, seriousViolations, settle, signInAs, TEXTS } from './screens';

// The occupant's link and letter code on a flat's occupants card (docs/occupant-access.md, "The back
// office"): whether they are live and since when, reissue (the new code shown once, a printable letter
// for that one occupant), revoke; audited; by keyboard, in both languages, axe on the dialog.

const CODE = /^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/;

/** A demo flat with a current occupant: the first child at every level down to the building, then its `n`-th flat. */
async function demoFlat(n: number) {
  const me = await session(DEMO.operator);
  let parentId: number | undefined;
  for (let level: number = LOCATION_LEVEL.country; level < LOCATION_LEVEL.flat; level++) {
    const { body } = await api(listLocationChildren, { query: { parentId }, token: me.Token });
    parentId = body[0]!.Id;
  }
  const flats = await api(listLocationChildren, { query: { parentId }, token: me.Token });
  const flat = (await api(getLocation, { params: { id: flats.body[n]!.Id }, token: me.Token })).body;
  const occupancies = await api(getFlatOccupancies, { params: { id: flat.Location.Id }, token: me.Token });
  const current = occupancies.body.Occupancies.find((o) => o.MoveOut === null)!;
  expect(current, 'the demo flat has a current occupant').toBeTruthy();
  return { flat, current, token: me.Token };
}

/** Opens the flat on Master data by the address search, keyboard only. */
async function openFlat(page: Page, language: Language, flat: Awaited<ReturnType<typeof demoFlat>>['flat']) {
  const t = TEXTS[language];
  const street = flat.Ancestors.find((a) => a.Level === LOCATION_LEVEL.street)!.Name;
  const building = flat.Ancestors.find((a) => a.Level === LOCATION_LEVEL.building)!.Name;
  await page.goto('/masterData');
  await page.getByRole('tab', { name: t.masterData.tabTree }).focus();
  await page.keyboard.press('Enter');
  const search = page.getByRole('combobox', { name: t.masterData.search.label });
  await search.focus();
  await page.keyboard.type(`${street} ${building}-${flat.Location.Name}`);
  const wanted = `${t.masterData.search.flat}: ${flat.Location.Path}`;
  const active = page.locator('.ant-select-item-option-active');
  await expect(page.locator('.ant-select-item-option', { hasText: wanted })).toHaveCount(1);
  for (let i = 0; i < 20 && (await active.textContent()) !== wanted; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: t.occupancies.recordMove })).toBeVisible();
}

const fill = (text: string, values: Record<string, string>) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, v), text);

for (const [language, n] of [
  ['lt', 5],
  ['en', 6],
] as const) {
  test(`${language}: reissue and revoke an occupant's link and code, by keyboard, with a printed letter`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const t = TEXTS[language];
    const a = t.occupantAccess;
    const { flat, current, token } = await demoFlat(n);
    // The print dialog is the browser's: note that it was asked for.
    await page.addInitScript(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await signInAs(page, 'operator', language);
    await openFlat(page, language, flat);

    const open = page.getByRole('button', { name: fill(a.openOf, { name: current.Name }) });
    await tabTo(page, open);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: fill(a.title, { name: current.Name }) });
    await dialogSettled(page, dialog);
    await expect(dialog.getByRole('row', { name: new RegExp(`^${a.until}`) })).toContainText(a.untilOpen);
    expect(await seriousViolations(page)).toEqual([]);

    // Reissue: asked first, then the new code has the focus, shown once.
    await tabTo(page, dialog.getByRole('button', { name: a.reissue }));
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog').filter({ hasText: fill(a.reissueConfirm, { name: current.Name }) });
    await expect(confirm.getByRole('button', { name: t.common.ok })).toBeFocused();
    await page.keyboard.press('Enter');
    const code = dialog.getByRole('textbox', { name: a.newCode, exact: true });
    await expect(code).toBeFocused();
    const letterCode = await code.inputValue();
    expect(letterCode).toMatch(CODE);
    await expect(dialog.getByRole('textbox', { name: a.newLink, exact: true })).toHaveValue(
      /\/occupant\/open#[A-Za-z0-9_-]{43}$/,
    );
    await expect(dialog.getByRole('row', { name: new RegExp(`^${a.links}`) })).toContainText(
      fill(a.linksLive, { count: '1', at: '' }).split(',')[0]!,
    );
    await expect(dialog.getByRole('row', { name: new RegExp(`^${a.code}`) })).toContainText(
      fill(a.codeLive, { at: '' }).trim(),
    );
    await settle(page);
    expect(await seriousViolations(page)).toEqual([]);

    // The code opens the occupant's pages.
    const signedIn = await api(signInOccupantByCode, { body: { flat: flat.Location.Id, code: letterCode } });
    expect(signedIn.status).toBe(201);

    // The letter for this one occupant: printed alone, with the code, the flat's number and the code page.
    await tabTo(page, dialog.getByRole('button', { name: a.print }));
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await page.emulateMedia({ media: 'print' });
    const letter = page.locator('.occupant-letter');
    await expect(letter).toBeVisible();
    await expect(letter).toContainText(letterCode);
    await expect(letter).toContainText(current.Name);
    await expect(letter).toContainText(String(flat.Location.Id));
    await expect(letter).toContainText('/occupant');
    await expect(dialog).toBeHidden();
    await page.emulateMedia({ media: 'screen' });
    await expect(letter).toBeHidden();

    // Revoke: the code stops working at once; nothing is live.
    await tabTo(page, dialog.getByRole('button', { name: a.revoke }));
    await page.keyboard.press('Enter');
    // Enter only once the question has the focus on its OK (pressed earlier, it lands on Revoke again).
    await expect(
      page
        .getByRole('dialog')
        .filter({ hasText: fill(a.revokeConfirm, { name: current.Name }) })
        .getByRole('button', { name: t.common.ok }),
    ).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('row', { name: new RegExp(`^${a.links}`) })).toContainText(a.linksNone);
    await expect(dialog.getByRole('row', { name: new RegExp(`^${a.code}`) })).toContainText(a.codeNone);
    await expect(dialog.getByRole('textbox', { name: a.newCode, exact: true })).toHaveCount(0);
    const refused = await api(signInOccupantByCode, { body: { flat: flat.Location.Id, code: letterCode } });
    expect(refused.status).toBe(401);

    // Both are in the audit log, for this occupancy, by the operator.
    const audit = await api(getAuditLog, { token, query: { kind: 'occupantAccess.reissue,occupantAccess.revoke' } });
    const mine = audit.body.Data.filter((e) => e.EntityId === String(current.Id)).map((e) => e.Kind);
    expect(mine.slice(0, 2)).toEqual(['occupantAccess.revoke', 'occupantAccess.reissue']);

    // Closed by keyboard; the new code is nowhere on the page any more.
    await tabTo(page, dialog.getByRole('button', { name: t.common.close }).last());
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByText(letterCode)).toHaveCount(0);
  });
}

for (const [language, n] of [
  ['lt', 5],
  ['en', 6],
] as const) {
  test(`${language}: a refused "Record a move" is said in the dialog, on the day it names, by keyboard`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const t = TEXTS[language];
    const { flat } = await demoFlat(n);
    await signInAs(page, 'operator', language);
    await openFlat(page, language, flat);
    await tabTo(page, page.getByRole('button', { name: t.occupancies.recordMove }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: t.occupancies.recordMove });
    await dialogSettled(page, dialog);
    // A day the server refuses: in the future (the form itself lets any day through).
    const future = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const day = dialog.getByLabel(t.occupancies.day);
    await day.focus();
    await page.keyboard.type(future);
    await page.keyboard.press('Enter');
    await tabTo(page, dialog.getByLabel(t.occupancies.clientCode));
    await page.keyboard.type(`E2E-FUTURE-${language}`);
    await tabTo(page, dialog.getByLabel(t.occupancies.name));
    await page.keyboard.type('Ateities Gyventojas');
    await tabTo(page, dialog.getByRole('button', { name: t.common.save }));
    await page.keyboard.press('Enter');

    // Named as the dialog names the field (docs/accessibility.md), not by the server's field name.
    const refusal = fill(t.serverErrors.timeInFuture, { field: t.occupancies.day });
    // On the field: marked invalid, described by the message, focused; the dialog stays open with what was typed.
    await expect(day).toHaveAttribute('aria-invalid', 'true');
    await expect(day).toHaveAccessibleDescription(refusal);
    await expect(day).toBeFocused();
    await expect(dialog.getByLabel(t.occupancies.clientCode)).toHaveValue(`E2E-FUTURE-${language}`);
    // Said once, in the dialog: no toast behind the mask as well.
    await expect(page.getByText(refusal)).toHaveCount(1);
    await settle(page);
    expect(await seriousViolations(page)).toEqual([]);
    await tabTo(page, dialog.getByRole('button', { name: t.common.cancel }));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
  });
}
