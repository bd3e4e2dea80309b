import { updateUser } from '@rodmenys/contract';
import { api, DEMO, expect, newUser, session, signIn, test } from './fixtures';

test.describe('audit log', () => {
  test('shows what changed field by field, in Lithuanian, with the record by its name; a save that changes nothing is not logged', async ({
    page,
  }) => {
    const user = await newUser('audit');
    const operator = await session(DEMO.operator);
    const change = { firstName: 'Pakeistas', phone: '+37060000000' };
    expect((await api(updateUser, { params: { id: user.id }, body: change, token: operator.Token })).status).toBe(200);
    // The same save again changes nothing.
    expect((await api(updateUser, { params: { id: user.id }, body: change, token: operator.Token })).status).toBe(200);

    await signIn(page, DEMO.operator);
    await page.goto('/audit');
    const rows = page.locator('.ant-table-row').filter({ hasText: user.username });
    await expect(rows.first()).toBeVisible();
    // user.create (registration) and one user.update: the second save left no entry.
    await expect(rows).toHaveCount(2);
    const updated = rows.first();
    await expect(updated).toContainText('Pakeistas naudotojas');
    await expect(updated).toContainText('Vartotojas');
    await expect(updated).toContainText(`Vardas: ${user.firstName} → Pakeistas`);
    await expect(updated).toContainText('Telefonas: — → +37060000000');
    await expect(updated).not.toContainText('FirstName');
    await expect(updated).not.toContainText('LastName');
  });
});
