import { describe, expect, it } from 'vitest';
import { useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import { makeBuilding, makeFlat } from '../../test/factories.js';
import { accountsAt } from './account.js';

// The billing export's account is the occupancy's valid in the month (docs/occupancies.md), not today's client.
describe(`accountsAt (${dbKind()})`, () => {
  const t = useApp();

  const client = async (code: string) =>
    (
      await t.db.query<{ id: number }>("INSERT INTO client (code, name) VALUES ($1, $1 || ' name') RETURNING id", [
        code,
      ])
    ).rows[0]!.id;

  it('gives each month the account of the flat’s last occupancy that month', async () => {
    const building = await makeBuilding(t.db, { city: 'Vilnius', street: 'Sąskaitų g.', number: '1' });
    const moved = (await makeFlat(t.db, building, { name: '1', order: 1 })).id;
    const plain = (await makeFlat(t.db, building, { name: '2', order: 2 })).id;
    const [oldC, newC, plainC] = [await client('ACC-OLD'), await client('ACC-NEW'), await client('ACC-PLAIN')];
    // Today's client of the moved flat is the new occupant's; the plain flat has no occupancy at all.
    await t.db.query('UPDATE location SET client_id = $2 WHERE id = $1', [moved, newC]);
    await t.db.query('UPDATE location SET client_id = $2 WHERE id = $1', [plain, plainC]);
    await t.db.query(
      `INSERT INTO occupancy (location_id, client_id, name, move_in, move_out) VALUES
         ($1, $2, 'Senasis', NULL, '2026-03-15'), ($1, $3, 'Naujoji', '2026-03-15', NULL)`,
      [moved, oldC, newC],
    );
    const code = async (month: string) => {
      const m = await accountsAt(t.db, [moved, plain], month);
      return [m.get(moved)?.code, m.get(plain)?.code];
    };
    expect(await code('2026-02')).toEqual(['ACC-OLD', 'ACC-PLAIN']);
    // The month of the move: its last occupant's account, as the flat's statement carries it.
    expect(await code('2026-03')).toEqual(['ACC-NEW', 'ACC-PLAIN']);
    expect(await code('2026-04')).toEqual(['ACC-NEW', 'ACC-PLAIN']);
    expect(await accountsAt(t.db, [], '2026-03')).toEqual(new Map());
  });
});
