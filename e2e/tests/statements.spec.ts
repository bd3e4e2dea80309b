import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { DEMO, expect, signIn, test } from './fixtures';
import { figuresReady, lastMonth, signInAs } from './screens';

test.describe('monthly statements', () => {
  test.setTimeout(180_000);

  test('Lithuanian: the flats of a building with their figures, a flat’s statement, its PDF', async ({ page }) => {
    await figuresReady('manager');
    await signIn(page, DEMO.manager);
    await page.getByRole('navigation').getByRole('link', { name: 'Ataskaitos' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Ataskaitos' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: /Šildymas/ }).first()).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Šis mėnuo' }).first()).toBeVisible();
    const first = page.locator('.ant-table-row').first();
    await expect(first).toBeVisible();
    await expect(page.getByText('Preliminari: šis mėnuo dar nepaskelbtas.')).toBeVisible();

    await first.getByRole('button', { name: /ataskaita/ }).click();
    const drawer = page.getByRole('dialog').filter({ hasText: 'Mėnesio suvartojimo ataskaita' });
    await expect(drawer.getByRole('cell', { name: 'Tas pats mėnuo pernai' })).toBeVisible();
    await expect(drawer.getByRole('cell', { name: 'Pastato vidurkis (butui)' })).toBeVisible();
    await expect(drawer.getByText('Paskutiniai 13 mėnesių')).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      drawer.getByRole('button', { name: 'PDF' }).click(),
    ]);
    // Named for what it holds, in Lithuanian: the month, the building, the flat's number.
    expect(download.suggestedFilename()).toMatch(/^Ataskaita \d{4}-\d{2}, .+ \d+\w*, butas \S+\.pdf$/);
    expect(
      readFileSync((await download.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
  });

  test('English: the operator publishes the month; the flats show the published version; a flat’s statement and its PDF; PDF as a zip, Excel', async ({
    page,
  }) => {
    await figuresReady('operator');
    await signInAs(page, 'operator', 'en');
    await page.goto(`/statements?month=${lastMonth()}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Statements' })).toBeVisible();
    await expect(page.locator('.ant-table-row').first()).toBeVisible();

    await page.getByRole('button', { name: 'Publish' }).click();
    const dialog = page.getByRole('dialog', { name: /Publish the statements of/ });
    await expect(dialog).toContainText('Publishing freezes the figures');
    await dialog.getByRole('button', { name: 'Publish' }).click();
    // Other specs may have published this building before (then this publication may make a further
    // version, or none if nothing changed): wait for the outcome, then the row shows a version.
    await expect(
      page.getByText(/Published: \d+ buildings, \d+ flats|Nothing changed, so no new version was made/).first(),
    ).toBeVisible();
    await expect(page.locator('.ant-table-row').first()).toContainText(/published \(version \d+\)/);
    await expect(page.getByText(/Published: \d+ of \d+ flats/)).toBeVisible();

    // A flat's statement in English, as published, and its PDF.
    await page
      .locator('.ant-table-row')
      .first()
      .getByRole('button', { name: /statement/ })
      .click();
    const drawer = page.getByRole('dialog').filter({ hasText: 'Monthly consumption statement' });
    await expect(drawer.getByRole('cell', { name: 'Same month last year' })).toBeVisible();
    await expect(drawer.getByRole('cell', { name: 'Building average (per flat)' })).toBeVisible();
    await expect(drawer.getByText('The last 13 months')).toBeVisible();
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      drawer.getByRole('button', { name: 'PDF' }).click(),
    ]);
    expect(pdf.suggestedFilename()).toMatch(/^Statement \d{4}-\d{2}, .+, flat \S+\.pdf$/);
    expect(
      readFileSync((await pdf.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();

    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'PDF' }).click()]);
    expect(zip.suggestedFilename()).toMatch(/^Statements \d{4}-\d{2}, buildings \(\d+\)\.zip$/);
    expect(
      readFileSync((await zip.path())!)
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');

    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Excel' }).click(),
    ]);
    expect(xlsx.suggestedFilename()).toMatch(/^Statements \d{4}-\d{2}, buildings \(\d+\)\.xlsx$/);

    // Publishing again with nothing changed makes no new version (and sends nothing) unless asked.
    // The version is read now, long after the first publication's refresh of the table.
    const version = /published \(version (\d+)\)/.exec(
      (await page.locator('.ant-table-row').first().textContent()) ?? '',
    )?.[1];
    expect(version).toMatch(/^\d+$/);
    await page.getByRole('button', { name: 'Publish' }).click();
    const again = page.getByRole('dialog', { name: /Publish the statements of/ });
    await expect(again).toContainText('Nothing has changed');
    await expect(
      again.getByRole('checkbox', { name: 'Make a new version anyway and send the e-mails again' }),
    ).not.toBeChecked();
    await again.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText(/Nothing changed, so no new version was made/)).toBeVisible();
    // Nothing new: the same version as after the first publication.
    await expect(page.locator('.ant-table-row').first()).toContainText(`published (version ${version})`);
    await expect(page.getByText('Publication e-mails')).toBeVisible();

    // Delivery to occupants (docs/delivery.md): the demo's occupants have no e-mail, so each gets a
    // letter; a building's panel opens from the keyboard and its letters download as one PDF.
    const deliveries = page.locator('.occupant-deliveries');
    await expect(deliveries).toBeVisible();
    const panel = deliveries.getByRole('button', { name: /sent \d+ · waiting \d+ · failed \d+ · printed 0/ }).first();
    await panel.focus();
    await page.keyboard.press('Enter');
    await expect(deliveries.getByRole('table').first()).toContainText('letter');
    await expect(deliveries.getByText('Each download of letters issues new letter codes')).toBeVisible();
    const axe = await new AxeBuilder({ page }).include('.occupant-deliveries').analyze();
    expect(axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')).toEqual([]);
    const [letters] = await Promise.all([
      page.waitForEvent('download'),
      deliveries
        .getByRole('button', { name: /^Letters to print \(\d+\)$/ })
        .first()
        .click(),
    ]);
    expect(letters.suggestedFilename()).toMatch(/^Letters \d{4}-\d{2}, .+\.pdf$/);
    expect(
      readFileSync((await letters.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await expect(deliveries.getByRole('table').first()).toContainText('printed');
  });
});
